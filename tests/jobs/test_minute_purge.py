"""The archiver's purge of per-minute counts older than two days, in bounded batches."""

from datetime import UTC, datetime, timedelta

import pytest

from execution.archiver_process import ArchiverProcess
from jobs.minute_purge import purge_minute_counts
from jobs.models import MinuteCount
from jobs.queue.minute_counts import ALL_TENANTS

pytestmark = pytest.mark.django_db
NOW = datetime.now(UTC).replace(second=0, microsecond=0)


def add(ago: timedelta, writer: int = 1) -> None:
    MinuteCount.objects.create(tenant_id=ALL_TENANTS, minute=NOW - ago, writer=writer, delivered=1)


def test_minutes_older_than_two_days_go_and_the_rest_stays():
    add(timedelta(days=2, minutes=5))
    add(timedelta(days=2, minutes=5), writer=2)
    add(timedelta(days=1))
    assert purge_minute_counts(now=NOW, batch_size=10) == 2
    assert list(MinuteCount.objects.values_list("minute", flat=True)) == [NOW - timedelta(days=1)]


def test_one_purge_takes_at_most_a_batch_oldest_first():
    for minutes in (10, 20, 30):
        add(timedelta(days=3, minutes=minutes))
    assert purge_minute_counts(now=NOW, batch_size=2) == 2
    (left,) = MinuteCount.objects.values_list("minute", flat=True)
    assert left == NOW - timedelta(days=3, minutes=10)


def test_the_archiver_purges_them_in_its_turn():
    add(timedelta(days=4))
    ArchiverProcess(batch_size=10).run_once()
    assert not MinuteCount.objects.exists()


def test_a_full_batch_of_old_minutes_brings_the_next_turn_at_once():
    """Rows come at (tenants + 1) x executors a minute: one batch per interval falls behind."""
    for writer in range(3):
        add(timedelta(days=3), writer=writer)
    process = ArchiverProcess(interval=10, batch_size=2)
    assert process.run_once() == 0
    assert process.run_once() == 10
    assert not MinuteCount.objects.exists()
