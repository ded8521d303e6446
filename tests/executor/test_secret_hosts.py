"""A secret goes only to the hosts it names: the executor refuses the call before it is
sent, against a real endpoint that would echo the secret back."""

import asyncio

import pytest

from execution.delivery import Delivery
from jobs.models import Job
from tests.executor.conftest import LOCAL, wait_for_status
from tests.executor.test_egress import job_for

pytestmark = pytest.mark.django_db(transaction=True)
SECRET = "Bearer s3cret-value"


def put_secret(api, hosts: list[str]) -> None:
    response = api.put("/v1/secrets/crm", {"value": SECRET, "allowed_hosts": hosts}, format="json")
    assert response.status_code == 201, response.content


def test_a_secret_is_not_sent_to_a_host_it_does_not_allow(endpoint, make_job, run_executor, api):
    put_secret(api, ["93.184.216.34"])
    job = make_job(endpoint.url("/echo"), secret_ref="crm", max_attempts=1)
    run_executor()
    wait_for_status([job], {"dead"})
    stored = Job.objects.get(id=job.id)
    assert "allowed_hosts" in stored.error and "127.0.0.1" in stored.error
    assert endpoint.requests_for("/echo") == []
    assert SECRET not in (stored.response_body or "")


def test_a_secret_goes_to_a_host_it_allows(endpoint, make_job, run_executor, api):
    put_secret(api, ["127.0.0.1"])
    job = make_job(endpoint.url("/echo"), secret_ref="crm")
    run_executor()
    wait_for_status([job], {"succeeded"})
    assert endpoint.requests_for("/echo")[0].headers["Authorization"] == SECRET


def test_narrowing_the_hosts_refuses_the_next_call_of_a_task_using_the_old_one(
    endpoint, make_job, run_executor, api
):
    put_secret(api, ["127.0.0.1"])
    narrowed = api.put(
        "/v1/secrets/crm", {"value": SECRET, "allowed_hosts": ["93.184.216.34"]}, format="json"
    )
    assert narrowed.status_code == 200
    job = make_job(endpoint.url("/echo"), secret_ref="crm", max_attempts=1)
    run_executor()
    wait_for_status([job], {"dead"})
    assert endpoint.requests_for("/echo") == []


def test_delivery_given_a_secret_without_its_hosts_sends_nothing(endpoint):
    async def call():
        delivery = Delivery(policy=LOCAL, concurrency=1)
        await delivery.start()
        try:
            return await delivery.call(job_for(endpoint.url("/echo")), authorization=SECRET)
        finally:
            await delivery.close()

    outcome = asyncio.run(call())
    assert not outcome.succeeded and "allowed_hosts" in outcome.error
    assert endpoint.requests_for("/echo") == []
