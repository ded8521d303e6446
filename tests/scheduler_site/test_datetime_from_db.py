"""A stored instant reads back as the same aware UTC instant whatever the driver returns:
a naive datetime (MySQLdb), ISO text (SQLite), or an aware datetime."""

from datetime import UTC, datetime, timedelta, timezone

from scheduler_site.sqltools import datetime_from_db, datetime_param

STORED = datetime(2026, 6, 1, 12, 0, 30, 123456)


def test_a_naive_datetime_is_read_as_utc_with_every_field_kept():
    read = datetime_from_db(STORED)
    assert read == STORED.replace(tzinfo=UTC) and read.tzinfo is UTC


def test_iso_text_is_read_as_the_same_instant():
    assert datetime_from_db(datetime_param(STORED.replace(tzinfo=UTC))) == datetime_from_db(STORED)


def test_an_aware_datetime_keeps_its_fields_as_utc():
    aware = STORED.replace(tzinfo=timezone(timedelta(hours=2)))
    assert datetime_from_db(aware) == STORED.replace(tzinfo=UTC)


def test_none_stays_none():
    assert datetime_from_db(None) is None
