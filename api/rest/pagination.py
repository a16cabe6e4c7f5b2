"""Page answers the API.md way: a JSON array body, the total in X-Total-Count, links in Link."""
from __future__ import annotations

from urllib.parse import quote, urlencode

from flask import current_app, jsonify, request


def _list_address() -> str:
    """The list's own address: under the configured public URL, or relative to this server. Never
    from the Host header, which whoever sends the request chooses (a poisoned cache or log would
    carry their host into every client that follows the links)."""
    public = current_app.config.get("TRAMITE_PUBLIC_URL")
    path = quote(request.path)
    return f"{public}{path}" if public else request.script_root + path


def page_response(items: list, total: int, page: int, per_page: int):
    response = jsonify(items)
    response.headers["X-Total-Count"] = str(total)
    last = max(1, -(-total // per_page))
    links, address = [], _list_address()
    for rel, number in (("first", 1), ("prev", page - 1), ("next", page + 1), ("last", last)):
        if 1 <= number <= last and not (rel in ("prev", "next") and number == page):
            args = {k: v for k, v in request.args.items() if k not in ("page", "per_page")}
            args.update(page=number, per_page=per_page)
            links.append(f'<{address}?{urlencode(args)}>; rel="{rel}"')
    if links:
        response.headers["Link"] = ", ".join(links)
    return response
