"""Writing the audit log: every change calls `record` inside the transaction that makes it,
so the change and its row commit or roll back together."""

from __future__ import annotations

import getpass
import uuid
from typing import Any

from django.db import connection

from audit.models import AuditEntry
from scheduler_site.plain_inserts import insert_many, insert_one


def record(
    *,
    tenant_id: uuid.UUID | str | None,
    actor: str,
    action: str,
    target: Any = "",
    changes: dict | None = None,
) -> AuditEntry:
    """Append one entry; refused outside a transaction (an entry must share its change's)."""
    if not connection.in_atomic_block:
        raise RuntimeError(f"audit entry {action} written outside the change's transaction")
    entry = AuditEntry(
        tenant_id=tenant_id,
        actor=actor,
        action=action,
        target=str(target or ""),
        changes=changes or {},
    )
    insert_one(entry)  # without the insert compiler: written with every create
    return entry


def record_many(
    *, tenant_id: uuid.UUID | str | None, actor: str, action: str, changes_by_target: dict
) -> None:
    """One entry per target, in as few INSERT statements as the backend allows."""
    if not connection.in_atomic_block:
        raise RuntimeError(f"audit entries {action} written outside the change's transaction")
    insert_many(
        [
            AuditEntry(
                tenant_id=tenant_id,
                actor=actor,
                action=action,
                target=str(target),
                changes=changes or {},
            )
            for target, changes in changes_by_target.items()
        ]
    )


def operator(username: str) -> str:
    """The actor of a console action."""
    return f"operator:{username}"


def token_actor(request) -> str:
    """The actor of a tenant's API call: its token's id (`jti`), or `api_key:<id>`."""
    token = getattr(request, "auth", None)
    if isinstance(actor := getattr(token, "audit_actor", None), str):
        return actor
    jti = token.get("jti") if token is not None and hasattr(token, "get") else None
    return str(jti) if jti else "token:unknown"


def command_operator() -> str:
    """The actor of an operator's manage.py command: the system user who ran it."""
    try:
        return operator(getpass.getuser())
    except (KeyError, OSError):  # no user name in the environment nor in the passwd file
        return operator("unknown")


def staff_actor(request) -> str:
    """The actor of a console action: the staff user signed in."""
    return operator(request.user.get_username())
