"""The browser suite's login step survives the previous user's session cookie coming back late.

A response of the previous page still in flight (a case page's script) can set the previous user's
session cookie after the login page loaded; the login form's CSRF token then belongs to another
session and the app refuses it ("the form expired"), leaving the browser as the previous user. Seen
in CI: the evaluator's inbox was the clerk's, empty. The helper logs in again."""
from __future__ import annotations

from playwright.sync_api import expect

from tests.web.browser import conftest
from tests.web.browser.farmer import deploy_farmer_registry


def test_a_late_cookie_of_the_previous_user_is_refused_and_the_login_is_done_again(ui, engine, monkeypatch):
    deploy_farmer_registry(engine)
    page = ui.login("far_clerk")
    clerk_cookies = page.context.cookies()
    opened = []
    open_login_page = conftest.Browser._open_login_page

    def with_a_late_cookie(self):
        open_login_page(self)
        opened.append(True)
        if len(opened) == 1:  # the previous page's response lands now
            self.page.context.add_cookies(clerk_cookies)

    monkeypatch.setattr(conftest.Browser, "_open_login_page", with_a_late_cookie)
    page = ui.login("far_evaluator")
    assert len(opened) == 2  # the first attempt was refused, the second went through
    expect(page.locator(".flash-error")).to_have_count(0)
    page.goto("/web/account")
    expect(page.locator("main")).to_contain_text("far_evaluator")
