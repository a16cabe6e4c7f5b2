"""Page answers the API.md way: a JSON array body, the total in X-Total-Count, links in Link."""
from __future__ import annotations

from urllib.parse import urlencode

from flask import jsonify, request


def page_response(items: list, total: int, page: int, per_page: int):
    response = jsonify(items)
    response.headers["X-Total-Count"] = str(total)
    last = max(1, -(-total // per_page))
    links = []
    for rel, number in (("first", 1), ("prev", page - 1), ("next", page + 1), ("last", last)):
        if 1 <= number <= last and not (rel in ("prev", "next") and number == page):
            args = {k: v for k, v in request.args.items() if k not in ("page", "per_page")}
            args.update(page=number, per_page=per_page)
            links.append(f'<{request.base_url}?{urlencode(args)}>; rel="{rel}"')
    if links:
        response.headers["Link"] = ", ".join(links)
    return response
