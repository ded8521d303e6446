"""The SDK's exceptions: every one is an AtcronError."""

from __future__ import annotations

from typing import Any


class AtcronError(Exception):
    """Base of every error the SDK raises."""


class ApiError(AtcronError):
    """The API answered with an error status; `body` is its error document,
    `{"error": {"code", "message", "fields"}}`, when it sent one."""

    def __init__(self, status: int, body: Any, headers: dict[str, str] | None = None) -> None:
        self.status = status
        self.body = body
        self.headers = headers or {}
        error = body.get("error") if isinstance(body, dict) else None
        error = error if isinstance(error, dict) else {}
        self.code: str = str(error.get("code") or "http_error")
        self.message: str = str(error.get("message") or f"HTTP {status}")
        fields = error.get("fields")
        self.fields: dict[str, Any] = fields if isinstance(fields, dict) else {}
        super().__init__(self.describe())

    def describe(self) -> str:
        """One line per problem: the status, code and message, then each field named."""
        lines = [f"{self.status} {self.code}: {self.message}"]
        lines += [f"  {name}: {problem}" for name, problem in self.fields.items()]
        return "\n".join(lines)


class TransportError(AtcronError):
    """The API could not be reached, or its answer was not HTTP or not JSON."""


class SignatureError(AtcronError):
    """A call's Standard Webhooks signature did not verify."""


class ConfigError(AtcronError):
    """A configuration or a file of tasks is unusable; the message says why."""
