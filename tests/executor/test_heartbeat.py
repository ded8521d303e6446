"""The executor, a loop process like the others, leaves a heartbeat row after a good round."""

import pytest

from execution import heartbeats
from execution.models import ProcessHeartbeat
from tests.processes import wait_until

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_executor_records_a_heartbeat_after_a_good_round(run_executor):
    heartbeats.forget_beats()
    executor = run_executor()
    wait_until(
        lambda: ProcessHeartbeat.objects.filter(
            name="executor", instance_id=executor.process.instance_id
        ).exists(),
        timeout=10,
        message="no heartbeat row from the executor",
    )
