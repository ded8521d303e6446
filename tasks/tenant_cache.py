"""The tenant a token names, read from the database at most once a second per process.

A token's check needs two of its tenant's fields (is_active, tokens_not_before), and the
views need the whole row; reading it on every request was a round trip per request. Each
process keeps a tenant's row for ROW_SECONDS: a stop or a revocation made by another process
is seen within that second, one made by this process at once (every save or update of a
tenant here empties the cache: TenantQuerySet). Each request gets a Tenant of its own built
from the row, so no request sees what another one changed on its object.
"""

from __future__ import annotations

import time
import uuid

from django.db import connection

from scheduler_site.sqltools import share_lock
from tasks.models import Tenant

ROW_SECONDS = 1.0
# Past this many tenants in one process the expired rows are dropped (a bound on memory).
MAX_ROWS = 10_000

_FIELDS = [field.attname for field in Tenant._meta.concrete_fields]
_rows: dict[uuid.UUID, tuple[float, tuple]] = {}


def cached_tenant(tenant_id: uuid.UUID) -> Tenant | None:
    """The tenant (active or not) as read at most ROW_SECONDS ago, or None if none has
    this id (an unknown id is asked again each time: it may be created meanwhile)."""
    now = time.monotonic()
    entry = _rows.get(tenant_id)
    if entry is None or entry[0] <= now:
        row = Tenant.objects.filter(id=tenant_id).values_list(*_FIELDS).first()
        if row is None:
            return None
        _keep(tenant_id, now, row)
        return Tenant.from_db("default", _FIELDS, row)
    return Tenant.from_db("default", _FIELDS, entry[1])


def _keep(tenant_id: uuid.UUID, now: float, row: tuple) -> None:
    if len(_rows) >= MAX_ROWS:
        for stale in [key for key, (until, _) in list(_rows.items()) if until <= now]:
            _rows.pop(stale, None)
        if len(_rows) >= MAX_ROWS:  # that many tenants within one second: start again
            _rows.clear()
    _rows[tenant_id] = (now + ROW_SECONDS, row)


def active_now(tenant: Tenant) -> bool:
    """Whether the tenant is active by its row itself, not the cached copy: what a change
    that makes a task run again decides on (a stop elsewhere within the cached second must
    not leave it active)."""
    return active_by_row(tenant.id)


def active_by_row(tenant_id: uuid.UUID) -> bool:
    """The row's is_active, read under a shared lock: a stop in progress is waited for, not
    read past as the last committed copy (see scheduler_site.sqltools.share_lock). The row
    is selected whatever its state, so the lock is held on a stopped tenant's row too (at
    READ COMMITTED a locking read lets go of rows its WHERE leaves out): a reactivation
    waits for the caller that found the tenant stopped."""
    table, pk, active = _tenant_names()
    sql = f"SELECT {active} FROM {table} WHERE {pk} = %s{share_lock()}"
    with connection.cursor() as cursor:
        cursor.execute(sql, [tenant_pk(tenant_id)])
        row = cursor.fetchone()
    return bool(row and row[0])


def active_tenant_row() -> str:
    """`table WHERE id = %s AND is_active` under a shared lock: the tenant's row if it is
    active, what a create's INSERT ... SELECT decides by (one parameter: tenant_pk)."""
    table, pk, active = _tenant_names()
    return f"{table} WHERE {pk} = %s AND {active}{share_lock()}"


def _tenant_names() -> tuple[str, str, str]:
    """The tenants table, its id and its is_active column, quoted for raw SQL."""
    quote = connection.ops.quote_name
    column = Tenant._meta.get_field("is_active").column
    return quote(Tenant._meta.db_table), quote(Tenant._meta.pk.column), quote(column)


def tenant_pk(tenant_id: uuid.UUID) -> object:
    """The tenant's id as the database takes it."""
    return Tenant._meta.pk.get_db_prep_value(tenant_id, connection)


def forget_tenants() -> None:
    """Every row read so far is read again on its next use (a tenant was written here)."""
    _rows.clear()
