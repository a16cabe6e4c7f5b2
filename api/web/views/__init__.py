"""The pages, one module per kind of user; each registers its routes on the web blueprint."""
from . import admin, auth, messages, owner, staff, supervisor  # noqa: F401
