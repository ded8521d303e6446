"""The archiver removes audit entries past AUDIT_RETENTION_DAYS, in bounded batches."""

from datetime import UTC, datetime, timedelta

from django.db import transaction

from audit.models import AuditEntry
from audit.record import record
from audit.retention import AuditRetention
from execution.archiver_process import ArchiverProcess

NOW = datetime(2027, 6, 1, tzinfo=UTC)


def entries_aged(tenant, days: float, count: int = 1) -> list[int]:
    with transaction.atomic():
        made = [
            record(tenant_id=tenant.id, actor="jti", action="task.update", target=str(n)).id
            for n in range(count)
        ]
    AuditEntry.objects.filter(id__in=made).update(at=NOW - timedelta(days=days))
    return made


def test_entries_past_the_retention_are_removed_and_younger_ones_kept(tenant, settings):
    settings.AUDIT_RETENTION_DAYS = 400
    entries_aged(tenant, 401)
    kept = entries_aged(tenant, 399)
    assert AuditRetention().run(now=NOW) == 1
    assert list(AuditEntry.objects.values_list("id", flat=True)) == kept


def test_the_retention_is_a_setting(tenant, settings):
    settings.AUDIT_RETENTION_DAYS = 10
    entries_aged(tenant, 11)
    assert AuditRetention().run(now=NOW) == 1


def test_a_round_removes_at_most_its_batches_and_the_next_goes_on(tenant, settings):
    settings.AUDIT_RETENTION_DAYS = 400
    entries_aged(tenant, 500, count=7)
    retention = AuditRetention(batch_size=2, max_batches=2)
    assert retention.run(now=NOW) == 4
    assert retention.run(now=NOW) == 3
    assert not AuditEntry.objects.exists()


def test_the_archivers_turn_removes_expired_entries(tenant):
    entries_aged(tenant, 1)
    AuditEntry.objects.update(at=datetime.now(UTC) - timedelta(days=401))
    ArchiverProcess(interval=1).run_once()
    assert not AuditEntry.objects.exists()
