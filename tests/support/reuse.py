"""Test-time savings that change no answer: one Flask app per worker (per environment) handed to
every test as if new; scrypt, and a JSON Schema's check against its meta-schema, remembered for
arguments already seen.

Building the app (blueprints, the OpenAPI document, every URL rule compiled) cost 0.3 s per test.
Nothing in it holds the engine but `app.extensions["tramite"]`, so a test gets the app built for
the same TRAMITE_* environment (the only outside input create_app reads), with its engine put in
and the config, extensions and template globals set back to how create_app left them: what a
test changed on its app (a login policy, a directory client) does not reach the next one.

scrypt is a pure function: the same password, salt and cost give the same key. Every login of a
seeded user derived the same key again (0.1 s each); the remembered answer is the one scrypt
gave. hashlib.scrypt is still called, so a test counting derivations counts the same.

Checking a form's schema against the 2020-12 meta-schema was two thirds of a deploy (the procedure
fixtures deploy per test, 0.5-2 s each): a schema that passed passes again; one that failed is
checked again, so its error is the real one each time."""
from __future__ import annotations

import hashlib
import json
import os

from jsonschema import Draft202012Validator

_real_scrypt = hashlib.scrypt
_derived: dict[tuple, bytes] = {}


def remembered_scrypt(password, *, salt, n, r, p, maxmem=0, dklen=64):
    key = (bytes(password), bytes(salt), n, r, p, maxmem, dklen)
    if key not in _derived:
        _derived[key] = _real_scrypt(password, salt=salt, n=n, r=r, p=p, maxmem=maxmem, dklen=dklen)
    return _derived[key]


_real_check_schema = Draft202012Validator.check_schema.__func__
_valid_schemas: set[str] = set()


@classmethod
def remembered_check_schema(cls, schema, *args, **kwargs):
    try:
        key = json.dumps([cls.__name__, schema, args, sorted(kwargs.items())], sort_keys=True)
    except (TypeError, ValueError):
        return _real_check_schema(cls, schema, *args, **kwargs)
    if key not in _valid_schemas:
        _real_check_schema(cls, schema, *args, **kwargs)
        _valid_schemas.add(key)


def _environment_key(database_url: str) -> tuple:
    # TRAMITE_DOCUMENT_DIR is each test's own folder and read per request, never by create_app.
    return database_url, tuple(sorted((k, v) for k, v in os.environ.items()
                                      if k.startswith("TRAMITE_") and k != "TRAMITE_DOCUMENT_DIR"))


class _Built:
    def __init__(self, app) -> None:
        self.app = app
        self.config = dict(app.config)
        self.extensions = dict(app.extensions)
        self.globals = dict(app.jinja_env.globals)
        self.filters = dict(app.jinja_env.filters)
        self.hooks = {name: {k: list(v) for k, v in getattr(app, name).items()}
                      for name in ("before_request_funcs", "after_request_funcs", "teardown_request_funcs")}
        self.teardown_appcontext = list(app.teardown_appcontext_funcs)

    def as_new(self, engine):
        app = self.app
        app.config.clear()
        app.config.update(self.config)
        app.extensions.clear()
        app.extensions.update(self.extensions)
        app.extensions["tramite"] = engine
        for target, saved in ((app.jinja_env.globals, self.globals), (app.jinja_env.filters, self.filters)):
            target.clear()
            target.update(saved)
        for name, saved in self.hooks.items():
            hooks = getattr(app, name)
            hooks.clear()
            hooks.update({k: list(v) for k, v in saved.items()})
        app.teardown_appcontext_funcs[:] = self.teardown_appcontext
        return app


_apps: dict[tuple, _Built] = {}


def app_for(database_url: str, engine, build):
    """The app `build(engine)` makes, built once per environment and handed back as new."""
    key = _environment_key(database_url)
    if key not in _apps:
        if len(_apps) >= 8:  # a test's own folder in the environment builds its own app: keep a few
            del _apps[next(iter(_apps))]
        _apps[key] = _Built(build(engine))
    return _apps[key].as_new(engine)
