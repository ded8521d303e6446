"""The keys every process needs, checked when the settings load.

With DEBUG off, a key that is missing, empty, too short or one of the development keys
below stops the process with a message naming the variable. With DEBUG on, a missing key
falls back to its development key so that a laptop needs no set-up. Tenant secrets have
keys of their own (a list, for rotation), never derived from SECRET_KEY.
"""

from __future__ import annotations

from cryptography.fernet import Fernet
from django.core.exceptions import ImproperlyConfigured

MIN_KEY_LENGTH = 50
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


def signing_key(name: str, value: str, *, debug: bool, development: str) -> str:
    """A secret string of at least MIN_KEY_LENGTH characters (SECRET_KEY, JWT_SIGNING_KEY)."""
    if not value and debug:
        return development
    problem = None
    if not value:
        problem = "is not set"
    elif value in DEVELOPMENT_KEYS or value.startswith(("dev-only", "django-insecure")):
        problem = "is a development key"
    elif len(value) < MIN_KEY_LENGTH:
        problem = f"is shorter than {MIN_KEY_LENGTH} characters"
    elif len(set(value)) < 5:
        problem = "has fewer than 5 distinct characters"
    if problem and not debug:
        raise ImproperlyConfigured(
            f"{name} {problem}; set it to a random string, e.g. {HOW_TO_MAKE['signing']}"
        )
    return value


def fernet_keys(name: str, value: str, *, debug: bool) -> list[str]:
    """Comma-separated Fernet keys: the first encrypts, every one decrypts."""
    keys = [key.strip() for key in value.split(",") if key.strip()]
    if not keys and debug:
        return [DEV_SECRETS_ENCRYPTION_KEY]
    if not keys:
        raise ImproperlyConfigured(
            f"{name} is not set; set it to one or more Fernet keys (comma separated), "
            f"e.g. {HOW_TO_MAKE['fernet']}"
        )
    for position, key in enumerate(keys, start=1):
        try:
            Fernet(key)
        except ValueError as exc:
            raise ImproperlyConfigured(
                f"{name}: key {position} is not a Fernet key (32 url-safe base64 bytes)"
            ) from exc
        if key in DEVELOPMENT_KEYS and not debug:
            raise ImproperlyConfigured(f"{name}: key {position} is a development key")
    return keys


def fresh_keys() -> dict[str, str]:
    """A new random value for each key variable (tests, benchmarks, `make run`)."""
    import secrets

    return {
        "SECRET_KEY": secrets.token_urlsafe(64),
        "JWT_SIGNING_KEY": secrets.token_urlsafe(64),
        "SECRETS_ENCRYPTION_KEYS": Fernet.generate_key().decode(),
    }
