"""The pages, one module per kind of user; each registers its routes on the web blueprint."""
from api.web.views import (  # noqa: F401  (one module per line: merges stay easy)
    admin,
    admin_tokens,
    admin_users,
    auth,
    directory_login,
    drafts,
    messages,
    migrations,
    owner,
    registry_bidders,
    registry_materials,
    second_factor,
    staff,
    supervisor,
)
