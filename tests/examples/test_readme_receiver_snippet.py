"""The README's receiver snippet, run as written: it verifies every kind of body signed the
way the executor signs (execution/signing.py), during a rotation too, and refuses a change."""

import re
from datetime import UTC, datetime

import pytest

from execution.signing import signature_headers
from tasks.models import new_signing_secret
from tests.examples.test_receivers import BODIES
from tests.processes import ROOT


def readme_verify():
    readme = (ROOT / "README.md").read_text()
    (code,) = re.findall(r"```python\n(import base64, hashlib.*?)```", readme, re.S)
    namespace: dict = {}
    exec(code, namespace)  # noqa: S102 - the README's own text, the point of the test
    return namespace["verify"]


@pytest.mark.parametrize("kind", BODIES)
def test_the_readme_snippet_verifies_every_body_on_its_raw_bytes(kind):
    verify, current, previous = readme_verify(), new_signing_secret(), new_signing_secret()
    body = BODIES[kind]
    headers = signature_headers(
        secrets=[current, previous], message_id="msg_1", sent_at=datetime.now(UTC), body=body
    )
    assert verify(current, headers, body.encode())
    assert verify(previous, headers, body.encode())
    assert not verify(current, headers, body.encode() + b"!")
    assert not verify(new_signing_secret(), headers, body.encode())
