"""Tokens whose signature this process has checked, kept for their next requests.

Checking a token's signature and claims (base64, JSON, HMAC) was a tenth of a single
create's CPU (py-spy, BENCHMARKS.md), paid again on every request of a client that sends
the same token all day. A token here is the exact bytes that passed the check: its claims
cannot change, so only its expiry is looked at again (an expired one is dropped when it is
sent again, or with every other when the store is full). What can change, the tenant's
state and its revocation cut-off, is checked on every request by the caller (tasks/auth.py).
"""

from __future__ import annotations

import time

from rest_framework_simplejwt.tokens import Token

# Past this many distinct tokens in one process every entry is dropped (a bound on memory).
MAX_TOKENS = 10_000

_tokens: dict[bytes, Token] = {}


def known(raw_token: bytes) -> Token | None:
    """The token, if these bytes passed the check here and it has not expired since."""
    token = _tokens.get(raw_token)
    if token is None:
        return None
    if token["exp"] <= time.time():
        _tokens.pop(raw_token, None)
        return None
    return token


def keep(raw_token: bytes, token: Token) -> None:
    """A token that passed every check of its own (signature, type, expiry, lifetime)."""
    if len(_tokens) >= MAX_TOKENS:
        _tokens.clear()
    _tokens[raw_token] = token


def forget_tokens() -> None:
    _tokens.clear()
