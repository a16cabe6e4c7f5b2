"""What the farmer-registry rules say, in Spanish and English: one entry per reason code and per decision.

Data, not code: each sentence names the values it shows (`{income_share_pct:pct}`, see
engine/rules/reasons/format.py), the rule ids it rests on, and which value is the legal
threshold. engine/rules/reasons builds the reasons from these entries.
"""
from __future__ import annotations

CODES = {
    # Eligibility (FAR-02…07): met and failed, so an admission is explained as fully as a denial.
    "TYPE_ELIGIBLE": {
        "rules": ("FAR-02", "AMB-02"), "threshold": "eligible_producer_types",
        "es": "el solicitante es {producer_type}, un tipo de productor admitido ({eligible_producer_types:list})",
        "en": "the applicant is a {producer_type}, an admitted producer type ({eligible_producer_types:list})"},
    "TYPE_NOT_ELIGIBLE": {
        "rules": ("FAR-02", "AMB-02"), "threshold": "eligible_producer_types",
        "es": "el tipo de productor «{producer_type}» no es elegible‹; se admiten: {eligible_producer_types:list}›",
        "en": "the producer type “{producer_type}” is not eligible‹; admitted types: {eligible_producer_types:list}›"},
    "INCOME_SHARE_MET": {
        "rules": ("FAR-04", "FAR-05", "AMB-01", "TC-5"), "threshold": "min_share_pct",
        "es": "la actividad agrícola aporta {income_share_pct:pct} % del ingreso bruto anual "
              "‹({activity_income:money} de {gross_annual_income:money})›‹; el mínimo es {min_share_pct:pct} %›",
        "en": "the farming activity brings {income_share_pct:pct} % of the gross annual income "
              "‹({activity_income:money} of {gross_annual_income:money})›‹; the minimum is {min_share_pct:pct} %›"},
    "INCOME_SHARE_BELOW_THRESHOLD": {
        "rules": ("FAR-04", "FAR-05", "AMB-01", "TC-5"), "threshold": "min_share_pct",
        "es": "la actividad agrícola aporta {income_share_pct:pct} % del ingreso bruto anual "
              "‹({activity_income:money} de {gross_annual_income:money})›‹; el mínimo es {min_share_pct:pct} %›",
        "en": "the farming activity brings only {income_share_pct:pct} % of the gross annual income "
              "‹({activity_income:money} of {gross_annual_income:money})›‹; the minimum is {min_share_pct:pct} %›"},
    "CERTIFICATION_VALID": {
        "rules": ("FAR-06", "FAR-07", "AMB-18"), "threshold": "accepted_for_type",
        "es": "presentó una certificación válida para {producer_type} ({valid_documents:list})",
        "en": "a certification valid for a {producer_type} was filed ({valid_documents:list})"},
    "CERTIFICATION_MISSING": {
        "rules": ("FAR-06", "FAR-07"), "threshold": "accepted_for_type",
        "es": "no acompañó ninguna certificación‹; para {producer_type} se aceptan: {accepted_for_type:list}›",
        "en": "no certification was filed‹; for a {producer_type} these are accepted: {accepted_for_type:list}›"},
    "CERTIFICATION_INVALID_FOR_TYPE": {
        "rules": ("FAR-06", "FAR-07", "AMB-18"), "threshold": "accepted_for_type",
        "es": "la certificación presentada ({filed_documents:list}) no vale para {producer_type}"
              "‹; se aceptan: {accepted_for_type:list}›",
        "en": "the certification filed ({filed_documents:list}) does not count for a {producer_type}"
              "‹; accepted: {accepted_for_type:list}›"},
    "ASSOCIATION_NOT_REGISTERED": {
        "rules": ("FAR-06", "FAR-07", "AMB-18"),
        "es": "la asociación que certifica no está registrada en el Departamento de Estado",
        "en": "the certifying association is not registered with the Departamento de Estado"},
    "DOCUMENTS_NOT_SUPPLIED": {
        "rules": ("FAR-08", "FAR-10"),
        "es": "no se presentaron a tiempo los documentos adicionales requeridos ({required_documents:list})",
        "en": "the additional documents required ({required_documents:list}) were not filed in time"},
    "PENDING_ADDITIONAL_DOCUMENTS": {
        "rules": ("FAR-08",),
        "es": "quedan documentos adicionales por presentar", "en": "additional documents are still due"},
    "NOT_ELIGIBLE": {
        "rules": ("FAR-10",),
        "es": "la solicitud no cumple todos los requisitos de ley y forma",
        "en": "the application does not meet every legal and formal requirement"},
    # Refusals of the hooks
    "SWORN_DECLARATION_REQUIRED": {
        "rules": ("FAR-03",),
        "es": "falta la declaración jurada del solicitante", "en": "the applicant's sworn declaration is missing"},
    "ACTIVITY_INCOME_EXCEEDS_GROSS": {
        "rules": ("FAR-04",), "threshold": "gross_annual_income",
        "es": "el ingreso de la actividad ({activity_income:money}) no puede ser mayor que el ingreso bruto anual "
              "({gross_annual_income:money})",
        "en": "the activity's income ({activity_income:money}) cannot exceed the gross annual income "
              "({gross_annual_income:money})"},
    "UNTIMELY_REVIEW_REQUEST": {
        "rules": ("FAR-12", "FAR-13", "AMB-14"), "threshold": "review_deadline",
        "es": "la solicitud de revisión llegó el {filed_on:date}, fuera de plazo: el último día era el "
              "{review_deadline:date}; la denegación es final y no cabe revisión judicial",
        "en": "the review request arrived on {filed_on:date}, too late: the last day was {review_deadline:date}; "
              "the denial is final and judicial review is not available"},
    "SIGNED_CERTIFICATION_REQUIRED": {
        "rules": ("FAR-15",),
        "es": "falta la certificación firmada de que mantiene su estado de productor bona fide",
        "en": "the signed certification that bona fide status continues is missing"},
    "INCOME_FIGURES_REQUIRED": {
        "rules": ("FAR-15", "FAR-04"),
        "es": "para certificar la proporción del ingreso hacen falta el ingreso bruto y el de la actividad",
        "en": "a certified income share needs both the gross and the activity income"},
    "MEMBERSHIP_NOT_POSSIBLE": {
        "rules": ("FAR-15",),
        "es": "el productor no puede iniciar un trámite de membresía en su estado actual",
        "en": "the producer cannot start a membership case in its current state"},
}

DECISIONS = {
    "assess_eligibility": {
        "yes": {"es": "la solicitud cumple todos los requisitos de ley y forma: procede el ingreso al Registro",
                "en": "the application meets every legal and formal requirement: entry into the Registry is due"},
        "no": {"es": "la solicitud no cumple todos los requisitos: procede denegar el ingreso al Registro",
               "en": "the application does not meet every requirement: entry into the Registry is to be denied"}},
    "income_share_qualifies": {
        "yes": {"es": "la actividad aporta {income_share_pct:pct} % del ingreso bruto; el mínimo es {min_share_pct:pct} %: "
                      "cumple",
                "en": "the activity brings {income_share_pct:pct} % of gross income; the minimum is "
                      "{min_share_pct:pct} %: it qualifies"},
        "no": {"es": "la actividad aporta {income_share_pct:pct} % del ingreso bruto; el mínimo es {min_share_pct:pct} %: "
                     "no cumple",
               "en": "the activity brings {income_share_pct:pct} % of gross income; the minimum is "
                     "{min_share_pct:pct} %: it does not qualify"}},
    "producer_type_in_scope": {
        "yes": {"es": "el tipo de productor «{producer_type}» es elegible", "en": "the producer type “{producer_type}” is eligible"},
        "no": {"es": "el tipo de productor «{producer_type}» no es elegible; se admiten: {eligible_producer_types:list}",
               "en": "the producer type “{producer_type}” is not eligible; admitted: {eligible_producer_types:list}"}},
    "certification_valid_for_type": {
        "yes": {"es": "hay una certificación válida para {producer_type}", "en": "a certification valid for a {producer_type} was filed"},
        "no": {"es": "no hay certificación válida para {producer_type}", "en": "no certification valid for a {producer_type}"}},
    "documents_not_supplied": {
        "*": {"es": "los documentos adicionales no llegaron a tiempo: la solicitud queda incompleta y se deniega",
              "en": "the additional documents did not arrive in time: the application is incomplete and denied"}},
    "review_window": {
        "*": {"es": "puede pedirse revisión hasta el {review_deadline:date}: {days} días desde la notificación de la "
                    "denegación el {denial_notified_on:date}",
              "en": "review may be asked until {review_deadline:date}: {days} days from the denial notified on "
                    "{denial_notified_on:date}"}},
    "review_request_timely": {
        "yes": {"es": "la solicitud de revisión del {filed_on:date} llegó a tiempo (último día: {review_deadline:date})",
                "en": "the review request of {filed_on:date} arrived in time (last day: {review_deadline:date})"},
        "no": {"es": "la solicitud de revisión del {filed_on:date} llegó tarde (último día: {review_deadline:date})",
               "en": "the review request of {filed_on:date} arrived late (last day: {review_deadline:date})"}},
    "extra_documents_window": {
        "*": {"es": "los documentos adicionales pueden presentarse hasta el {extra_docs_deadline:date} ({days} días desde "
                    "el {requested_on:date})",
              "en": "the additional documents may be filed until {extra_docs_deadline:date} ({days} days from "
                    "{requested_on:date})"}},
    "first_renewal_due": {
        "*": {"es": "la primera renovación vence el {renewal_due:date}, {renewal_years} años después de la admisión del "
                    "{admission_date:date}",
              "en": "the first renewal is due on {renewal_due:date}, {renewal_years} years after the admission of "
                    "{admission_date:date}"}},
    "next_renewal_due": {
        "*": {"es": "renovación presentada el {filed_on:date}; la próxima vence el {renewal_due:date} (cada "
                    "{renewal_years} años)",
              "en": "renewal filed on {filed_on:date}; the next one is due on {renewal_due:date} (every "
                    "{renewal_years} years)"}},
    "renewal_lapse": {
        "*": {"es": "la renovación venció el {renewal_due:date} sin presentarse ({days_overdue} días): el estado en el "
                    "Registro pasa a {registry_status}",
              "en": "the renewal fell due on {renewal_due:date} and was not filed ({days_overdue} days): the Registry "
                    "status becomes {registry_status}"}},
}

# The contract's codes as a sentence says them (values shown in a reason, not labels of a form).
LABELS = {
    "agricultor": {"es": "agricultor", "en": "farmer"},
    "acuicultor": {"es": "acuicultor", "en": "aquaculturist"},
    "avicultor": {"es": "avicultor", "en": "poultry farmer"},
    "artesano": {"es": "artesano", "en": "artisan"},
    "pescador": {"es": "pescador", "en": "fisherman"},
    "secretario_agricultura": {"es": "certificación del Secretario de Agricultura",
                               "en": "certification of the Secretario de Agricultura"},
    "fomento_economico": {"es": "certificación de la Administración de Fomento Económico",
                          "en": "certification of the Administración de Fomento Económico"},
    "asociacion_agricultores_pr": {"es": "certificación de la Asociación de Agricultores de Puerto Rico",
                                   "en": "certification of the Asociación de Agricultores de Puerto Rico"},
    "asociacion_registrada": {"es": "certificación de una asociación o cooperativa registrada",
                              "en": "certification of a registered association or cooperative"},
    "declaracion_notarial": {"es": "declaración jurada ante notario", "en": "sworn declaration before a notary"},
    "ACTIVE": {"es": "activo", "en": "active"},
    "RENEWAL_OVERDUE": {"es": "renovación vencida", "en": "renewal overdue"},
    "REMOVED": {"es": "retirado del Registro", "en": "removed from the Registry"},
}
