from datetime import UTC, datetime, timedelta

import pytest

from jobs.oldest_due import oldest_due_ages

pytestmark = pytest.mark.django_db


def test_each_priority_gives_the_age_of_its_oldest_due_job(make_job):
    now = datetime.now(UTC)
    make_job("https://example.com/", due=now - timedelta(seconds=30), priority=5)
    make_job("https://example.com/", due=now - timedelta(seconds=90), priority=5)
    make_job("https://example.com/", due=now - timedelta(seconds=10), priority=2)
    ages = oldest_due_ages(now)
    assert ages == {5: pytest.approx(90, abs=0.01), 2: pytest.approx(10, abs=0.01)}


def test_jobs_not_yet_due_or_not_pending_count_for_nothing(make_job):
    now = datetime.now(UTC)
    make_job("https://example.com/", due=now + timedelta(minutes=5))
    make_job("https://example.com/", due=now - timedelta(minutes=5), status="dead")
    assert oldest_due_ages(now) == {}
