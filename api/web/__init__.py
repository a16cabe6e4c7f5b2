"""The web application for staff, supervisors, process owners and admins, under /web.

`site.install(app)` puts it on the Flask app; `views/` holds the pages, one module per kind of
user, each a thin call of one engine command or query. This package module imports nothing, so
that every page module may import its siblings without an import circle.
"""
