"""What a person does in the pages, as steps a journey reads like a script: sign in and out, open the
inbox and a task, fill a form from a dict, move the clock from the admin page, read the inbox counts
and the case page's decisions and history.

Every step is a click or a typed field; the only address typed is the sign-in page's, once. The
soft checks (Spanish pages, decisions in words) gather what they find in the Journey and raise it
at the end, so that a journey shows every step a person cannot do before the wording it would
like to read.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from playwright.sync_api import Page, expect

from tests.conftest import PASSWORD, USERS
from tests.support.spanish_check import untranslated

DEMO_PASSWORD = "tramite-demo"  # the demo seed's users, one per role, named after the role
CASE_NUMBER = re.compile(r"[A-Z]{3}-\d{4}-\d{6}")


class SpanishProblems(AssertionError):
    """A Spanish page showed English or an internal code."""


class DecisionNotExplained(AssertionError):
    """A decision on the case page is not explained in words."""


class DeadEnd(AssertionError):
    """A person cannot go on from the pages: no link, button or list leads to the next step."""


@dataclass
class Journey:
    page: Page
    user: str | None = None
    spanish: list[str] = field(default_factory=list)
    unexplained: list[str] = field(default_factory=list)
    signed_in_once: bool = False
    # What a Spanish page may show as written: the people's user names and what the journey typed.
    allowed: tuple[str, ...] = ()

    # --- signing in and out -------------------------------------------------------------------
    def sign_in(self, username: str, password: str | None = None) -> Page:
        """The demo's users have the demo password; the tests' own (admin, boss…) keep theirs."""
        password = password or (PASSWORD if username in USERS else DEMO_PASSWORD)
        page = self.page
        if not self.signed_in_once:
            page.goto("/web/login")  # the one address a person types
            self.signed_in_once = True
        elif self.user:
            self.sign_out()
        page.get_by_label("Usuario").fill(username)
        page.get_by_label("Contraseña").fill(password)
        page.get_by_role("button", name="Entrar").click()
        expect(page.get_by_role("button", name="Cerrar sesión")).to_be_visible()
        self.user = username
        # The tests' own users are named after themselves ("Admin"); the bpmn-js watermark stays
        # in English by its licence.
        self.allowed += (username, username.title(), "Powered by bpmn.io")
        self.check_spanish(f"home of {username}")
        return page

    def sign_out(self) -> None:
        self.page.get_by_role("button", name="Cerrar sesión").click()
        expect(self.page.get_by_label("Usuario")).to_be_visible()
        self.user = None

    # --- the inbox ------------------------------------------------------------------------------
    def inbox(self) -> Page:
        self.page.get_by_role("navigation").get_by_role("link", name="Bandeja", exact=False).first.click()
        expect(self.page.get_by_role("heading", level=1)).to_have_text("Bandeja de trabajo")
        self.check_spanish("inbox")
        return self.page

    def counts(self) -> tuple[int, int]:
        """(mine, available) as the inbox shows them."""
        return (int(self.page.locator("[data-count=mine]").inner_text()),
                int(self.page.locator("[data-count=available]").inner_text()))

    def task_row(self, case_number: str, task_name: str):
        return self.page.locator("tr[data-task-id]", has_text=case_number).filter(
            has=self.page.get_by_role("link", name=task_name, exact=True))

    def claim_and_open(self, case_number: str, task_name: str) -> Page:
        """From the inbox: claim the task of the case (the counts move) and open it."""
        self.inbox()
        mine, available = self.counts()
        row = self.task_row(case_number, task_name)
        expect(row).to_have_count(1)
        claim = row.get_by_role("button", name=f"Reclamar {task_name} {case_number}")
        if claim.count():
            claim.click()
            expect(self.page.locator("[data-count=mine]")).to_have_text(str(mine + 1))
            expect(self.page.locator("[data-count=available]")).to_have_text(str(available - 1))
        self.page.get_by_role("link", name=f"Abrir {task_name} {case_number}").click()
        expect(self.page.get_by_role("heading", level=1)).to_have_text(task_name)
        self.check_spanish(f"task {task_name}")
        return self.page

    def do_task(self, case_number: str, task_name: str, answers: dict) -> Page:
        """Claims, opens, fills and completes a task; back in the inbox with one task fewer."""
        self.claim_and_open(case_number, task_name)
        self.fill(answers)
        self.complete()
        expect(self.page.locator(".flash-success")).to_contain_text(case_number)
        self.check_spanish(f"after {task_name}")
        return self.page

    def complete(self) -> None:
        self.page.get_by_role("button", name="Completar tarea").click()
        self.page.wait_for_load_state()
        self.refused()

    def refused(self) -> None:
        """Fails with what the page says when the form just sent was refused."""
        refusal = self.page.locator("#form-refusal, .field-errors")
        if refusal.count() and not self.page.locator(".flash-success").count():
            fields = self.page.locator(".has-error, [aria-invalid=true]").evaluate_all(
                "es => es.map(e => e.getAttribute('data-field') || e.getAttribute('name') || e.id)")
            raise AssertionError(f"the form was refused: {refusal.all_inner_texts()} at {fields}")

    # --- filing a case --------------------------------------------------------------------------
    def start_case(self, process_name: str, answers: dict) -> str:
        """From "Iniciar caso": fills the start form and files it; the new case's number."""
        page = self.page
        page.get_by_role("navigation").get_by_role("link", name="Iniciar caso").click()
        page.get_by_role("link", name=f"Iniciar {process_name}").click()
        self.check_spanish(f"start form {process_name}")
        self.fill(answers)
        page.get_by_role("button", name="Iniciar caso").click()
        page.wait_for_load_state()
        self.refused()
        flash = page.locator(".flash-success")
        expect(flash).to_contain_text("Inició el caso")
        self.check_spanish(f"case page after filing {process_name}")
        return CASE_NUMBER.search(flash.inner_text()).group(0)

    # --- forms ----------------------------------------------------------------------------------
    def fill(self, answers: dict, scope=None) -> None:
        """Types each answer the way its field takes it: text, a choice, a radio, a checkbox, the
        boxes of a list; `a.0.b` adds the list's row first when it is not there yet."""
        root = scope or self.page
        for name, value in answers.items():
            self._add_rows_for(root, name)
            self._fill_one(root, name, value)

    def _add_rows_for(self, root, name: str) -> None:
        parts = name.split(".")
        for i, part in enumerate(parts):
            if not part.isdigit():
                continue
            array, row = ".".join(parts[:i]), int(part)
            rows = root.locator(f'[data-field="{array}"] > [data-rows] > [data-row]')
            while rows.count() <= row:
                before = rows.count()
                root.locator(f'[data-field="{array}"] > [data-add-row]').click()
                expect(rows).to_have_count(before + 1)

    def _fill_one(self, root, name: str, value) -> None:
        boxes = root.locator(f'[name="{name}"]')
        expect(boxes.first).to_be_attached()
        kind = boxes.first.evaluate("e => e.tagName.toLowerCase() + ':' + (e.type || '')")
        if kind.endswith(":radio"):
            wanted = {True: "true", False: "false"}.get(value, value)
            root.locator(f'[name="{name}"][value="{wanted}"]').check()
        elif kind.endswith(":checkbox") and isinstance(value, list):
            for box in boxes.all():
                box.set_checked(box.get_attribute("value") in value)
        elif kind.endswith(":checkbox"):
            boxes.first.set_checked(bool(value))
        elif kind.startswith("select"):
            boxes.first.select_option(str(value))
        else:
            boxes.first.fill(str(value))

    # --- the clock ------------------------------------------------------------------------------
    def move_clock_to(self, local: str) -> None:
        """As the admin: Administración › Reloj, "Mover a" a Puerto Rico time (YYYY-MM-DDTHH:MM)."""
        page = self.page
        page.get_by_role("navigation").get_by_role("link", name="Administración").click()
        page.get_by_role("link", name="Reloj", exact=True).click()
        self.check_spanish("clock")
        page.get_by_label("Mover a (hora de Puerto Rico)").fill(local)
        page.get_by_role("button", name="Mover el reloj").click()
        expect(page.locator(".flash-success")).to_be_visible()

    # --- the case page --------------------------------------------------------------------------
    def open_case_from_inbox(self, case_number: str) -> Page:
        self.inbox()
        self.page.locator("tr[data-task-id]").get_by_role("link", name=case_number, exact=True).first.click()
        return self.case_page(case_number)

    def case_page(self, case_number: str) -> Page:
        expect(self.page.locator("h1")).to_contain_text(case_number)
        # The diagram draws after the page loads: its lanes and data objects are read once drawn.
        diagram = self.page.locator("#diagram[data-xml-url]")
        if diagram.count():
            expect(diagram).to_have_attribute("data-ready", "true")
        self.check_spanish(f"case {case_number}")
        return self.page

    def find_case(self, case_number: str, query: str | None = None, row: str | None = None) -> Page:
        """Casos › search › open it: how a person comes back to a case with no task of theirs. By
        default the search is the case number; `query` and `row` find it by what the row shows."""
        nav = self.page.get_by_role("navigation").get_by_role("link", name="Casos", exact=True)
        if not nav.count():
            raise DeadEnd(f"{self.user} has no case list (no «Casos» in the menu) to come back to {case_number}")
        nav.click()
        self.page.get_by_label("Buscar").fill(query or case_number)
        self.page.get_by_role("button", name="Filtrar").click()
        self.check_spanish("case list")
        if row:
            self.page.locator("tbody tr", has_text=row).get_by_role("link", name=CASE_NUMBER).first.click()
            return self.case_page(self.page.locator("h1").inner_text().split()[0])
        self.page.get_by_role("link", name=case_number, exact=True).click()
        return self.case_page(case_number)

    def history_names(self, action: str, actor: str) -> None:
        """The history has an event of `action` (task or event name) done by `actor`."""
        event = self.page.locator(".timeline li", has_text=action).filter(
            has=self.page.locator(".actor", has_text=re.compile(rf"\b{re.escape(actor)}\b")))
        expect(event.first).to_be_visible()

    def explains(self, *phrases: str) -> None:
        """The case page says each phrase in words (soft: gathered for the end of the journey)."""
        text = self.page.locator("main").inner_text()
        for phrase in phrases:
            if phrase.lower() not in text.lower():
                self.unexplained.append(f"{self.page.url}: no «{phrase}»")

    def status(self) -> str:
        return self.page.locator("h1 .status").inner_text()

    # --- Spanish only ---------------------------------------------------------------------------
    def check_spanish(self, where: str) -> None:
        for problem in spanish_problems(self.page, allow=self.allowed):
            self.spanish.append(f"{where}: {problem}")

    def finish(self) -> None:
        """The soft checks, all of what they found in one failure (typed by the first kind)."""
        found = "\n".join(dict.fromkeys(self.unexplained + self.spanish))
        if self.unexplained:
            raise DecisionNotExplained(found)
        if self.spanish:
            raise SpanishProblems(found)


def spanish_problems(page: Page, allow: tuple[str, ...] = ()) -> list[str]:
    """What tests/support/spanish_check.py finds on the page when it is in Spanish."""
    if page.locator("html").get_attribute("lang") != "es":
        return []
    return untranslated(page.content(), allow=allow)
