"""A list page's links to its rows' cases and tasks, built through the router once per page.

A page of 100 inbox rows asked Werkzeug's router for four links a row (`url_for`: the rule's
build, Flask's URL defaults, the script root), a sixth of the page's render (issue 21, profiled at
50,000 cases). A row's link differs from the next row's only in its id, so the page builds the
link once around a marker id and each row puts its own id in the marker's place.
"""
from __future__ import annotations

from collections.abc import Callable

from flask import url_for

# No row has this id; an `int` converter takes it, and its digits are not part of any path.
_MARKER = 987_654_321_987_654_321


def row_link(endpoint: str, key: str) -> Callable[[int], str]:
    """`link(id)` == `url_for(endpoint, **{key: id})` for the page being rendered."""
    path, query, _ = url_for(endpoint, **{key: _MARKER}).partition("?")
    head, marker, tail = path.rpartition(str(_MARKER))
    if query or not marker:  # the id went to the query, or a converter rewrote it: no shortcut here
        raise ValueError(f"{endpoint} does not put its {key} in its path as it is")

    def link(value: int) -> str:
        return f"{head}{int(value)}{tail}"

    return link
