"""In chromium (issue 16, items 8 and 10): an admin resets a password from the user page and reads
the temporary one; the user signing in with it is taken to choose their own before any other page;
an admin adds an office and it is offered in the user form. No request of any page answers 404
(the favicon included)."""
from __future__ import annotations

from playwright.sync_api import expect


def test_a_reset_password_is_replaced_at_the_next_sign_in_and_nothing_is_missing(ui):
    page = ui.page
    missing: list[str] = []
    page.on("response", lambda r: missing.append(r.url) if r.status == 404 else None)
    ui.login("admin")
    page.goto("/web/admin/users/clerk")
    page.get_by_role("button", name="Restablecer contraseña").click()
    temporary = page.locator("#temporary-password code").inner_text().strip()
    assert len(temporary) >= 12
    ui.shot("admin-password-reset")

    ui.login("clerk", temporary)
    expect(page.get_by_role("heading", level=1)).to_have_text("Cambiar contraseña")
    expect(page.locator("#password-owed")).to_contain_text("Un administrador restableció su contraseña")
    page.goto("/web/tasks")  # any other page leads back here
    expect(page.get_by_role("heading", level=1)).to_have_text("Cambiar contraseña")
    page.locator("#p-current").fill(temporary)
    page.locator("#p-new").fill("mi-clave-nueva-1")
    page.locator("#p-confirm").fill("mi-clave-nueva-1")
    page.get_by_role("button", name="Cambiar contraseña").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Bandeja de trabajo")
    expect(page.locator(".flash-success")).to_contain_text("Contraseña cambiada")
    assert missing == [], f"answered 404: {missing}"


def test_an_office_the_admin_adds_is_offered_in_the_user_form(ui):
    page = ui.login("admin")
    page.goto("/web/admin/offices")
    page.get_by_label("Identificador (no cambia después)").fill("Vieques")
    page.get_by_label("Nombre en español").fill("Oficina de Vieques")
    page.get_by_role("button", name="Crear oficina").click()
    expect(page.locator("tr[data-office=Vieques]")).to_contain_text("Oficina de Vieques")
    page.goto("/web/admin/users")
    page.get_by_label("Usuario", exact=True).fill("rosa")
    page.get_by_label("Contraseña (mínimo 8 caracteres)").fill("larga-y-segura")
    page.get_by_label("Oficina (opcional)").select_option(label="Oficina de Vieques")
    page.get_by_role("checkbox", name="Oficinista de prueba").check()
    page.get_by_role("button", name="Crear usuario").click()
    expect(page.locator("tr[data-user=rosa]")).to_contain_text("Vieques")
