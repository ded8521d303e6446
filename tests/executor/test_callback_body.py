"""The reply a callback carries: the first 4 KiB of the last response, as text when it is
UTF-8 and as base64 when it is not (`response_body_encoding` says which)."""

import base64
import json

import pytest

from jobs.callbacks.payload import response_fields
from tests.executor.callback_jobs import wait_for_calls

pytestmark = pytest.mark.django_db(transaction=True)


def reported_reply(endpoint, make_job, run_executor, path: str) -> dict:
    make_job(endpoint.url(path), on_success_url=endpoint.url("/ok?cb=success"))
    run_executor()
    (call,) = wait_for_calls(endpoint, "/ok?cb=success")
    return json.loads(call.body)


def test_a_binary_reply_is_carried_as_base64_cut_at_4_kib(endpoint, make_job, run_executor):
    payload = reported_reply(endpoint, make_job, run_executor, "/brotli")  # 5,000 bytes 0x8b
    assert payload["response_body_encoding"] == "base64"
    assert base64.b64decode(payload["response_body"]) == b"\x8b" * 4096


def test_a_text_reply_is_carried_as_text_cut_at_4_kib(endpoint, make_job, run_executor):
    payload = reported_reply(endpoint, make_job, run_executor, "/big")  # 10,000 bytes of "y"
    assert payload["response_body_encoding"] == "text"
    assert payload["response_body"] == "y" * 4096


def test_a_utf8_reply_cut_at_4_kib_inside_a_character_is_carried_as_text():
    reply = ("€" * 2000).encode()  # 3 bytes a character: 4096 falls inside one
    fields = response_fields(reply)
    assert fields["response_body_encoding"] == "text"
    assert fields["response_body"] == "€" * (4096 // 3)
