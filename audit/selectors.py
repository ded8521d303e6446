"""Reading the audit log: a tenant's own entries, newest first."""

from __future__ import annotations

import uuid

from django.db import connection
from django.db.models.functions import Collate

from audit.models import AuditEntry
from audit.query import AuditFilter


def audit_entries(
    *, tenant_id: uuid.UUID, matching: AuditFilter, before_id: int | None, limit: int
) -> list[AuditEntry]:
    """Up to `limit` entries of the tenant older than the cursor's id; an operator's action
    is the tenant's when it concerns the tenant's things (tenant_id is set)."""
    query = AuditEntry.objects.filter(tenant_id=tenant_id)
    if matching.target is not None:
        query = _exact_target(query.filter(target=matching.target), matching.target)
    if matching.action is not None:
        query = query.filter(action=matching.action)
    if matching.since is not None:
        query = query.filter(at__gte=matching.since)
    if matching.until is not None:
        query = query.filter(at__lt=matching.until)
    if before_id is not None:
        query = query.filter(id__lt=before_id)
    return list(query.order_by("-id")[:limit])


def _exact_target(query, target: str):
    """MariaDB's column collation is case-insensitive and PAD SPACE; the plain filter keeps
    the index, this one makes the match exact."""
    if connection.vendor != "mysql":
        return query  # SQLite compares text byte for byte
    return query.alias(_target=Collate("target", "utf8mb4_nopad_bin")).filter(_target=target)
