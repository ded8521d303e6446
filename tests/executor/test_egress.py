"""Connect-time egress checks: the address connected to is the address checked."""

import asyncio
import socket
from datetime import timedelta

import pytest
from aiohttp.abc import AbstractResolver

from execution.delivery import Delivery
from jobs.queue import ClaimedJob
from tasks.address_policy import EgressPolicy
from tests.executor.claimed_jobs import claimed_job

NO_ALLOW_LIST = EgressPolicy.from_setting("")


def job_for(url: str) -> ClaimedJob:
    return claimed_job(url, timeout_seconds=5, lease=timedelta(minutes=1))


class RebindingResolver(AbstractResolver):
    """Answers a public address first, then loopback: the DNS rebinding attack."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.answers = ["93.184.216.34", "127.0.0.1"]
        self.asked = 0

    async def resolve(self, host, port=0, family=socket.AF_INET):
        answer = self.answers[min(self.asked, len(self.answers) - 1)]
        self.asked += 1
        return [
            {
                "hostname": host,
                "host": answer,
                "port": port,
                "family": socket.AF_INET,
                "proto": 0,
                "flags": socket.AI_NUMERICHOST,
            }
        ]

    async def close(self):
        pass

    def getaddrinfo(self, host, port, type=socket.SOCK_STREAM):
        answer = self.answers[min(self.asked, len(self.answers) - 1)]
        self.asked += 1
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (answer, port))]


def call(url: str, policy: EgressPolicy = NO_ALLOW_LIST, resolver=None):
    async def run():
        delivery = Delivery(policy=policy, concurrency=10, resolver=resolver)
        await delivery.start()
        try:
            return await delivery.call(job_for(url))
        finally:
            await delivery.close()

    return asyncio.run(run())


def test_dns_rebinding_passes_creation_but_is_refused_at_connect_time(endpoint):
    resolver = RebindingResolver(endpoint.port)
    NO_ALLOW_LIST.check_url_host("rebind.example", 80, resolve=resolver.getaddrinfo)
    outcome = call("http://rebind.example/ok", resolver=resolver)
    assert outcome.succeeded is False
    assert outcome.error == "destination not allowed"
    assert endpoint.received == []


@pytest.mark.parametrize(
    "host",
    ["127.0.0.1", "[::1]", "[::ffff:127.0.0.1]", "0x7f000001", "localhost"],
)
def test_loopback_in_any_spelling_is_refused_at_connect_time(endpoint, host):
    outcome = call(f"http://{host}:{endpoint.port}/ok")
    assert outcome.error == "destination not allowed", outcome
    assert endpoint.received == []


@pytest.mark.parametrize("host", ["2130706433", "127.1", "0177.0.0.1", "127.0.0.1."])
def test_non_canonical_ipv4_spellings_never_reach_the_endpoint(endpoint, host):
    outcome = call(f"http://{host}:{endpoint.port}/ok")
    assert outcome.succeeded is False and outcome.http_status is None
    assert endpoint.received == []


def test_a_public_address_on_a_port_other_than_80_or_443_is_refused():
    outcome = call("http://93.184.216.34:8080/ok", resolver=None)
    assert outcome.error == "destination not allowed"


def test_allow_list_lets_a_local_endpoint_be_called(endpoint):
    outcome = call(endpoint.url("/ok"), policy=EgressPolicy.from_setting("127.0.0.0/8"))
    assert outcome.succeeded and outcome.http_status == 200


def test_proxy_settings_in_the_environment_are_ignored(endpoint, monkeypatch):
    monkeypatch.setenv("HTTP_PROXY", "http://10.255.255.1:3128")
    monkeypatch.setenv("http_proxy", "http://10.255.255.1:3128")
    outcome = call(endpoint.url("/ok"), policy=EgressPolicy.from_setting("127.0.0.0/8"))
    assert outcome.succeeded
    assert len(endpoint.received) == 1
