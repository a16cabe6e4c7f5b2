"""Filing a farmer-registry application from the pages, as the registry clerk does it: the steps
every farmer scenario starts with (users, both diagrams deployed, a complete application)."""
from __future__ import annotations

from playwright.sync_api import expect

from engine.commands import accounts
from engine.commands.deploy import deploy
from engine.identity.actor import SYSTEM
from tests.conftest import PASSWORD
from tests.procedures.farmer_registry.conftest import ADMISSION, MEMBERSHIP, farmer_files
from tests.web.conftest import actor


def deploy_farmer_registry(engine) -> None:
    engine.execute(lambda ctx: [accounts.create_user(ctx, u, PASSWORD, [r]) for u, r in
                                (("far_clerk", "registry_clerk"), ("far_evaluator", "registry_evaluator"))], SYSTEM)
    for key in (MEMBERSHIP, ADMISSION):
        engine.execute(deploy, actor("owner"), key, farmer_files())


def fill_application(page, name: str = "Ana Torres") -> None:
    """The start form of an admission, filled but for the sworn declaration."""
    page.goto(f"/web/start/{ADMISSION}")
    page.locator('[name="applicant.name"]').fill(name)
    page.locator('[name="applicant.producer_type"]').select_option("agricultor")
    page.locator('[name="gross_annual_income"]').fill("40,000.00")
    page.locator('[name="activity_income"]').fill("32,000.00")
    page.locator("#f-documents [data-add-row]").click()
    page.locator('[name="documents.0.type"]').select_option("secretario_agricultura")
    page.locator('[name="documents.0.issuer"]').fill("Departamento de Agricultura")


def file_application(page, name: str = "Ana Torres") -> str:
    """Files a complete application; the address of the case page it lands on."""
    fill_application(page, name)
    page.locator('[name="sworn_declaration"]').check()
    page.get_by_role("button", name="Iniciar caso").click()
    expect(page.locator(".flash-success")).to_contain_text("Inició el caso")
    return page.url
