"""The sentences the case page shows for the Junta's decisions (Spanish: the Junta's own language).

A decision's `explanation` is what the case history says in words: which offer was left out and
why, why the bid is or is not a single-offer bid, who is awarded at which price. Figures come
from the decision's inputs, so the sentence and the recorded data never disagree.
"""
from __future__ import annotations

from engine.rules.bid_adjudication.messages import OFFER_STATUS
from engine.rules.money import money
from engine.rules.reasons.format import SentenceFormatter

# Why a bidder is sanctioned, as the Junta's resolution names it (the codes of sanction_candidates).
SANCTION_REASONS = {"MULTIPLE_ENVELOPES": "presentó varios sobres", "CONSPIRACY": "se confabuló con otros licitadores",
                    "COLLUSION": "hubo colusión", "UNJUSTIFIED_COMPLAINT": "su querella fue injustificada"}

# Why an offer stopped being considered, as the Junta's resolution says it: the clauses of messages.py.
STATUS_REASONS = {code: f"{es} ({', '.join(rules)})" for code, (rules, es, _) in OFFER_STATUS.items()
                  if code != "CONSIDERED"}
# BID-30e–g, applied per bidder (AMB-44): the finding the Junta recorded at the evaluation.
EXCLUSION_REASONS = {
    "poor_performance": "el licitador no cumplió satisfactoriamente contratos anteriores (BID-30e, AMB-44)",
    "debtor_no_plan": "el licitador es deudor del municipio o del Estado Libre Asociado y no está acogido "
                      "a un plan de pago (BID-30f, AMB-44)",
    "convicted": "el licitador fue convicto por delitos relacionados con la malversación de fondos públicos "
                 "(Ley 458-2000; BID-30g, AMB-44)",
}


def _offer(offer) -> str:
    name = offer.get("bidder_name") or offer.get("bidder_id")
    return f"la oferta {offer['offer_id']} ({name})"


def _series(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " y " + items[-1]


def exclusion_reason(status: str, exclusion: str | None = None) -> str:
    if status == "BIDDER_EXCLUDED":
        return EXCLUSION_REASONS.get(str(exclusion), "el licitador queda excluido (BID-30, AMB-44)")
    return STATUS_REASONS.get(status, status)


def evaluation_sentence(excluded: list[dict], offers: list[dict], remaining: list[str]) -> str:
    """After the evaluation: each offer the Junta left out, with its reason, and what remains."""
    by_id = {str(o["offer_id"]): o for o in offers}
    parts = [f"Se excluye {_offer(by_id[e['offer_id']])}: {e['reason']}." for e in excluded]
    if not excluded:
        parts.append("La Junta no excluyó ninguna oferta en la evaluación.")
    if remaining:
        parts.append("Siguen consideradas: " + _series(remaining) + ".")
    else:
        parts.append("No queda ninguna oferta considerada.")
    return " ".join(parts)


def route_sentence(route: str, received: list[str], left: list[str]) -> str:
    """Why the bid goes to ranking and award, to the single-offer assessment or to rejection."""
    if route == "reject":
        return "No queda ninguna oferta que se pueda adjudicar: la Junta decide qué sigue (BID-30, BID-31, BID-32)."
    if route == "assess_single_offer":
        return ("Se recibió a tiempo una sola oferta (de " + _series(received) + "): la Junta determina si el "
                "precio es razonable antes de adjudicar (BID-14, BID-17).")
    if len(left) == 1:
        return (f"Se recibieron ofertas de {len(received)} licitadores y, tras las exclusiones, queda la de "
                f"{left[0]}: es la oferta más baja elegible y se adjudica sin justificación escrita; no es una "
                "subasta de un solo licitador (BID-07, BID-14, BID-17, AMB-44).")
    return f"Quedan ofertas de {len(left)} licitadores: se ordenan por precio evaluado para adjudicar (BID-03, BID-07)."


def _priced(offer_id: str, offer: dict, evaluated) -> str:
    """An offer's price as the Junta compared it: the offered price and, when a preference
    lowered it, the percentage and the evaluated price (AMB-38)."""
    offered = money(offer["price"])
    text = f"{_offer(offer)}: ${_amount(offered)}"
    pct = money(offer.get("preference_pct") or 0)
    if evaluated is not None and money(evaluated) != offered:
        text += (f" con {pct.normalize():f} % de preferencia de la Ley 14-2004, precio evaluado "
                 f"${_amount(evaluated)}")
    return text


def ranking_sentence(ranking: dict, evaluated: dict, offers: list[dict], descending: bool) -> str:
    """Each renglón's offers in the order their evaluated prices give, with the prices compared
    and the preference applied (BID-03, BID-04, AMB-38), so the order reads as a person checks it."""
    by_id = {str(o["offer_id"]): o for o in offers}
    order = "de la más alta a la más baja" if descending else "de la más baja a la más alta"
    parts = []
    for line, ids in ranking.items():
        listed = "; ".join(_priced(oid, by_id[oid], evaluated.get(oid)) for oid in ids if oid in by_id)
        parts.append(f"Renglón {line}, por precio evaluado {order}: {listed}.")
    return " ".join(parts) or "No hay ofertas que ordenar."


def compared_sentence(winner: str, ids: list[str], evaluated: dict, offers: list[dict]) -> str:
    """The awarded offer's evaluated price against the other offers' of its renglón."""
    by_id = {str(o["offer_id"]): o for o in offers}
    offer = by_id.get(winner) or {}
    pct = money(offer.get("preference_pct") or 0)
    own = f"su precio evaluado es ${_amount(evaluated[winner])}" + (
        f" tras aplicar {pct.normalize():f} % de preferencia de la Ley 14-2004" if pct and winner in evaluated
        and money(evaluated[winner]) != money(offer.get("price") or 0) else "")
    others = [f"{oid} ${_amount(evaluated[oid])}" for oid in ids if oid != winner and oid in evaluated]
    if not others and own.endswith(f"${_amount(evaluated[winner])}"):
        return ""  # one offer, no preference: the contract price says it all
    return own + (", frente a " + _series(others) if others else "")


def award_sentence(awards: list[dict], justified: list[dict], compared: dict | None = None) -> str:
    """Who gets each renglón, at which price, and whether a written justification was needed;
    `compared` ({line: sentence}) says against which evaluated prices it won."""
    lines = [f"Se adjudica el renglón {a['line']} a {a['bidder_id']} (oferta {a['offer_id']}) por "
             f"${_amount(a['contract_price'])}" + (f": {compared[str(a['line'])]}" if (compared or {}).get(
                 str(a["line"])) else "") for a in awards]
    text = "; ".join(lines) + "."
    if justified:
        text += (" La adjudicación no va a la primera oferta del orden en " + _series(
            [f"el renglón {j['line']}" for j in justified]) + ": consta la justificación escrita y firmada (BID-09).")
    else:
        text += " Es la primera oferta elegible del orden: no requiere justificación escrita (BID-07, BID-08)."
    return text


def _amount(text) -> str:
    """$49,000.00: thousands with commas, as Puerto Rico writes dollars."""
    return f"{money(text):,.2f}"


def ban_sentence(bans: list[dict]) -> str:
    """Each ban as the Registro de Licitadores notes it: who, from which day through which, why,
    and the day the bidder may bid again (AMB-47)."""
    day = SentenceFormatter("es")._date
    parts = []
    for ban in bans:
        text = f"{ban['bidder_id']} queda inhabilitado desde el {day(ban['from'])}"
        if ban.get("through"):
            text += f" hasta el {day(ban['through'])}"
        if ban.get("months"):
            text += f" ({ban['months']} meses)"
        if ban.get("reason") in SANCTION_REASONS:
            text += f" porque {SANCTION_REASONS[ban['reason']]}"
        if ban.get("eligible_again"):
            text += f"; puede volver a licitar el {day(ban['eligible_again'])}"
        parts.append(text + ".")
    return " ".join(parts) or "No se inhabilita a ningún licitador."
