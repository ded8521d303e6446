"""`read_task`: the one TaskInput each thread keeps validates every request's fields on its
own, as a new serializer per request would (tasks/serializers.py)."""

from __future__ import annotations

import threading

import pytest
from rest_framework.exceptions import ValidationError

from tasks.serializers import TaskInput, read_task

GOOD = {"cron": "0 3 * * *", "url": "https://example.com/hook"}


def errors_of(data: object) -> dict:
    with pytest.raises(ValidationError) as refused:
        read_task(data)
    return refused.value.detail


def test_a_bad_field_is_named_as_a_new_serializer_names_it():
    bad = dict(GOOD, timeout_seconds="soon", colour="red")
    fresh = TaskInput(data=bad)
    assert not fresh.is_valid()
    assert errors_of(bad) == fresh.errors


def test_a_request_after_a_refused_one_is_read_by_its_own_fields():
    errors_of(dict(GOOD, timeout_seconds="soon"))
    data = read_task(dict(GOOD, name="after"))
    assert data["name"] == "after" and "timeout_seconds" not in data


def test_a_field_left_out_takes_its_default_again_after_a_request_that_sent_it():
    read_task(dict(GOOD, labels={"env": "prod"}))
    assert "labels" not in read_task(GOOD)


def test_threads_reading_at_once_each_get_their_own_fields():
    names: dict[int, list[str]] = {}

    def reader(n: int) -> None:
        names[n] = [read_task(dict(GOOD, name=f"t{n}-{i}"))["name"] for i in range(200)]

    threads = [threading.Thread(target=reader, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert names == {n: [f"t{n}-{i}" for i in range(200)] for n in range(4)}


def test_not_an_object_is_refused():
    assert "non_field_errors" in errors_of(["cron"])
