"""Month buckets and keyspace names of the Cassandra history: plain functions."""

from datetime import UTC, datetime, timedelta, timezone

import pytest

from history.cassandra_schema import bucket_of, checked_keyspace, previous_bucket


def test_bucket_of_is_the_utc_month_as_yyyymm() -> None:
    assert bucket_of(datetime(2026, 10, 3, tzinfo=UTC)) == 202610


def test_bucket_of_converts_to_utc_first() -> None:
    evening_in_sao_paulo = datetime(2026, 10, 31, 22, 30, tzinfo=timezone(timedelta(hours=-3)))
    assert bucket_of(evening_in_sao_paulo) == 202611


def test_previous_bucket_within_a_year() -> None:
    assert previous_bucket(202610) == 202609


def test_previous_bucket_of_january_is_december_of_the_year_before() -> None:
    assert previous_bucket(202601) == 202512


def test_a_keyspace_name_that_is_not_an_identifier_is_refused() -> None:
    with pytest.raises(ValueError):
        checked_keyspace("history; DROP KEYSPACE x")
