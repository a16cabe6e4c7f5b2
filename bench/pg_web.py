"""A browser's session for the web pages of the queries benchmark: logged in through the login form
(its CSRF token and the session cookie, as a browser does), then keep-alive GETs of whole pages."""
from __future__ import annotations

import http.client
import re
from urllib.parse import urlencode

_CSRF = re.compile(r'name="_csrf" value="([^"]+)"')


class WebSession:
    """Same interface as tests/production/live.Http for GETs: request() -> (status, body text)."""

    def __init__(self, port: int, username: str, password: str, timeout: float = 60):
        self.port, self.timeout = port, timeout
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        self.cookie = ""
        status, page = self._send("GET", "/web/login")
        token = _CSRF.search(page)
        if status != 200 or token is None:
            raise RuntimeError(f"login page: {status}")
        form = urlencode({"username": username, "password": password, "_csrf": token.group(1)})
        status, _page = self._send("POST", "/web/login", form)
        if status != 302:
            raise RuntimeError(f"login of {username}: {status}")

    def _send(self, method: str, path: str, form: str | None = None) -> tuple[int, str]:
        headers = {"Accept": "text/html"}
        if self.cookie:
            headers["Cookie"] = self.cookie
        if form is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            self.conn.request(method, path, body=form, headers=headers)
            response = self.conn.getresponse()
            body = response.read().decode("utf-8", "replace")
        except BaseException:
            self.conn.close()
            raise
        cookie = response.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        if response.getheader("Connection", "").lower() == "close":
            self.conn.close()
        return response.status, body

    def request(self, method: str, path: str):
        return self._send(method, path)

    def close(self) -> None:
        self.conn.close()
