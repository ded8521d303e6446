"""A job's `wake_at` is when its state next needs attention, computed by the database on
every write (so no statement can forget it): the due time while it waits, the lease expiry
while it runs, its end once finished. On both backends."""

from datetime import UTC, datetime, timedelta

import pytest

from jobs.models import Job
from tests.conftest import PUBLIC_URL

NOW = datetime.now(UTC)
LONG_AGO = NOW - timedelta(days=2)
LATER = NOW + timedelta(hours=1)


@pytest.mark.parametrize(
    ("status", "fields", "source"),
    [
        ("pending", {}, "next_attempt_at"),
        ("held", {}, "next_attempt_at"),
        ("running", {"lease_expires_at": LATER}, "lease_expires_at"),
        ("succeeded", {"finished_at": NOW}, "finished_at"),
        ("dead", {"finished_at": NOW}, "finished_at"),
        ("cancelled", {"finished_at": NOW}, "finished_at"),
    ],
)
def test_wake_at_is_the_moment_the_rows_state_next_needs_attention(
    status, fields, source, make_job
):
    made = make_job(PUBLIC_URL, due=LONG_AGO)
    Job.objects.filter(id=made.id).update(status=status, **fields)
    row = Job.objects.values("wake_at", source).get(id=made.id)
    assert row["wake_at"] == row[source] is not None
