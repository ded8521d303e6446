"""The tenant's API keys: made, listed (never the key itself) and revoked."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from urllib.parse import quote

from atcron.models import ApiKey
from atcron.transport import Transport


class ApiKeysApi:
    def __init__(self, transport: Transport) -> None:
        self._http = transport

    def create(self, name: str, scope: str, *, expires_at: datetime | None = None) -> ApiKey:
        """A new key: its `key` is in this answer only, keep it."""
        body: dict[str, object] = {"name": name, "scope": scope}
        if expires_at is not None:
            body["expires_at"] = expires_at
        return ApiKey.from_json(self._http.request("POST", "/v1/api-keys", json_body=body).body)

    def list(self, *, page_size: int | None = None) -> Iterator[ApiKey]:
        for item in self._http.pages("/v1/api-keys", {"limit": page_size}):
            yield ApiKey.from_json(item)

    def get(self, key_id: str) -> ApiKey:
        return ApiKey.from_json(self._http.request("GET", _path(key_id)).body)

    def revoke(self, key_id: str) -> None:
        self._http.request("DELETE", _path(key_id))


def _path(key_id: str) -> str:
    return f"/v1/api-keys/{quote(key_id, safe='')}"
