"""Each tenant holds a bounded share of the resolver pool: its names that never answer (a
real DNS server on loopback that drops them) wait for its own places, never another's."""

import threading
import time
import uuid

from tasks.host_lookups import HostLookups
from tasks.resolver_pool import SHARES
from tests.processes import wait_until


def hang_in_background(tenant: str, count: int) -> threading.Thread:
    lookups = HostLookups(tenant, seconds=1.5)
    names = [(f"n{n}.hang.test", 443) for n in range(count)]
    thread = threading.Thread(target=lookups.start, args=(names,))
    thread.start()
    return thread


def hostile() -> str:
    return f"hostile-{uuid.uuid4()}"  # a tenant of this test's own


def test_a_tenant_holds_at_most_its_share_of_the_resolver_threads(loopback_dns, settings):
    settings.RESOLVER_TENANT_THREADS = 2
    tenant = hostile()
    thread = hang_in_background(tenant, 10)
    wait_until(lambda: loopback_dns.dropped >= 2, timeout=5, message="no lookup reached DNS")
    held = [SHARES.held(tenant) for _ in range(5) if not time.sleep(0.1)]
    assert held == [2] * 5
    thread.join()


def test_another_tenants_lookup_answers_while_one_tenants_names_hang(loopback_dns, settings):
    settings.RESOLVER_TENANT_THREADS = 2
    tenant = hostile()
    thread = hang_in_background(tenant, 10)
    wait_until(lambda: SHARES.held(tenant) == 2, timeout=5, message="no lookups started")
    started = time.monotonic()
    answers = HostLookups("polite").resolve("hooks.ok.test", 443)
    assert time.monotonic() - started < 1.0  # the hostile lookups wait 1.5 s
    assert answers[0][4][0] == "93.184.216.34"
    thread.join()


def test_the_share_is_given_back_when_the_lookups_end(loopback_dns, settings):
    tenant = hostile()
    thread = hang_in_background(tenant, 10)
    share = settings.RESOLVER_TENANT_THREADS
    wait_until(lambda: SHARES.held(tenant) == share, timeout=5, message="no lookups started")
    thread.join()
    wait_until(lambda: SHARES.held(tenant) == 0, timeout=5, message="places still held")
