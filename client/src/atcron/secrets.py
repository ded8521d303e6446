"""The tenant's secrets (names and hosts only, never values) and its signing secret."""

from __future__ import annotations

import builtins
from collections.abc import Iterator
from urllib.parse import quote

from atcron.models import Secret, SigningSecret
from atcron.transport import Transport


class SecretsApi:
    def __init__(self, transport: Transport) -> None:
        self._http = transport

    def list(self, *, page_size: int | None = None) -> Iterator[Secret]:
        for item in self._http.pages("/v1/secrets", {"limit": page_size}):
            yield Secret.from_json(item)

    def put(
        self, name: str, value: str, *, allowed_hosts: builtins.list[str] | None = None
    ) -> Secret:
        """Store or replace a secret; a replacement without `allowed_hosts` keeps them."""
        body: dict[str, object] = {"value": value}
        if allowed_hosts is not None:
            body["allowed_hosts"] = allowed_hosts
        return Secret.from_json(self._http.request("PUT", _path(name), json_body=body).body)

    def delete(self, name: str) -> None:
        self._http.request("DELETE", _path(name))


class SigningSecretApi:
    def __init__(self, transport: Transport) -> None:
        self._http = transport

    def get(self) -> SigningSecret:
        """The `whsec_...` secret the calls are signed with (`verify` takes it)."""
        return SigningSecret.from_json(self._http.request("GET", "/v1/signing-secret").body)


def _path(name: str) -> str:
    return f"/v1/secrets/{quote(name, safe='')}"
