"""The security headers of every answer, set in one after-request hook (issue 15), never per view.

A page (text/html) gets a strict Content-Security-Policy: scripts and style sheets only from files
of this server, no inline script, no framing. Anything else (JSON, XML, JavaScript files, text)
gets `sandbox; default-src 'none'`: should a browser ever render it as a document — a diagram's
uploaded XML with an XHTML <script> inside — it runs in an opaque origin with no script, no
cookies and no way to reach the application. `nosniff` stops a browser from guessing its way
from text/plain back to a page.

Style attributes are refused too, on every page but the modeler's, where the browser suite measured
the need: the bpmn-js properties panel builds its containers with `style="…"` in markup it parses
(28 such templates in the bundle, not ours to edit), so that one page, open to process owners only,
gets `style-src-attr 'unsafe-inline'`. A style attribute holds declarations, not selectors: it
cannot read the page the way an injected <style> element could, and <style> elements and style
sheets stay limited to this server's files there too. Scripts are never relaxed.
"""
from __future__ import annotations

from flask import Flask, Response, current_app, request

PAGE_POLICY = "; ".join((
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",   # bpmn-js draws its logo and Swagger UI its icons from data: URIs
    "font-src 'self' data:",  # the BPMN icon font is embedded in bpmn-embedded.css
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
))
# The modeler's properties panel writes style attributes (see above); nothing else is relaxed there.
MODELER_POLICY = PAGE_POLICY.replace("style-src 'self'", "style-src 'self'; style-src-elem 'self'; "
                                     "style-src-attr 'unsafe-inline'")
STYLE_ATTRIBUTE_PAGES = frozenset({"web.modeler"})
CONTENT_POLICY = "sandbox; default-src 'none'; frame-ancestors 'none'"
HSTS = "max-age=31536000"  # no includeSubDomains: an agency's other hosts are not ours to commit


def uploaded_text(text: str) -> Response:
    """Content a user uploaded (a diagram's XML), as plain text: the pages that draw it fetch it
    as text, and a browser that opens it shows it instead of running it."""
    return Response(text, mimetype="text/plain")  # Werkzeug adds charset=utf-8 to text/*


def served_over_tls() -> bool:
    """The request came over https, or the configured public address is https (TLS ends at a proxy)."""
    public = current_app.config.get("TRAMITE_PUBLIC_URL") or ""
    return request.is_secure or public.lower().startswith("https://")


def _page_policy() -> str:
    return MODELER_POLICY if request.endpoint in STYLE_ATTRIBUTE_PAGES else PAGE_POLICY


# Same origin only (Referrer-Policy, COOP): a case's address never reaches another site, and the web
# pages can still send a user back to the page a stale form came from. X-Frame-Options is
# frame-ancestors for browsers that predate it.
_ALWAYS = (("X-Content-Type-Options", "nosniff"), ("X-Frame-Options", "DENY"),
           ("Referrer-Policy", "same-origin"), ("Cross-Origin-Opener-Policy", "same-origin"))
_NAMES = frozenset(name.lower() for name, _ in _ALWAYS) | {"content-security-policy", "strict-transport-security"}


def secure(response: Response) -> Response:
    # What a view set itself stays: the header names are read once, not once per header set
    # (werkzeug's setdefault scans the list each time; issue 21 measured this hook per request).
    headers = response.headers
    present = {name.lower() for name, _ in headers} & _NAMES
    added = [] if "content-security-policy" in present else [
        ("Content-Security-Policy", _page_policy() if response.mimetype == "text/html" else CONTENT_POLICY)]
    added.extend(item for item in _ALWAYS if item[0].lower() not in present)
    if "strict-transport-security" not in present and served_over_tls():
        added.append(("Strict-Transport-Security", HSTS))
    headers.extend(added)
    return response


def install(app: Flask) -> None:
    app.after_request(secure)
