"""Each process leaves a heartbeat row after a good turn, at most every few seconds."""

import pytest

from execution import heartbeats
from execution.models import ProcessHeartbeat
from execution.reconciler_process import ReconcilerProcess


@pytest.fixture(autouse=True)
def fresh_beats(db):
    heartbeats.forget_beats()


@pytest.mark.django_db(transaction=True)  # the loop closes its connection when it stops
def test_a_loop_process_records_a_heartbeat_after_a_good_turn():
    process = ReconcilerProcess()
    process.run(once=True)
    row = ProcessHeartbeat.objects.get()
    assert (row.name, row.instance_id) == ("reconciler", process.instance_id)


def test_a_heartbeat_is_written_at_most_every_few_seconds():
    heartbeats.beat("scheduler", "host-1")
    first = ProcessHeartbeat.objects.get().last_seen
    heartbeats.beat("scheduler", "host-1")
    assert ProcessHeartbeat.objects.get().last_seen == first


def test_each_instance_of_a_process_has_its_own_row():
    heartbeats.beat("executor", "host-1")
    heartbeats.beat("executor", "host-2")
    assert sorted(ProcessHeartbeat.objects.values_list("instance_id", flat=True)) == [
        "host-1",
        "host-2",
    ]
