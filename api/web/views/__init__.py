"""The pages, one module per kind of user; each registers its routes on the web blueprint."""
from api.web.views import (
    admin, admin_tokens, admin_users, applicant_access, auth, directory_login, documents, messages, owner, registry_bidders, registry_materials,
    second_factor, staff, supervisor,
)
