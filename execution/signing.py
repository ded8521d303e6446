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


def signature_headers(*, secret: str, message_id: str, sent_at: datetime, body: str) -> dict:
    signature = _signer(secret).sign(message_id, sent_at, body)
    return {
        "webhook-id": message_id,
        "webhook-timestamp": str(int(sent_at.timestamp())),
        "webhook-signature": signature,
    }
