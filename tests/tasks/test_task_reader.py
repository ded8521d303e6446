"""`read_task`: the one TaskInput each thread keeps validates every request's fields on its
own and refuses them in the words a new serializer per request would (tasks/serializers.py)."""

from __future__ import annotations

import pytest
from rest_framework.exceptions import ValidationError

from tasks.serializers import TaskInput, read_task

GOOD = {"cron": "0 3 * * *", "url": "https://example.com/hook"}


def errors_of(data: object) -> dict:
    with pytest.raises(ValidationError) as refused:
        read_task(data)
    return refused.value.detail


@pytest.mark.parametrize(
    "bad",
    [dict(GOOD, timeout_seconds="soon", colour="red"), None, ["cron"], "text", {}],
    ids=["bad fields", "null", "a list", "a string", "no schedule"],
)
def test_a_refusal_reads_as_a_new_serializers(bad):
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


def test_not_an_object_is_refused():
    assert "non_field_errors" in errors_of(["cron"])
