"""The OpenID Connect client of the web login (authlib): one per app, made on first use from
`app.config["TRAMITE_OIDC"]` (engine.config.login_policy.DirectoryLogin, from the environment).

authlib checks the provider's answer: the `state` against the one this browser's session was sent
with (single use), PKCE (S256), and the id_token's signature (the provider's published keys),
issuer, audience, expiry and `nonce`. An answer without a checked id_token is refused here too:
authlib only checks one when the session still holds the nonce it sent.
"""
from __future__ import annotations

import logging
import secrets

from authlib.integrations.flask_client import OAuth
from flask import current_app

log = logging.getLogger("tramite.directory")
NAME = "directory"


class DirectoryRefused(Exception):
    """The provider's answer does not prove who signed in (state, nonce, signature, claims)."""


def settings():
    return current_app.config.get("TRAMITE_OIDC")


def client():
    app = current_app._get_current_object()
    made = app.extensions.get("tramite_directory")
    if made is None:
        config = settings()
        oauth = OAuth(app)
        made = app.extensions["tramite_directory"] = oauth.register(
            NAME, client_id=config.client_id, client_secret=config.client_secret,
            server_metadata_url=config.issuer.rstrip("/") + "/.well-known/openid-configuration",
            client_kwargs={"scope": config.scopes, "code_challenge_method": "S256"})
    return made


def start(redirect_uri: str):
    """The redirect to the provider's login, with a fresh state, nonce and PKCE verifier."""
    return client().authorize_redirect(redirect_uri, nonce=secrets.token_urlsafe(24))


def claims() -> dict:
    """The id_token's claims once every check passed, or DirectoryRefused."""
    try:
        token = client().authorize_access_token()
    except Exception as exc:  # noqa: BLE001 (authlib and joserfc raise many kinds; each is a refusal)
        log.warning("directory sign-in refused: %s: %s", type(exc).__name__, exc)
        raise DirectoryRefused(str(exc)) from None
    userinfo = token.get("userinfo")
    if not userinfo:
        log.warning("directory sign-in refused: no checked id_token in the answer")
        raise DirectoryRefused("no id_token")
    return dict(userinfo)
