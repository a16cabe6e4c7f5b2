"""What one deploy may hold (README §Deploying): generous caps so that no diagram, however drawn,
turns a start or a completion into minutes of engine work.

Operational limits, not legal parameters: they sit in code, not in processes/. Each refusal names
the file or element and the cap it passed (HTTP 400).
"""
from __future__ import annotations

# One file of an upload (BPMN, DMN or form): 5 MB is a hundred times the largest procedure here.
MAX_FILE_BYTES = 5 * 1024 * 1024
# Flow elements and sequence flows of all the upload's diagrams together (the four procedures
# have under 150); the library's cost grows with the tree it builds from them.
MAX_ELEMENTS = 3000
# Outgoing sequence flows of one gateway (or activity): a 1,000-branch parallel split took 75 s to
# start; real procedures fan out to a handful.
MAX_BRANCHES = 50
