"""The pages, one module per kind of user; each registers its routes on the web blueprint."""
# One module per line, so that branches adding views merge without a conflict.
from api.web.views import (  # noqa: F401
    admin,
    admin_offices,
    admin_tokens,
    admin_users,
    auth,
    directory_login,
    documents,
    drafts,
    legal_time,
    letters,
    list_tools,
    messages,
    migrations,
    owner,
    password,
    registry_bidders,
    registry_materials,
    second_factor,
    staff,
    supervisor,
)
