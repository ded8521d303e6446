"""A key reads `acs_<prefix>_<secret>`: the prefix (8 lowercase letters and digits) finds the
key's row, the secret (256 random bits) proves it. Only the key's sha256 is stored: the
secret is random, so no slow hash is needed against guessing."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import string

MARK = "acs_"
PREFIX_ALPHABET = string.ascii_lowercase + string.digits
PREFIX_CHARACTERS = 8
SECRET_BYTES = 32


def new_key() -> tuple[str, str]:
    """A fresh (prefix, key); the prefix is the key's first characters."""
    prefix = MARK + "".join(secrets.choice(PREFIX_ALPHABET) for _ in range(PREFIX_CHARACTERS))
    return prefix, f"{prefix}_{secrets.token_urlsafe(SECRET_BYTES)}"


def looks_like_key(raw: str) -> bool:
    """A JWT never starts so (it starts `eyJ`): anything that does is an API key or nothing."""
    return raw.startswith(MARK)


def prefix_of(key: str) -> str | None:
    """The prefix of a well-formed key, else None."""
    prefix, underscore, secret = key.partition("_")[2].partition("_")
    well_formed = (
        underscore
        and secret
        and len(prefix) == PREFIX_CHARACTERS
        and all(character in PREFIX_ALPHABET for character in prefix)
    )
    return MARK + prefix if well_formed else None


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def matches(key: str, stored_hash: str) -> bool:
    return hmac.compare_digest(key_hash(key), stored_hash)
