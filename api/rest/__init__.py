"""REST routes of API.md, one blueprint per resource."""
from __future__ import annotations

from api.rest.schemas import MAX_ID, MAX_VERSION

# Path converters for ids and version numbers: a number past the column's range matches no route
# (404) instead of reaching the database, which would refuse to compare with it (500).
ID = f"int(max={MAX_ID})"
VERSION = f"int(max={MAX_VERSION})"
