"""Concurrent writes of one tenant's flows through the API (first uses, pauses and deletes
of the same keys at once) lose races the database reports as duplicates or deadlocks:
each is retried, and no request is answered with a 500."""

import collections
import threading
import time

import pytest
from django.db import connection

from tests.conftest import client_for

pytestmark = pytest.mark.django_db(transaction=True)

KEYS = ("race-0", "race-1", "race-2")


def hammer(tenant, write, until: float, answers: collections.Counter) -> None:
    client = client_for(tenant)
    try:
        turn = 0
        while time.monotonic() < until:
            answers[write(client, KEYS[turn % len(KEYS)]).status_code] += 1
            turn += 1
    finally:
        connection.close()


WRITES = [
    lambda client, key: client.put(f"/v1/flows/{key}", {"parallelism": 1}, format="json"),
    lambda client, key: client.put(f"/v1/flows/{key}", {"rate": 2}, format="json"),
    lambda client, key: client.post(f"/v1/flows/{key}/pause"),
    lambda client, key: client.post(f"/v1/flows/{key}/resume"),
    lambda client, key: client.delete(f"/v1/flows/{key}"),
    lambda client, key: client.delete(f"/v1/flows/{key}"),
]


def test_concurrent_puts_pauses_and_deletes_of_one_key_never_answer_500(tenant, settings):
    settings.TENANT_REQUEST_RATE = 0  # no request budget: every write reaches the database
    answers: collections.Counter = collections.Counter()
    until = time.monotonic() + 5
    threads = [
        threading.Thread(target=hammer, args=(tenant, write, until, answers)) for write in WRITES
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert set(answers) <= {200, 201, 204, 404}, answers
    assert answers[201] and answers[204]  # the keys were made and deleted, again and again
