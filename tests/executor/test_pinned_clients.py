"""The executor's HTTP clients dial only the addresses the egress policy checked."""

import asyncio
import socket
from datetime import timedelta

from aiohttp.abc import AbstractResolver

from execution.delivery import Delivery
from tasks.address_policy import EgressPolicy
from tests.executor.claimed_jobs import claimed_job

LOCAL = EgressPolicy.from_setting("127.0.0.0/8")


class FixedResolver(AbstractResolver):
    """Answers every name with the given addresses, counting the lookups."""

    def __init__(self, *addresses: str) -> None:
        self.addresses = list(addresses)
        self.asked = 0

    async def resolve(self, host, port=0, family=socket.AF_INET):
        self.asked += 1
        return [
            {"hostname": host, "host": address, "port": port, "family": socket.AF_INET,
             "proto": 0, "flags": socket.AI_NUMERICHOST}
            for address in self.addresses
        ]  # fmt: skip

    async def close(self):
        pass


class SlowResolver(FixedResolver):
    """Answers after a moment, as a real lookup (a thread's getaddrinfo) does."""

    async def resolve(self, host, port=0, family=socket.AF_INET):
        await asyncio.sleep(0.05)
        return await super().resolve(host, port, family)


def calls(urls: list[str], resolver: AbstractResolver, policy: EgressPolicy = LOCAL):
    async def run():
        delivery = Delivery(policy=policy, concurrency=10, resolver=resolver)
        await delivery.start()
        try:
            jobs = [claimed_job(url, timeout_seconds=5, lease=timedelta(minutes=1)) for url in urls]
            return [await delivery.call(job) for job in jobs]
        finally:
            await delivery.close()

    return asyncio.run(run())


def test_a_name_no_dns_knows_is_dialled_at_the_address_checked(endpoint):
    # pinned.invalid resolves nowhere but here: the client never looks it up itself.
    [outcome] = calls([f"http://pinned.invalid:{endpoint.port}/ok"], FixedResolver("127.0.0.1"))
    assert outcome.succeeded and outcome.http_status == 200
    assert len(endpoint.received) == 1


def test_a_forbidden_first_answer_is_skipped_for_an_allowed_one(endpoint):
    resolver = FixedResolver("10.0.0.1", "127.0.0.1")
    [outcome] = calls([f"http://pinned.invalid:{endpoint.port}/ok"], resolver)
    assert outcome.succeeded


def test_a_name_whose_every_answer_is_forbidden_is_refused(endpoint):
    resolver = FixedResolver("127.0.0.1")
    [outcome] = calls(
        [f"http://pinned.invalid:{endpoint.port}/ok"],
        resolver,
        policy=EgressPolicy.from_setting(""),
    )
    assert outcome.error == "destination not allowed"
    assert endpoint.received == []


def test_a_name_is_looked_up_once_within_the_dns_ttl(endpoint):
    resolver = FixedResolver("127.0.0.1")
    urls = [f"http://pinned.invalid:{endpoint.port}/ok?n={n}" for n in range(3)]
    assert all(outcome.succeeded for outcome in calls(urls, resolver))
    assert resolver.asked == 1


def test_calls_to_a_new_name_at_once_share_one_lookup(endpoint):
    resolver = SlowResolver("127.0.0.1")
    urls = [f"http://pinned.invalid:{endpoint.port}/ok?n={n}" for n in range(5)]

    async def run():
        delivery = Delivery(policy=LOCAL, concurrency=10, resolver=resolver)
        await delivery.start()
        try:
            jobs = [claimed_job(url, timeout_seconds=5, lease=timedelta(minutes=1)) for url in urls]
            return await asyncio.gather(*(delivery.call(job) for job in jobs))
        finally:
            await delivery.close()

    assert all(outcome.succeeded for outcome in asyncio.run(run()))
    assert resolver.asked == 1


def test_a_failed_lookup_is_not_kept(endpoint):
    resolver = FixedResolver("127.0.0.1")
    url = f"http://pinned.invalid:{endpoint.port}/ok"
    refused, later = calls([url, url], resolver, policy=EgressPolicy.from_setting(""))
    assert refused.error == later.error == "destination not allowed"
    assert resolver.asked == 2


def test_a_scheme_other_than_http_is_refused_before_any_call(endpoint):
    [outcome] = calls([f"ftp://127.0.0.1:{endpoint.port}/ok"], FixedResolver("127.0.0.1"))
    assert outcome.succeeded is False and outcome.http_status is None
    assert outcome.error.startswith("request failed: not an http(s) URL")
