"""The keys every process needs, checked when the settings load.

A key that is missing, empty, weak (scheduler_site/key_strength.py), one of the development
keys below, or shared between SECRET_KEY and JWT_SIGNING_KEY stops the process with a
message naming the variable. Only a laptop is let off: DEBUG on with the embedded SQLite
database, where a missing key falls back to its development key so that it needs no set-up.
DEBUG on with any other database gets every check. Tenant secrets have keys of their own (a
list, for rotation), never derived from SECRET_KEY.
"""

from __future__ import annotations

import base64

from cryptography.fernet import Fernet
from django.core.exceptions import ImproperlyConfigured

from scheduler_site.key_strength import fernet_key_weakness, signing_key_weakness

DEV_SECRET_KEY = "dev-only-secret-key-not-for-production-00000000000000000000"
DEV_JWT_SIGNING_KEY = "dev-only-jwt-signing-key-not-for-production-000000000000000"
# 32 bytes, base64: b"dev-only-tenant-secrets-key-0000"
DEV_SECRETS_ENCRYPTION_KEY = "ZGV2LW9ubHktdGVuYW50LXNlY3JldHMta2V5LTAwMDA="
DEVELOPMENT_KEYS = frozenset(
    {
        DEV_SECRET_KEY,
        DEV_JWT_SIGNING_KEY,
        DEV_SECRETS_ENCRYPTION_KEY,
        # the key earlier versions shipped as SECRET_KEY's default
        "dev-only-secret-key-change-me-in-production-0123456789",
    }
)
HOW_TO_MAKE = {
    "signing": 'python -c "import secrets; print(secrets.token_urlsafe(64))"',
    "fernet": 'python -c "from cryptography.fernet import Fernet; print(Fernet.generate_key())"',
}
NOT_EMBEDDED = " (DEBUG=true allows development keys only with the embedded SQLite database)"


def _refuse(message: str, *, debug: bool) -> ImproperlyConfigured:
    # Reached with DEBUG on only when the database is not the embedded one: say why.
    return ImproperlyConfigured(message + (NOT_EMBEDDED if debug else ""))


def signing_key(
    name: str, value: str, *, debug: bool, development: str, embedded: bool = True
) -> str:
    """A secret string that looks random (SECRET_KEY, JWT_SIGNING_KEY)."""
    if debug and embedded:
        return value or development
    if not value:
        problem = "is not set"
    elif value in DEVELOPMENT_KEYS or value.startswith(("dev-only", "django-insecure")):
        problem = "is a development key"
    else:
        problem = signing_key_weakness(value)
    if problem:
        raise _refuse(
            f"{name} {problem}; set it to a random string, e.g. {HOW_TO_MAKE['signing']}",
            debug=debug,
        )
    return value


def distinct_keys(secret_key: str, jwt_signing_key: str, *, debug: bool, embedded: bool) -> None:
    """Tokens and sessions signed alike would let a leak of one forge the other."""
    if secret_key == jwt_signing_key and not (debug and embedded):
        raise _refuse(
            "JWT_SIGNING_KEY is the same as SECRET_KEY; give each a key of its own", debug=debug
        )


def fernet_keys(name: str, value: str, *, debug: bool, embedded: bool = True) -> list[str]:
    """Comma-separated Fernet keys: the first encrypts, every one decrypts."""
    keys = [key.strip() for key in value.split(",") if key.strip()]
    relaxed = debug and embedded
    if not keys and relaxed:
        return [DEV_SECRETS_ENCRYPTION_KEY]
    if not keys:
        raise _refuse(
            f"{name} is not set; set it to one or more Fernet keys (comma separated), "
            f"e.g. {HOW_TO_MAKE['fernet']}",
            debug=debug,
        )
    for position, key in enumerate(keys, start=1):
        problem = _fernet_problem(key, relaxed=relaxed)
        if problem:
            raise _refuse(f"{name}: key {position} {problem}", debug=debug)
    return keys


def _fernet_problem(key: str, *, relaxed: bool) -> str | None:
    try:
        Fernet(key)
    except ValueError:
        return "is not a Fernet key (32 url-safe base64 bytes)"
    if relaxed:
        return None
    if key in DEVELOPMENT_KEYS:
        return "is a development key"
    weakness = fernet_key_weakness(base64.urlsafe_b64decode(key))
    return f"{weakness}; make one with {HOW_TO_MAKE['fernet']}" if weakness else None


def fresh_keys() -> dict[str, str]:
    """A new random value for each key variable (tests, benchmarks, `make run`)."""
    import secrets

    return {
        "SECRET_KEY": secrets.token_urlsafe(64),
        "JWT_SIGNING_KEY": secrets.token_urlsafe(64),
        "SECRETS_ENCRYPTION_KEYS": Fernet.generate_key().decode(),
    }
