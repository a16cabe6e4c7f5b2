"""Sample cases for the process owner's preview of each letter kind: what a real step would hand the
letter, with the figures of EXAMPLES.md where it has them. Never stored, never a real case."""
from __future__ import annotations

_APPLICANT = {"name": "Ana Torres", "producer_type": "agricultor", "address": "Carr. 172 km 3, Cidra",
              "municipality": "Cidra"}
_MARIA = {"id": "REC-0001", "name": "María Rivera", "municipality": "Cidra"}

SAMPLES: dict[str, dict] = {
    "denial": {"case_number": "FAR-2024-000123", "applicant": _APPLICANT, "method": "correo_certificado",
               "eligibility": {"eligible": False, "reasons": ["CERTIFICATION_MISSING", "INCOME_SHARE_BELOW_THRESHOLD"]},
               # The figures the rules' sentences name (engine/rules/farmer_registry/messages.py).
               "income_share_pct": "40.00", "min_share_pct": "50", "activity_income": "16000.00",
               "gross_annual_income": "40000.00"},
    "denial_confirmed": {"case_number": "FAR-2024-000125", "applicant": _APPLICANT, "method": "correo_certificado",
                         "decision": "confirm_denial", "reason": "La certificación nueva tampoco acredita la actividad.",
                         "eligibility": {"eligible": False, "reasons": ["CERTIFICATION_MISSING"]}},
    "admission": {"case_number": "FAR-2024-000124", "applicant": _APPLICANT, "registry_id": "F-17",
                  "admission_date": "2024-04-02", "renewal_due": "2026-04-02", "decision": "admit"},
    "ineligibility": {"case_number": "MAT-2024-000031", "applicant": _MARIA, "office": "Caguas",
                      "request": {"type": "rehabilitation"}, "method": "correo_certificado",
                      "notice_reasons": ["OTHER_PROPERTY", "INCOME_ABOVE_LIMIT"],
                      "household": {"annual_income": "31000.00", "size": 3}, "income_limit": "25000.00"},
    "closure": {"case_number": "MAT-2024-000033", "applicant": _MARIA, "office": "Caguas",
                "outcome": "INCOMPLETE_CLOSED", "docs_requested_on": "2024-04-01", "docs_deadline": "2024-05-01"},
    "purchase_order": {"case_number": "MAT-2024-000032", "applicant": _MARIA, "po_number": "OC-2024-0001",
                       "po_amount": "4150.00",
                       "selected_store": {"store_id": "RL-1001", "store_name": "Ferretería Borinquen"}},
    "award": {"case_number": "BID-2024-000007", "bid": {"number": "2025-001", "matter": "sillas de oficina"},
              "offers": [{"offer_id": "O1", "line": 1, "bidder_id": "B-1", "bidder_name": "Muebles del Caribe, Inc.",
                          "price": "49875.00"},
                         {"offer_id": "O2", "line": 1, "bidder_id": "B-2", "bidder_name": "Oficinas Boricuas, LLC",
                          "price": "48200.00"}],
              "offers_status": {"O1": "CONSIDERED", "O2": "LATE"},
              "awards": [{"line": 1, "offer_id": "O1", "bidder_id": "B-1", "contract_price": "49875.00"}]},
    "sale": {"case_number": "SUR-2024-000012",
             "item": {"inventory_number": "A-4001", "description": "Tractor Massey Ferguson 265"},
             "buyer": "F-17", "buyer_name": "Ana Torres", "buyer_kind": "productor", "buyer_email": None,
             "pricing": "PRODUCER_FMV", "price": "6750.00"},
}
