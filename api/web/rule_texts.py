"""What a rule's decision or refusal means, in the page's language, for the person reading it.

The words come from the rules' own message catalogues (engine/rules/<procedure>/messages.py, via
engine.rules.reasons): every reason of a refusal or a decision reads as a sentence with the values
used and the threshold, and each rule id opens onto its text and article (RULES.md, copied into
engine/rules/rule_catalogue.json). The table below covers only the engine's own refusals and the
codes no catalogue words yet; a code missing everywhere falls back to the engine's message, so a
new rule is never shown blank.
"""
from __future__ import annotations

from engine.rules.reasons import article, explain_recorded, explain_refusal, rule_text
from engine.rules.reasons.catalogue import CODES
from engine.rules.reasons.build import capitalised, with_period

from api.web.i18n import selected_language

SPANISH = {
    # Surplus disposition (SUR)
    "VEHICLE_ORDER_NOT_APPROVED": "La orden del vehículo no tiene la anuencia del Comisionado (SUR-05).",
    "VEHICLE_ORDER_EMPTY": "La orden del vehículo no incluye ninguna unidad.",
    "DELIVERY_REQUIRES_PAYMENT_RECEIPT": "No se puede entregar sin el recibo de pago (SUR-21, FAR-25).",
    "NOT_ELIGIBLE_CATEGORY": "El solicitante no pertenece a la categoría, o la propiedad no tiene la utilidad que "
                             "la categoría exige (SUR-10, SUR-11).",
    "REASON_REQUIRED": "Para pasar por alto a un solicitante de las categorías a–d hay que anotar la razón "
                       "(SUR-02, SUR-03).",
    "AUDIT_REPORT_REQUIRED": "Para exigir la devolución hace falta antes un informe de fiscalización (SUR-18).",
    "NOT_REGISTERED": "El productor no está inscrito en el Registro de Agricultores Bona Fide (FAR-14, FAR-17).",
    "NOT_REACHED": "La solicitud no se evaluó: una categoría anterior se quedó con la propiedad (SUR-12).",
    "DUPLICATE_REQUEST": "Este solicitante ya tiene una solicitud sobre esta propiedad.",
    "ORDER_OF_ARRIVAL": "Las solicitudes se atienden por orden de llegada; hay otra anterior pendiente.",
    "PAYMENT_METHOD_NOT_ALLOWED": "La forma de pago no está permitida (FAR-22).",
    "PAYEE_INVALID": "El pago debe hacerse a nombre del beneficiario autorizado (FAR-23).",
    "PRICE_EXCEEDS_FMV": "El precio supera el valor justo en el mercado (FAR-22, FAR-23).",
    "PAYMENT_AMOUNT_MISMATCH": "El importe pagado no coincide con el precio fijado.",
    "PRICE_COMPONENT_REQUIRED": "Falta un componente del precio.",
    "PROCESSING_COSTS_INVALID": "Los gastos de trámite no son válidos.",
    "UNITS_MUST_BE_SOLD_INDIVIDUALLY": "Las unidades deben venderse una a una (FAR-21).",
    "REQUESTER_ID_REQUIRED": "Falta la identificación del solicitante.",
    "UNKNOWN_REQUEST": "La solicitud indicada no existe en este caso.",
    "UNKNOWN_UNIT": "La unidad indicada no existe en este caso.",
    "LOTTERY_RESULT_INVALID": "El resultado del sorteo no es válido.",
    # Farmer registry (FAR)
    "TYPE_NOT_ELIGIBLE": "El tipo de productor no es elegible para el Registro (FAR-02).",
    "INCOME_SHARE_BELOW_THRESHOLD": "El ingreso de la actividad agrícola no llega al porcentaje mínimo del ingreso "
                                    "bruto (FAR-04).",
    "ACTIVITY_INCOME_EXCEEDS_GROSS": "El ingreso de la actividad no puede ser mayor que el ingreso bruto.",
    "INCOME_FIGURES_REQUIRED": "Faltan las cifras de ingreso bruto y de ingreso de la actividad.",
    "SWORN_DECLARATION_REQUIRED": "Falta la declaración jurada del solicitante (FAR-03).",
    "CERTIFICATION_MISSING": "Falta la certificación que acredita la actividad (FAR-06).",
    "CERTIFICATION_INVALID_FOR_TYPE": "La certificación presentada no vale para este tipo de productor (FAR-07).",
    "ASSOCIATION_NOT_REGISTERED": "La asociación que certifica no está registrada (FAR-07).",
    "PENDING_ADDITIONAL_DOCUMENTS": "Quedan documentos adicionales por presentar (FAR-08).",
    "DOCUMENTS_INCOMPLETE": "Los documentos están incompletos.",
    "DOCUMENTS_NOT_SUPPLIED": "No se presentaron los documentos requeridos.",
    "UNTIMELY_REVIEW_REQUEST": "La solicitud de revisión llegó fuera de plazo (FAR-12, FAR-13).",
    "MEMBERSHIP_NOT_POSSIBLE": "El productor no puede iniciar un trámite de membresía en su estado actual.",
    # Materials aid (MAT)
    "DOCS_LATE": "Los documentos llegaron fuera de plazo; la solicitud se cierra incompleta (MAT-11).",
    "LOT_AUTH_FORM_INVALID": "El formulario de autorización del solar no es válido (MAT-10).",
    "LOT_MEMORANDUM_DECLINED": "El memorando sobre el solar fue denegado.",
    "EFFORTS_EVIDENCE_REQUIRED": "Falta la evidencia de las gestiones hechas (MAT-25).",
    "QUOTE_STORE_NOT_REGISTERED": "Una cotización viene de una ferretería que no está en el Registro de "
                                  "Licitadores (MAT-15).",
    "QUOTES_NOT_THREE_DISTINCT": "Hacen falta tres cotizaciones de ferreterías distintas (MAT-15).",
    "RETAINING_WALL_DESIGN_REQUIRED": "El muro de contención necesita un diseño (MAT-24).",
    "RETAINING_WALL_NEED_NOT_EVIDENCED": "No se demostró la necesidad del muro de contención (MAT-24).",
    "MEDICAL_EVIDENCE_REQUIRED": "Falta la evidencia médica para el equipo solicitado (MAT-23).",
    "EQUIPMENT_DECLINED_DISCRETION": "El Secretario Auxiliar no aprobó el equipo urgente (MAT-23).",
    "EXTENSION_NOT_WRITTEN": "La prórroga debe constar por escrito (MAT-36).",
    "EXTENSION_AUTHORITY_INVALID": "Quien concede la prórroga no tiene autoridad para hacerlo (MAT-36).",
    "EXTENSION_REQUEST_LATE": "La prórroga se pidió después de vencer el plazo para usar los materiales (MAT-36).",
    "REJECTED_WAIT_PERIOD": "El solicitante recibió materiales hace menos de dos años (MAT-30).",
    "MAX_AID_EXCEEDED": "La cotización escogida supera la ayuda máxima (MAT-21).",
    "MAX_AID_NOT_SET": "La ayuda máxima (materials.maxAidAmount) no estaba fijada al iniciar el caso.",
    "ITEM_NOT_INDISPENSABLE": "El artículo no es indispensable (MAT-22).",
    "EMPLOYEE_DISPENSA_REQUIRED": "El solicitante es empleado público y necesita una dispensa (MAT-32).",
    "LABOR_CERTIFICATION_REQUIRED": "Falta la certificación de la mano de obra (MAT-31).",
    "DISABILITY_ID_EXPIRED": "La identificación de persona con impedimento está vencida (MAT-27).",
    "OTHER_PROPERTY": "El solicitante tiene otra propiedad (MAT-05).",
    "HEIR_AUTHORIZATION_INCOMPLETE": "Falta la autorización de todos los herederos (MAT-07).",
    "FALSE_INFORMATION": "La solicitud contiene información falsa (MAT-14).",
    "WRONG_REGIONAL_OFFICE": "La solicitud debe presentarse en la Oficina Regional del pueblo donde reside el "
                             "solicitante (MAT-08).",
    "MUNICIPALITY_UNKNOWN": "El municipio no corresponde a ninguna Oficina Regional (MAT-08).",
    "INCOME_ABOVE_LIMIT": "El ingreso del hogar supera el límite del programa.",
    "NOT_OWNER": "El solicitante no es dueño de la vivienda.",
    "NOT_RESIDING": "El solicitante no reside en la vivienda.",
    "DUTIES_SIGNATURE_REQUIRED": "Falta la firma del documento de deberes del beneficiario.",
    "COMPLETION_ALREADY_NOTIFIED": "El fin de la obra ya se había notificado; vale la primera notificación (MAT-34).",
    # Bid adjudication (BID)
    "JUSTIFICATION_REQUIRED": "Falta la justificación de la compra (BID-09).",
    "JUSTIFICATION_SIGNATURES_INCOMPLETE": "A la justificación le faltan firmas (BID-09).",
    "EQUIPMENT_CRITERIA_INCOMPLETE": "Los criterios para el equipo están incompletos (BID-11).",
    "MARKET_CLAUSE_MISSING": "Falta la cláusula de mercado en el pliego (BID-19).",
    "SINGLE_SOURCE_NOT_DOCUMENTED": "No se documentó por qué hay un único proveedor (BID-18).",
    "BAN_OUT_OF_RANGE": "La duración de la inhabilitación está fuera de lo que permite la ley (BID-21, 25, 27, 29).",
    "SIMILAR_PURCHASE_BLOCKED_FY": "No se puede hacer una compra similar en este año fiscal (BID-36).",
    "BIDDER_BANNED": "El licitador está inhabilitado el día de la apertura.",
    "NOT_IN_ACTA": "La oferta no consta en el Acta de Apertura (BID-01).",
    "MIN_THREE_QUOTES_REQUIRED": "Hacen falta al menos tres cotizaciones (BID-31).",
    "FUNDS_CERTIFICATION_REQUIRED": "Falta la certificación de fondos (BID-31).",
    "ACTION_NOT_ALLOWED_FOR_TYPE": "Esta acción no está permitida para este tipo de subasta (BID-31, BID-32).",
    "CANCELLATION_NOTICE_REQUIRED": "Hay que notificar la cancelación a los licitadores (BID-33).",
    "BONDS_NOT_RETURNED": "No se han devuelto las fianzas (BID-34).",
    "ALCALDE_NOTICE_REQUIRED": "Hay que notificar al Alcalde (BID-20).",
    "AWARDS_REQUIRED": "La adjudicación debe indicar al menos un renglón adjudicado.",
    "AWARD_LINE_DUPLICATE": "Un renglón se adjudicó más de una vez.",
    "AWARD_NOT_MAJORITY": "La adjudicación no tiene la mayoría de la Junta.",
    "AWARD_OFFER_NOT_ELIGIBLE": "La oferta adjudicada no es elegible.",
    "OFFER_ID_DUPLICATE": "Hay dos ofertas con el mismo identificador.",
    "UNKNOWN_LINE": "El renglón indicado no existe en esta subasta.",
    "UNKNOWN_OFFER": "La oferta indicada no existe en esta subasta.",
    "TIE_BASIS_REQUIRED": "Hay un empate: indique el fundamento para desempatar.",
    "TIE_BREAK_METHOD_NOT_ALLOWED": "El método de desempate no está permitido.",
    "TIE_CHOICE_INVALID": "La oferta escogida en el desempate no es una de las empatadas.",
    "REJECTION_REASONS_REQUIRED": "Hay que anotar las razones del rechazo.",
    "PUBLIC_INTEREST_FINDING_REQUIRED": "Falta la determinación de interés público.",
    "SIGNED_CERTIFICATION_REQUIRED": "Falta la certificación firmada.",
    "COMPLAINANT_NOT_A_BIDDER": "Quien reclama no fue licitador en esta subasta.",
    "COMPLAINANT_SANCTION_REQUIRED": "Una querella infundada exige indicar la sanción al querellante.",
    "COMPLAINT_HEARING_REQUIRED": "La querella necesita una vista antes de resolverse.",
    "COMPLAINT_NOT_UNJUSTIFIED": "La querella no se declaró infundada; no procede la sanción.",
    "UNJUSTIFIED_COMPLAINT": "La querella es infundada.",
    "CONSPIRATORS_REQUIRED": "Hay que identificar a los licitadores que se concertaron.",
    "JUSTICE_REFERRAL_REQUIRED": "El caso debe referirse al Departamento de Justicia.",
    # The engine's own refusals
    "TASK_NOT_OPEN": "La tarea ya no está abierta.",
    "TASK_CLAIMED_BY_OTHER": "Otra persona reclamó esta tarea.",
    "MESSAGE_NOT_EXPECTED": "El caso no espera este mensaje ahora.",
    "CASE_NOT_ACTIVE": "El caso no está en curso.",
    "CASE_NOT_IN_ERROR": "El caso no está en error; no hay nada que reintentar.",
    "CONCURRENT_CHANGE": "Otra persona cambió el caso al mismo tiempo; vuelva a intentarlo.",
    "STALE_VERSION": "Los datos cambiaron desde que abrió la página; vuelva a cargarla.",
    "REGISTRY_ID_TAKEN": "El registro ya tiene una entrada con ese identificador.",
    "USER_EXISTS": "Ya existe un usuario con ese nombre.",
    "ROLE_EXISTS": "Ya existe un rol con ese identificador.",
    "CANNOT_DEACTIVATE_SELF": "No puede desactivar su propia cuenta.",
    "CLOCK_BACKWARDS": "El reloj nunca retrocede.",
    "TOO_MANY_LOGIN_ATTEMPTS": "Demasiados intentos fallidos; espere antes de volver a intentarlo.",
}


def text(code: str | None, engine_message: str) -> str:
    """A refusal known only by its code, in the page's language: the table, else the engine's message."""
    if code and selected_language() == "es" and code in SPANISH:
        return SPANISH[code]
    return engine_message


def refusal_text(exc) -> str:
    """A rule's refusal as its first reason's sentence, with the figures the rule named."""
    reasons = explain_refusal(exc)
    if exc.code in CODES:
        return sentence(reasons[0])
    return text(exc.code, exc.message)


def sentence(reason: dict, language: str | None = None) -> str:
    """A reason (or a decision's why) as a sentence of its own: capitalised, with its full stop."""
    return with_period(capitalised(reason.get(language or selected_language()) or ""))


def refusal_reasons(exc) -> list[dict]:
    """Every reason a rule refused with, each with its sentence, values and articles."""
    return explain_refusal(exc)


def event_why(event: dict) -> dict | None:
    """What a history event says in words: a decision's why, or a refusal's reasons (`{"reasons": [...]}`)."""
    data = event.get("data") or {}
    if event.get("type") == "decision":
        return explain_recorded(data)
    if event.get("type") in ("task_refused", "message_refused") and data.get("reasons"):
        return {"reasons": data["reasons"]}
    return None


def citation(rule_id: str) -> str:
    return article(rule_id)["citation_" + selected_language()]


def rule_article(rule_id: str) -> dict:
    """A rule's citation, its text as the catalogue states it and the law's own Spanish wording."""
    info = article(rule_id)
    entry = rule_text(rule_id) or {}
    language = selected_language()
    # The catalogue states its rules in English: a Spanish page shows the law's own Spanish wording only.
    return {"id": rule_id, "citation": info["citation_" + language],
            "statement": info["statement_en"] if language == "en" else None, "quotes": entry.get("quotes", [])}
