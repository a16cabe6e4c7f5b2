"""An admin's entries and corrections in the registries that outlive a case (API.md §Registries):
the farmer registry, the bidder registry, materials-aid beneficiaries and hardware stores.

Each command checks first that an admin acts, then changes the registry through its repository
(engine/registries), which writes the audit event in the same transaction. Cases change the same
registries through their scripts' bindings, as the engine.
"""
from __future__ import annotations

from engine.errors import ValidationFailed
from engine.kernel import access
from engine.commands.memberships import start_membership_case
from engine.registries import beneficiaries, bidders, farmers, stores
from engine.rules.calendar import add_months, local_date

CORRECTING = "create or correct registry entries"


# -- the farmer registry (FAR-11) -----------------------------------------------------------------

def create_farmer(ctx, *, start_membership: bool = False, **fields) -> dict:
    """An entry imported from the paper registry (its id kept) and, if asked, its membership case."""
    access.require_admin(ctx.actor, CORRECTING)
    if start_membership and (fields.get("renewal_due", True) is None
                             or fields.get("status", farmers.ACTIVE) == farmers.REMOVED):
        raise ValidationFailed("a membership needs a renewal date and an entry that is not removed",
                               {"start_membership": ["needs renewal_due and a status other than REMOVED"]})
    record = farmers.import_entry(ctx, **fields)
    if start_membership:
        start_membership_case(ctx, record.id)
    return farmers.view(farmers.get(ctx.session, record.id))


def correct_farmer(ctx, registry_id: str, changes: dict) -> dict:
    access.require_admin(ctx.actor, CORRECTING)
    return farmers.view(farmers.update(ctx, registry_id, changes))


# -- the bidder registry (BID-21, 25, 27, 29) ---------------------------------------------------

def create_bidder(ctx, *, id: str, name: str, sanction: dict | None = None) -> dict:
    """A bidder of the paper Registro de Licitadores, with a sanction in force if given."""
    access.require_admin(ctx.actor, CORRECTING)
    bidders.create(ctx, id=id, name=name)
    if sanction:
        _add_sanction(ctx, id, sanction)
    return _bidder(ctx, id)


def correct_bidder(ctx, bidder_id: str, *, name: str | None = None, sanction: dict | None = None,
                   lift_sanctions: bool = False) -> dict:
    """Rename, lift the sanctions in force as of today, add a sanction: in that order, each audited."""
    access.require_admin(ctx.actor, CORRECTING)
    bidders.get(ctx.session, bidder_id)
    if name:
        bidders.rename(ctx, bidder_id, name)
    if lift_sanctions:
        bidders.lift_sanctions(ctx, bidder_id, local_date(ctx.now))
    if sanction:
        _add_sanction(ctx, bidder_id, sanction)
    return _bidder(ctx, bidder_id)


def rename_bidder(ctx, bidder_id: str, name: str) -> dict:
    return correct_bidder(ctx, bidder_id, name=name)


def add_bidder_sanction(ctx, bidder_id: str, sanction: dict) -> dict:
    return correct_bidder(ctx, bidder_id, sanction=sanction)


def lift_bidder_sanctions(ctx, bidder_id: str) -> int:
    """End every sanction in force as of today; how many there were."""
    access.require_admin(ctx.actor, CORRECTING)
    bidders.get(ctx.session, bidder_id)
    return bidders.lift_sanctions(ctx, bidder_id, local_date(ctx.now))


def _add_sanction(ctx, bidder_id: str, sanction: dict) -> None:
    """`sanction`: kind, from_ (a date), months (a ban runs for some; a withdrawal may not), reason."""
    months = sanction.get("months")
    if sanction["kind"] == "ban" and months is None:
        raise ValidationFailed("a ban runs for a number of months", {"sanction.months": ["required for a ban"]})
    eligible = add_months(sanction["from_"], months) if months is not None else None
    bidders.add_sanction(ctx, bidder_id, kind=sanction["kind"], from_date=sanction["from_"], eligible_again=eligible,
                         months=months, reason=sanction["reason"])


def _bidder(ctx, bidder_id: str) -> dict:
    return bidders.view(ctx.session, bidders.get(ctx.session, bidder_id), local_date(ctx.now))


# -- materials aid: beneficiaries (MAT-30) and hardware stores (MAT-15) ---------------------------

def create_beneficiary(ctx, **fields) -> dict:
    """An entry imported from the paper files, with its last use date."""
    access.require_admin(ctx.actor, CORRECTING)
    return beneficiaries.view(beneficiaries.create(ctx, **fields))


def correct_beneficiary(ctx, applicant_id: str, changes: dict) -> dict:
    access.require_admin(ctx.actor, CORRECTING)
    return beneficiaries.view(beneficiaries.update(ctx, applicant_id, changes))


def create_store(ctx, **fields) -> dict:
    """A store with its number in the Registro de Licitadores."""
    access.require_admin(ctx.actor, CORRECTING)
    return stores.view(stores.create(ctx, **fields))


def correct_store(ctx, store_id: str, changes: dict) -> dict:
    """E.g. mark a store that left the Registro (never deleted: old cases still name it)."""
    access.require_admin(ctx.actor, CORRECTING)
    return stores.view(stores.update(ctx, store_id, changes))
