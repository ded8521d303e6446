"""The HTTP clients of one executor: pyreqwest (Rust's reqwest and hyper), pinned to the
addresses the egress policy allowed.

reqwest does its own DNS, where no check can reach; so each host name gets a client of its
own whose only mapping for that name is the one address checked here (the builder's
`resolve`), and URLs with an IP literal share one client that dials the literal as parsed.
A name is looked up again after DNS_TTL seconds, like aiohttp's connector cache did; a new
answer gets a new client (its own keep-alive pool), the least recently used beyond
MAX_CLIENTS are dropped (their calls in flight finish: they hold the client).

Every client: no proxy (the environment is not read), no redirects, no decoding (bodies are
inflated by execution.response_body, within its bound), HTTP/1.1, no cookies, no timeout of
its own (the caller's asyncio deadline covers connect, send and the body).
"""

from __future__ import annotations

import asyncio
import socket
import time
from collections import OrderedDict
from datetime import timedelta

import aiohttp
from pyreqwest.client import Client, ClientBuilder
from pyreqwest.http import Url

from execution.egress import first_allowed
from tasks.address_policy import EgressPolicy

DNS_TTL = 10.0
MAX_CLIENTS = 256
MAX_NAMES = 10_000
IDLE_SECONDS = 15  # a kept-alive connection unused this long is closed


def client_builder(concurrency: int) -> ClientBuilder:
    return (
        ClientBuilder()
        .no_proxy()
        .follow_redirects(False)
        .gzip(False)
        .deflate(False)
        .brotli(False)
        .zstd(False)
        .http1_only()
        .pool_max_idle_per_host(concurrency)
        .pool_idle_timeout(timedelta(seconds=IDLE_SECONDS))
    )


class PinnedClients:
    def __init__(
        self,
        *,
        policy: EgressPolicy,
        concurrency: int,
        resolver: aiohttp.abc.AbstractResolver | None,
    ) -> None:
        self.policy = policy
        self.concurrency = concurrency
        self.resolver = resolver
        self._literal: Client | None = None
        self._clients: OrderedDict[tuple[str, str], Client] = OrderedDict()
        self._answers: dict[tuple[str, int], tuple[float, asyncio.Future[str]]] = {}

    def start(self) -> None:
        """In the loop the calls run in (the default resolver belongs to it)."""
        self.resolver = self.resolver or aiohttp.ThreadedResolver()
        self._literal = client_builder(self.concurrency).build()

    async def close(self) -> None:
        clients = [*self._clients.values(), *filter(None, [self._literal])]
        self._clients.clear()
        for client in clients:
            await client.close()

    async def client_for(self, url: Url) -> Client:
        """The client that may dial `url`'s host; RefusedDestination when none may."""
        port = url.port_or_known_default
        if url.domain is None:  # an IP literal: what the client will dial
            first_allowed(self.policy, [url.host_str.strip("[]")], port)
            return self._literal
        address = await self._allowed_address(url.domain, port)
        return self._pinned(url.domain, address, port)

    async def _allowed_address(self, name: str, port: int) -> str:
        """One lookup per name within DNS_TTL, shared by the calls that need it meanwhile
        (a burst to a new host would otherwise send each of its first calls to the
        resolver's threads); a failed lookup is forgotten at once, as before."""
        key = (name, port)
        cached = self._answers.get(key)
        if cached is None or cached[0] <= time.monotonic():
            if len(self._answers) >= MAX_NAMES:
                self._answers.clear()
            lookup = asyncio.ensure_future(self._lookup(name, port))
            cached = self._answers[key] = (time.monotonic() + DNS_TTL, lookup)
            lookup.add_done_callback(lambda done: self._forget_failed(key, done))
        # Shielded: a call cut off by its deadline does not cancel the others' lookup.
        return await asyncio.shield(cached[1])

    async def _lookup(self, name: str, port: int) -> str:
        answers = await self.resolver.resolve(name, port, family=socket.AF_UNSPEC)
        return first_allowed(self.policy, [answer["host"] for answer in answers], port)

    def _forget_failed(self, key: tuple[str, int], lookup: asyncio.Future) -> None:
        failed = lookup.cancelled() or lookup.exception() is not None
        if failed and self._answers.get(key, (0.0, None))[1] is lookup:
            del self._answers[key]

    def _pinned(self, name: str, address: str, port: int) -> Client:
        key = (name, address)
        client = self._clients.get(key)
        if client is None:
            client = client_builder(self.concurrency).resolve(name, address, port).build()
            self._clients[key] = client
            if len(self._clients) > MAX_CLIENTS:
                self._clients.popitem(last=False)
        self._clients.move_to_end(key)
        return client
