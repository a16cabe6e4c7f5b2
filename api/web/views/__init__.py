"""The pages, one module per kind of user; each registers its routes on the web blueprint."""
from api.web.views import (
    admin, admin_tokens, admin_users, auth, directory_login, messages, owner, registry_bidders, registry_materials,
    second_factor, staff, supervisor, work,
)
