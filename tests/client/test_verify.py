"""`atcron.verify` against signatures made by the service's own signing code."""

import time
from datetime import UTC, datetime, timedelta

import pytest
from atcron import ConfigError, SignatureError, verify

from execution.signing import signature_headers
from tasks.models import new_signing_secret

SECRET = new_signing_secret()
BODIES = {
    "empty": "",
    "text": "hello, world\n",
    "json": '{"hello": "wörld", "n": [1, 2]}',
    # Every code point the task body may carry, NUL and control characters included.
    "binary": "".join(chr(n) for n in range(256)) + "\u2603\U0001f600",
}


def signed(body: str, *, secrets=(SECRET,), sent_at=None) -> dict:
    return signature_headers(
        secrets=list(secrets),
        message_id="0190f0c4-8c1e-7b7a-9b1e-3f1f2c4d5e6f",
        sent_at=sent_at or datetime.now(UTC),
        body=body,
    )


@pytest.mark.parametrize("kind", BODIES)
def test_every_kind_of_body_verifies_on_its_raw_bytes(kind):
    body = BODIES[kind]
    verify(SECRET, body.encode(), signed(body))


@pytest.mark.parametrize("kind", BODIES)
def test_a_changed_body_does_not_verify(kind):
    body = BODIES[kind]
    with pytest.raises(SignatureError, match="no signature matches"):
        verify(SECRET, body.encode() + b"!", signed(body))


def test_another_secret_does_not_verify():
    with pytest.raises(SignatureError):
        verify(new_signing_secret(), b"{}", signed("{}"))


def test_headers_are_found_whatever_their_case():
    headers = {name.upper(): value for name, value in signed("x").items()}
    verify(SECRET, b"x", headers)


def test_during_a_rotation_either_secret_verifies():
    old, new = new_signing_secret(), new_signing_secret()
    headers = signed("x", secrets=(new, old))
    verify(old, b"x", headers)
    verify(new, b"x", headers)
    verify([new_signing_secret(), new], b"x", headers)


def test_a_call_older_than_the_tolerance_does_not_verify():
    headers = signed("x", sent_at=datetime.now(UTC) - timedelta(minutes=6))
    with pytest.raises(SignatureError, match="timestamp"):
        verify(SECRET, b"x", headers)
    verify(SECRET, b"x", headers, tolerance=400)


def test_a_call_from_the_future_does_not_verify():
    headers = signed("x", sent_at=datetime.now(UTC) + timedelta(minutes=6))
    with pytest.raises(SignatureError, match="timestamp"):
        verify(SECRET, b"x", headers, now=time.time())


def test_missing_headers_do_not_verify():
    headers = signed("x")
    del headers["webhook-signature"]
    with pytest.raises(SignatureError, match="missing"):
        verify(SECRET, b"x", headers)


def test_a_malformed_signature_matches_nothing():
    headers = signed("x") | {"webhook-signature": "v1,not*base64 v2,abc"}
    with pytest.raises(SignatureError):
        verify(SECRET, b"x", headers)


def test_decoded_text_is_refused_for_the_raw_bytes():
    with pytest.raises(TypeError, match="raw request body"):
        verify(SECRET, "x", signed("x"))  # type: ignore[arg-type]


def test_a_secret_that_is_not_base64_is_a_configuration_error():
    with pytest.raises(ConfigError):
        verify("whsec_***", b"x", signed("x"))
