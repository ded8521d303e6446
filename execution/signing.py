"""Standard Webhooks signatures: `webhook-id`, `webhook-timestamp`, `webhook-signature`.

Tenants verify them with any Standard Webhooks library and their signing secret.
"""

from __future__ import annotations

from datetime import datetime
from functools import lru_cache

from standardwebhooks import Webhook


@lru_cache(maxsize=1024)
def _signer(secret: str) -> Webhook:
    return Webhook(secret)


def signature_headers(*, secrets: list[str], message_id: str, sent_at: datetime, body: str) -> dict:
    """One signature per secret, space separated (Standard Webhooks lets a receiver accept
    the message when any one of them verifies): during a rotation, the new and the old."""
    signatures = [_signer(secret).sign(message_id, sent_at, body) for secret in secrets]
    return {
        "webhook-id": message_id,
        "webhook-timestamp": str(int(sent_at.timestamp())),
        "webhook-signature": " ".join(signatures),
    }
