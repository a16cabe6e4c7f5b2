"""A person saves a list's current filter under a name, and deletes it ("mis casos vencidos").

Saved filters are each person's own shortcuts: they change no case and no one else's work, so they
are not written to the audit history. Saving a name again replaces that filter's query.
"""
from __future__ import annotations

from urllib.parse import parse_qsl, urlencode

from sqlalchemy import delete, func, insert, select, update

from engine.errors import NotFound, ValidationFailed
from engine.persistence.models import SavedFilter

TABLE = SavedFilter.__table__
LISTS = ("cases", "tasks")
MAX_PER_USER = 50
PAGING = {"page", "per_page", "mine_page", "available_page", "format"}


def clean_query(query: str) -> str:
    """The query string without paging: a saved filter opens at its first page."""
    pairs = [(k, v) for k, v in parse_qsl(query or "", keep_blank_values=False) if k not in PAGING]
    return urlencode(pairs)


def save_filter(ctx, list_name: str, name: str, query: str) -> dict:
    name, errors = (name or "").strip(), {}
    if list_name not in LISTS:
        errors["list"] = [f"one of {', '.join(LISTS)}"]
    if not name or len(name) > 100:
        errors["name"] = ["a name of 1 to 100 characters"]
    query = clean_query(query)
    if len(query) > 2000:
        errors["query"] = ["at most 2000 characters"]
    if errors:
        raise ValidationFailed("the filter cannot be saved", errors)
    me = ctx.actor.username
    mine = TABLE.c.username == me
    existing = ctx.conn.execute(select(TABLE.c.id).where(mine, TABLE.c.list == list_name,
                                                         TABLE.c.name == name)).scalar()
    if existing is not None:
        ctx.conn.execute(update(TABLE).where(TABLE.c.id == existing).values(query=query))
        return {"id": existing, "list": list_name, "name": name, "query": query}
    if ctx.conn.execute(select(func.count()).select_from(TABLE).where(mine)).scalar() >= MAX_PER_USER:
        raise ValidationFailed("too many saved filters", {"name": [f"at most {MAX_PER_USER}; delete one first"]})
    new_id = ctx.conn.execute(insert(TABLE).values(username=me, list=list_name, name=name, query=query,
                                                   created_at=ctx.now).returning(TABLE.c.id)).scalar_one()
    return {"id": new_id, "list": list_name, "name": name, "query": query}


def delete_filter(ctx, filter_id: int) -> None:
    """Only one's own; another person's filter is as absent as one that never was."""
    done = ctx.conn.execute(delete(TABLE).where(TABLE.c.id == filter_id, TABLE.c.username == ctx.actor.username))
    if done.rowcount != 1:
        raise NotFound(f"there is no saved filter {filter_id}")
