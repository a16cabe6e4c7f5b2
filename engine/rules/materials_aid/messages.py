"""What the materials-aid rules say, in Spanish and English: one entry per reason code and decision.

Data, not code (see engine/rules/reasons): each sentence names the values it shows, the rule ids
it rests on and, where there is one, the value that is the legal threshold.
"""
from __future__ import annotations

CODES = {
    # Eligibility (MAT-02…07, 26, 27, 31, 32; AMB-23)
    "NOT_OWNER": {"rules": ("MAT-02", "MAT-03", "AMB-23"),
        "es": "el solicitante no es dueño de la vivienda ni presentó la autorización del dueño del solar",
        "en": "the applicant does not own the dwelling nor filed the lot owner's authorisation"},
    "LOT_AUTH_FORM_INVALID": {"rules": ("MAT-03", "MAT-10"),
        "es": "la autorización del dueño del solar no está en la forma requerida",
        "en": "the lot owner's authorisation is not in the required form"},
    "HEIR_AUTHORIZATION_INCOMPLETE": {"rules": ("MAT-07", "MAT-09"),
        "es": "falta la autorización jurada de todos los herederos", "en": "the sworn authorisation of every heir is missing"},
    "NOT_RESIDING": {"rules": ("MAT-04", "MAT-26", "AMB-23"),
        "es": "el solicitante no reside en la vivienda y la ayuda no le permite terminarla para vivir en ella",
        "en": "the applicant does not live in the dwelling and the aid would not let them finish it to live there"},
    "OTHER_PROPERTY": {"rules": ("MAT-05",),
        "es": "el solicitante tiene otra propiedad", "en": "the applicant owns another property"},
    "INCOME_ABOVE_LIMIT": {"rules": ("MAT-06", "MAT-40", "AMB-31"), "threshold": "income_limit",
        "es": "el ingreso anual del hogar ({household[annual_income]:money}, {household[size]} personas) supera el "
              "límite de {income_limit:money}",
        "en": "the household's annual income ({household[annual_income]:money}, {household[size]} people) exceeds "
              "the limit of {income_limit:money}"},
    "LABOR_CERTIFICATION_REQUIRED": {"rules": ("MAT-31",),
        "es": "falta la certificación de quién aportará la mano de obra", "en": "the certification of who provides the labour is missing"},
    "EMPLOYEE_DISPENSA_REQUIRED": {"rules": ("MAT-32",),
        "es": "el solicitante es empleado del Departamento y necesita una dispensa",
        "en": "the applicant is a Department employee and needs a waiver (dispensa)"},
    "DISABILITY_ID_EXPIRED": {"rules": ("MAT-27", "AMB-35"), "threshold": "assessed_on",
        "es": "la identificación de persona con impedimento vence el {documents[disability_id_valid_until]:date}, "
              "antes de la evaluación del {assessed_on:date}",
        "en": "the disability id expires on {documents[disability_id_valid_until]:date}, before the assessment of "
              "{assessed_on:date}"},
    "FALSE_INFORMATION": {"rules": ("MAT-14",),
        "es": "la solicitud contiene información falsa", "en": "the application contains false information"},
    "LOT_MEMORANDUM_DECLINED": {"rules": ("MAT-25",),
        "es": "se denegó el memorando sobre el solar", "en": "the lot memorandum was declined"},
    "RETAINING_WALL_NEED_NOT_EVIDENCED": {"rules": ("MAT-24",),
        "es": "no se demostró la necesidad del muro de contención", "en": "the need for the retaining wall was not shown"},
    "EQUIPMENT_DECLINED_DISCRETION": {"rules": ("MAT-23", "AMB-34"),
        "es": "el Secretario Auxiliar no aprobó el equipo urgente", "en": "the Secretario Auxiliar declined the urgent equipment"},
    # Refusals of the hooks
    "DOCUMENTS_INCOMPLETE": {"rules": ("MAT-09",),
        "es": "faltan documentos de la lista‹: {missing:list}›", "en": "documents of the checklist are missing‹: {missing:list}›"},
    "RETAINING_WALL_DESIGN_REQUIRED": {"rules": ("MAT-24",),
        "es": "el muro de contención necesita el diseño de un ingeniero licenciado",
        "en": "the retaining wall needs a licensed engineer's design"},
    "MEDICAL_EVIDENCE_REQUIRED": {"rules": ("MAT-23",),
        "es": "falta la evidencia médica que justifica el equipo", "en": "the medical evidence justifying the equipment is missing"},
    "EFFORTS_EVIDENCE_REQUIRED": {"rules": ("MAT-25",),
        "es": "falta describir las gestiones hechas para conseguir la autorización del dueño del solar",
        "en": "the efforts made to obtain the lot owner's authorisation are not described"},
    "QUOTE_STORE_NOT_REGISTERED": {"rules": ("MAT-15",),
        "es": "una cotización viene de una ferretería que no está en el Registro de Licitadores‹ ({unregistered:list})›",
        "en": "a quote comes from a store not in the Registro de Licitadores‹ ({unregistered:list})›"},
    "QUOTES_NOT_THREE_DISTINCT": {"rules": ("MAT-15", "AMB-26"), "threshold": "quote_count",
        "es": "hacen falta cotizaciones de‹ {quote_count}› ferreterías registradas distintas",
        "en": "quotes from‹ {quote_count}› distinct registered stores are needed"},
    "ITEM_NOT_INDISPENSABLE": {"rules": ("MAT-22",),
        "es": "no es indispensable para la ocupación, la salud y la seguridad‹: {items:list}›",
        "en": "not indispensable to occupancy, health and safety‹: {items:list}›"},
    "MAX_AID_NOT_SET": {"rules": ("MAT-21", "AMB-31"),
        "es": "la ayuda máxima (materials.maxAidAmount) no estaba fijada al iniciar el caso",
        "en": "the maximum aid (materials.maxAidAmount) was not set when the case started"},
    "MAX_AID_EXCEEDED": {"rules": ("MAT-21", "AMB-31"), "threshold": "max_aid_amount",
        "es": "la cotización escogida‹ ({selected_total:money})› supera la ayuda máxima‹ de {max_aid_amount:money}›",
        "en": "the selected quote‹ ({selected_total:money})› exceeds the maximum aid‹ of {max_aid_amount:money}›"},
    "DUTIES_SIGNATURE_REQUIRED": {"rules": ("MAT-29",),
        "es": "el beneficiario debe firmar el documento de deberes y responsabilidades",
        "en": "the beneficiary must sign the duties and responsibilities document"},
    "EXTENSION_NOT_WRITTEN": {"rules": ("MAT-36",),
        "es": "la prórroga debe pedirse por escrito", "en": "an extension must be requested in writing"},
    "EXTENSION_AUTHORITY_INVALID": {"rules": ("MAT-36",),
        "es": "quien concede la prórroga no tiene autoridad para hacerlo", "en": "whoever grants the extension lacks the authority"},
    "EXTENSION_REQUEST_LATE": {"rules": ("MAT-36", "AMB-27"), "threshold": "use_deadline",
        "es": "la prórroga se pidió‹ el {filed_on:date}›, después de vencer el plazo para usar los materiales‹ el "
              "{use_deadline:date}›",
        "en": "the extension was requested‹ on {filed_on:date}›, after the period to use the materials ended‹ on "
              "{use_deadline:date}›"},
    "COMPLETION_ALREADY_NOTIFIED": {"rules": ("MAT-34",),
        "es": "el fin de la obra ya se había notificado; vale la primera notificación",
        "en": "the end of the work was already notified; the first notice stands"},
    "WRONG_REGIONAL_OFFICE": {"rules": ("MAT-08",),
        "es": "la solicitud debe presentarse en la Oficina Regional del pueblo donde reside el solicitante‹: quien reside en {municipality} solicita en la {office_name}›‹, no en {starter_office}›",
        "en": "the application is filed at the Regional Office of the applicant's town‹: an applicant living in {municipality} applies at the {office_name}›‹, not at {starter_office}›"},
    "MUNICIPALITY_UNKNOWN": {"rules": ("MAT-08",),
        "es": "‹«{municipality}» ›no es un municipio que atienda ninguna Oficina Regional",
        "en": "‹“{municipality}” ›is not a municipality served by any Regional Office"},
    "DOCS_LATE": {"rules": ("MAT-11", "AMB-24"),
        "es": "los documentos llegaron fuera de plazo; la solicitud se archiva incompleta",
        "en": "the documents arrived late; the application is closed as incomplete"},
    "REJECTED_WAIT_PERIOD": {"rules": ("MAT-30", "AMB-28"),
        "es": "el solicitante recibió materiales hace menos de dos años", "en": "the applicant received materials less than two years ago"},
    # What the written notices say (engine/letters: letter.ineligibility, letter.closure).
    "IRREGULARITIES": {"rules": ("MAT-13", "MAT-14"),
        "es": "la investigación de campo halló irregularidades en la información suministrada",
        "en": "the field investigation found irregularities in the information supplied"},
    "REJECTED_BY_CENTRAL_OFFICE": {"rules": ("MAT-16", "MAT-17"),
        "es": "la Oficina Central no aprobó la solicitud", "en": "the Central Office did not approve the application"},
    "EXPIRED": {"rules": ("MAT-18",),
        "es": "la solicitud venció sin que se emitiera la orden de compra dentro de su vigencia",
        "en": "the application expired before a purchase order was issued within its validity"},
}

DECISIONS = {
    "priority_rank": {"*": {"es": "prioridad {outcome} para «{priority_kind}»", "en": "priority {outcome} for “{priority_kind}”"}},
    "reapply_bar": {
        "yes": {"es": "no puede volver a solicitar hasta el {reapply_earliest:date}: recibió materiales el "
                      "{last_use_date:date} y deben pasar {wait_years} años",
                "en": "may not reapply until {reapply_earliest:date}: materials were used on {last_use_date:date} and "
                      "{wait_years} years must pass"},
        "no": {"es": "puede solicitar‹: el término de espera terminó el {reapply_earliest:date}›",
               "en": "may apply‹: the waiting period ended on {reapply_earliest:date}›"}},
    "documents_deadline": {"*": {"es": "los documentos deben presentarse hasta el {outcome:date} ({days} días)",
                                 "en": "the documents are due by {outcome:date} ({days} days)"}},
    "materials_checklist": {"*": {"es": "documentos requeridos: {outcome:list}", "en": "documents required: {outcome:list}"}},
    "application_validity": {"*": {"es": "la solicitud vale hasta el {outcome:date} ({years:years} desde el {filing_date:date})",
                                   "en": "the application is valid through {outcome:date} ({years:years} from {filing_date:date})"}},
    "assess_materials_eligibility": {
        "yes": {"es": "el solicitante cumple los requisitos del programa", "en": "the applicant meets the programme's requirements"},
        "no": {"es": "el solicitante no cumple los requisitos del programa", "en": "the applicant does not meet the programme's requirements"},
        "none": {"es": "la elegibilidad queda pendiente de una decisión especial‹ ({special_paths:list})›",
                 "en": "eligibility awaits a special decision‹ ({special_paths:list})›"}},
    "income_within_limit": {
        "yes": {"es": "el ingreso del hogar ({annual_income:money}) no supera el límite de {income_limit:money} para "
                      "{household_size} personas",
                "en": "the household income ({annual_income:money}) is within the limit of {income_limit:money} for "
                      "{household_size} people"},
        "no": {"es": "el ingreso del hogar ({annual_income:money}) supera el límite de {income_limit:money} para "
                     "{household_size} personas",
               "en": "the household income ({annual_income:money}) exceeds the limit of {income_limit:money} for "
                     "{household_size} people"}},
    "select_quote": {"*": {"es": "se escoge la cotización más baja: {outcome[store_name]} por {selected_total:money}",
                           "en": "the lowest quote is chosen: {outcome[store_name]} for {selected_total:money}"}},
    "aid_within_maximum": {
        "yes": {"es": "{amount:money} no supera la ayuda máxima de {max_aid_amount:money}",
                "en": "{amount:money} is within the maximum aid of {max_aid_amount:money}"},
        "no": {"es": "{amount:money} supera la ayuda máxima de {max_aid_amount:money}",
               "en": "{amount:money} exceeds the maximum aid of {max_aid_amount:money}"}},
    "use_period_deadline": {"*": {"es": "los materiales deben usarse hasta el {outcome:date} ({days} días desde la entrega del "
                                        "{delivered_on:date})",
                                  "en": "the materials must be used by {outcome:date} ({days} days from delivery on "
                                        "{delivered_on:date})"}},
    "extended_use_deadline": {"*": {"es": "con la prórroga de {days} días, el plazo para usar los materiales vence el "
                                          "{outcome:date}",
                                    "en": "with the {days}-day extension, the period to use the materials ends on "
                                          "{outcome:date}"}},
    "first_visit_day": {"*": {"es": "la visita de seguimiento se hace desde el {outcome:date}",
                              "en": "the follow-up visit takes place from {outcome:date}"}},
    "amount_to_collect": {"*": {"es": "se cobra {outcome:money} ({basis})", "en": "{outcome:money} is collected ({basis})"}},
    "follow_up_result": {
        "COMPLETED": {"es": "la obra se hizo con los materiales según lo acordado: el caso se completa; puede volver a "
                            "solicitar desde el {reapply_earliest:date}",
                      "en": "the work was done with the materials as agreed: the case is completed; may reapply from "
                            "{reapply_earliest:date}"},
        "*": {"es": "los materiales no se usaron según lo acordado: se cobra {collection_amount:money}",
              "en": "the materials were not used as agreed: {collection_amount:money} is collected"}},
}

LABELS = {
    "disaster": {"es": "desastre", "en": "disaster"},
    "structural_risk": {"es": "riesgo estructural", "en": "structural risk"},
    "none": {"es": "sin prioridad", "en": "no priority"},
    "lot_memorandum": {"es": "memorando sobre el solar", "en": "lot memorandum"},
    "retaining_wall": {"es": "muro de contención", "en": "retaining wall"},
    "medical_equipment": {"es": "equipo médico urgente", "en": "urgent medical equipment"},
    "MISUSED_VALUE": {"es": "el valor de lo mal usado", "en": "the value misused"},
    "ALL_DELIVERED": {"es": "todo lo entregado", "en": "everything delivered"},
    "photos": {"es": "Fotos", "en": "Photos"},
    "ownership_evidence": {"es": "Evidencia de titularidad", "en": "Evidence of ownership"},
    "income_evidence": {"es": "Evidencia de ingresos", "en": "Evidence of income"},
    "photo_id": {"es": "Identificación con foto", "en": "Photo ID"},
    "social_security_card": {"es": "Tarjeta de Seguro Social", "en": "Social Security card"},
    "utility_bill": {"es": "Factura de servicios", "en": "Utility bill"},
    "materials_estimate": {"es": "Estimado de materiales", "en": "Materials estimate"},
}
