"""Demo data of surplus disposition: items listed with requests held for different stages.

The demo runs on the manual clock: every item is listed today, and moving the clock (Admin → Reloj)
walks them through the cascade — the transfer selection after the claim window, the vehicle order,
category 1 for municipalities, category 2 for registered producers (F-31, F-32 of the farmer demo),
the public auction for what nobody asked for. Idempotent: items are listed only when the demo has no
surplus case yet. Skipped when the procedure is not deployed.
"""
from __future__ import annotations

from engine.commands.cases import start_case
from engine.commands.messages import send_message
from engine.identity.actor import Actor
from engine.queries.processes import has_cases, is_deployed

from api.demo.common import table
from api.demo.words import say

SUR = "surplus_disposition"
OFFICER = Actor("surplus_officer", frozenset({"surplus_officer"}))


def _item(number, description, value, utility="none", units=("U1",), **extra):
    return {"item": {"inventory_number": number, "description": description, "is_vehicle": False,
                     "utility": utility, "estimated_value": value, "donated": False,
                     "scrap_for_vehicle_repair": False,
                     "units": [{"unit_id": u, "use_category": "general"} for u in units], **extra}}


def _who(rid, name, kind, **extra):
    return {"id": rid, "name": name, "kind": kind, "obliged_to_dispose_through_commission": False,
            "under_commission_jurisdiction": True, "endorsement": None, "registry_id": None, **extra}


ITEMS = [
    (_item("P-1001", "Archivo metálico de 4 gavetas", "180.00"),
     [_who("AC-B", "Agencia Componente B", "agencia_componente"),
      _who("AC-A", "Agencia Componente A", "agencia_componente")],
     ("dos agencias componentes reclaman: al cerrar la reclamación, el Encargado selecciona",
      "two component agencies claim it: when the claim window closes, the officer selects")),
    (_item("V-1001", "Camioneta Ford F-150 2016", "8000.00", is_vehicle=True),
     [_who("MUN-OROCOVIS", "Municipio de Orocovis", "municipio"),
      _who("AC-A", "Agencia Componente A", "agencia_componente")],
     ("vehículo: el Jefe de Transportación fija el orden y el Comisionado da su anuencia",
      "vehicle: the transportation chief sets the order and the commissioner consents")),
    (_item("P-3010", "Fotocopiadora Canon", "650.00"),
     [_who("MUN-COAMO", "Municipio de Coamo", "municipio"),
      _who("MUN-SALINAS", "Municipio de Salinas", "municipio")],
     ("categoría 1: Coamo primero; si no recoge a tiempo, Salinas",
      "category 1: Coamo first; if it does not pick up in time, Salinas")),
    (_item("A-4100", "Bombas de agua para riego", "3600.00", utility="agricola", units=("U1", "U2", "U3")),
     [_who("F-31", "Ramón Figueroa Colón", "productor", registry_id="F-31"),
      _who("F-32", "Luz Marina Pagán", "productor", registry_id="F-32")],
     ("categoría 2: unidades una a una; sorteo de U2 entre F-31 y F-32",
      "category 2: units one by one; a lottery for U2 between F-31 and F-32")),
    (_item("P-8001", "Archivos obsoletos", "90.00"), [], ("nadie lo solicita: irá a subasta pública",
                                                   "nobody asks for it: it goes to public auction")),
]
UNITS = {"F-31": ["U1", "U2", "U3"], "F-32": ["U2"]}


def _cases(engine) -> list[tuple[str, str, str]]:
    rows = []
    for variables, requesters, note in ITEMS:
        case = engine.execute(start_case, OFFICER, SUR, variables)
        for who in requesters:
            payload = {"requester": who}
            if who["id"] in UNITS:
                payload["units"] = UNITS[who["id"]]
            case = engine.execute(send_message, OFFICER, case["id"], "request", payload)
        rows.append((case["case_number"], variables["item"]["inventory_number"], say(*note)))
    return rows


def surplus_disposition_demo(engine) -> list[str]:
    if not engine.read(is_deployed, SUR) or engine.read(has_cases, SUR):
        return []
    rows = _cases(engine)
    return ["", say("Propiedad excedente (anunciada hoy; mueva el reloj para recorrer la cascada):",
                    "Surplus items (listed today; move the clock to walk the cascade):"),
            *table((say("caso", "case"), say("propiedad", "item"), say("qué sigue", "what happens next")), rows)]
