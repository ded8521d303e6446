"""Plans and lock footprints of the lean layouts' statements on a realistic table (the 200,000
other rows of bench/row_life.py plus N running jobs), and the traps of that layout: the
per-tenant running count without a tenant index, and a reader of `status = ? AND wake_at <=
now` that does not name the priorities."""

from __future__ import annotations

import json
import time

from bench import layouts as sql
from bench.mariadb import wait_for_purge
from bench.report import table

WORKER = "bench-worker"
LOCKS = (
    "SELECT trx_rows_locked FROM information_schema.INNODB_TRX"
    " WHERE trx_mysql_thread_id = CONNECTION_ID()"
)


def make_running(cursor, layout: sql.Layout, rows: list[list]) -> None:
    """`rows` inserted, then all claimed by one worker with leases a minute ahead."""
    for start in range(0, len(rows), 1000):
        cursor.execute(sql.insert(layout), [json.dumps(rows[start : start + 1000])])
    when = "wake_at" if layout.lean else "next_attempt_at"
    wake = "wake_at = NOW(6) + INTERVAL 60 SECOND," if sql.writes_wake(layout) else ""
    cursor.execute(
        f"UPDATE {layout.table} SET status = 'running', attempt = 1, worker_id = %s, {wake}"
        " lease_expires_at = NOW(6) + INTERVAL 60 SECOND"
        f" WHERE status = 'pending' AND priority IN (0, 5) AND {when} <= NOW(6)",
        [WORKER],
    )
    # Until purge removes the old (pending, ...) entries, a locking read of that range walks
    # and locks them too: 49,629 row locks for a LIMIT 200 claim here right after this update.
    wait_for_purge(cursor)


def measure(cursor, statement: str, params: list) -> tuple[dict, float, int]:
    """The plan of `statement` on its jobs table, then its time and row locks when run inside
    a transaction that is rolled back."""
    cursor.execute("EXPLAIN " + statement, params)
    columns = [c[0] for c in cursor.description]
    plans = [dict(zip(columns, row, strict=True)) for row in cursor.fetchall()]
    plan = next((p for p in plans if str(p["table"]).startswith(("jobs", "j", "d"))), plans[0])
    cursor.execute("BEGIN")
    started = time.perf_counter()
    cursor.execute(statement, params)
    cursor.fetchall()
    elapsed = (time.perf_counter() - started) * 1000
    time.sleep(0.15)  # InnoDB refreshes its information_schema copy every 0.1 s at most
    cursor.execute(LOCKS)
    locks = cursor.fetchone()[0]
    cursor.execute("ROLLBACK")
    return plan, elapsed, locks


def today_statements(layout: sql.Layout, tenant: str) -> list[tuple[str, str, list]]:
    """Today's readers, for comparison: the fair-share claim, the count, the reconciler."""
    reconcile = (
        f"SELECT id FROM {layout.table} WHERE status = 'running' AND lease_expires_at < NOW(6)"
        " LIMIT 1000 FOR UPDATE"
    )
    count = f"SELECT COUNT(*) FROM {layout.table} WHERE tenant_id = %s AND status = 'running'"
    return [
        ("claim: due tenants", sql.due_tenants(layout), []),
        ("claim: one (priority, tenant)", sql.claim_part(layout, 0, 5, True), [tenant, 200]),
        ("running count, 1 tenant", count, [tenant]),
        ("reconcile read", reconcile, []),
    ]


DEAD_LETTERS = 20_000  # dead rows of one tenant, for main's dead letter page


def make_dead_letters(cursor, layout: sql.Layout, tenant: str) -> None:
    """Main reads a tenant's dead letters from its one index: give one tenant 20,000."""
    cursor.execute(
        f"UPDATE {layout.table} SET status = 'dead', finished_at = NOW(6), tenant_id = %s"
        f" WHERE status = 'running' AND priority = 5 LIMIT {DEAD_LETTERS}",
        [tenant],
    )
    wait_for_purge(cursor)


def main_statements(layout: sql.Layout, ids: list[str], tenant: str) -> list[tuple]:
    """Main's readers, all on (status, priority, tenant_id, wake_at), as jobs/wake_index.py
    and jobs/queue/sql.py have them; the batched writes are the lean layout's."""
    table_, named = layout.table, f"priority IN ({sql.PRIORITIES})"
    group = (
        f"SELECT id FROM {table_} WHERE status = 'running' AND priority = 5 AND tenant_id = %s"
        " AND wake_at <= NOW(6) ORDER BY wake_at LIMIT 1000 FOR UPDATE SKIP LOCKED"
    )
    plain = f"SELECT id FROM {table_} WHERE status = 'running' AND wake_at <= NOW(6)"
    count = f"SELECT COUNT(*) FROM {table_} WHERE status = 'running' AND {named} AND tenant_id = %s"
    page = (
        f"SELECT * FROM {table_} WHERE status = 'dead' AND {named} AND tenant_id = %s"
        " ORDER BY id DESC LIMIT 50"
    )
    return [
        ("claim: due tenants", sql.due_tenants(layout), []),
        ("claim: one (priority, tenant)", sql.claim_part(layout, 0, 5, True), [tenant, 200]),
        ("running count, 1 tenant", count, [tenant]),
        ("reconcile: groups", sql.due_tenants(layout, "running"), []),
        ("reconcile: one group", group, [tenant]),
        ("reconcile, plain (the trap)", plain + " LIMIT 1000 FOR UPDATE", []),
        ("archive: groups", sql.due_tenants(layout, "succeeded"), []),
        (f"dead letter page ({DEAD_LETTERS:,})", page, [tenant]),
    ]


def statements(layout: sql.Layout, ids: list[str], tenant: str) -> list[tuple[str, str, list]]:
    """(what, statement, params) of each lean statement, batches of 500."""
    if not layout.lean:
        return today_statements(layout, tenant)
    if layout.generated:
        return main_statements(layout, ids, tenant)
    now = "2026-06-01 12:00:00.000000"
    results = [[i, 1, "succeeded", None, now, 200, None, "ok", 7] for i in ids]
    count = f"SELECT COUNT(*) FROM {layout.table} WHERE tenant_id = %s AND status = 'running'"
    grouped = (
        f"SELECT tenant_id, COUNT(*) FROM {layout.table}"
        " WHERE status = 'running' GROUP BY tenant_id"
    )
    reconcile = f"SELECT id FROM {layout.table} WHERE status = 'running' AND wake_at <= NOW(6)"
    named = reconcile.replace("AND wake_at", f"AND priority IN ({sql.PRIORITIES}) AND wake_at")
    checks = [
        ("claim: due priorities", sql.due_priorities(layout), []),
        ("claim: one priority, 200", sql.claim_part(layout, 0, 5, False), [200]),
        ("claim: mark running", sql.mark_running(layout), [json.dumps(ids), WORKER, 30, 30]),
        ("claim: details", sql.claimed_details(layout), [json.dumps(ids), WORKER]),
        ("results", sql.record_results(layout), [json.dumps(results), WORKER]),
        ("archive: read 500", sql.archivable(layout), ["succeeded", 500]),
        ("archive: delete", sql.archive_delete(layout), [json.dumps([[i, "x", 1] for i in ids])]),
        ("running count, 1 tenant", count, [tenant]),
        ("running count, grouped", grouped, []),
        ("reconcile read, no priorities", reconcile + " LIMIT 1000 FOR UPDATE", []),
        ("reconcile read, priority IN", named + " LIMIT 1000 FOR UPDATE", []),
    ]
    if layout.dead_letters:
        checks.append(("dead letter write", sql.record_dead(layout), [json.dumps(ids)]))
    return checks


def run_checks(cursor, layouts: list[sql.Layout], rows: list[list]) -> str:
    """`rows` become running jobs in each layout's table; a table of plans, times and locks."""
    out = []
    for layout in layouts:
        make_running(cursor, layout, rows)
        if layout.generated:
            make_dead_letters(cursor, layout, rows[0][1])
        ids = [row[0] for row in rows[:500]]
        for what, statement, params in statements(layout, ids, rows[0][1]):
            plan, ms, locks = measure(cursor, statement, params)
            extra = (plan.get("Extra") or "")[:38]
            out.append(
                [layout.key, what, plan["key"] or "-", plan["type"], plan["rows"], ms, locks, extra]
            )
        cursor.execute(f"DELETE FROM {layout.table} WHERE status IN ('running', 'dead')")
    head = ["", "statement", "key", "type", "rows (est.)", "ms", "row locks", "extra"]
    return table(head, out)
