"""schemathesis against the running API (real gunicorn, the test database, real Redis).

Every operation of /v1/schema gets requests generated from its own description (valid ones
and ones that break it) with a valid token; half of them aim at objects that exist (tasks,
jobs, a secret, a task's ETag) so that the success paths are checked too, not only the
404s. Every response must be no 5xx and match the description: status code, content type,
headers and body.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import Failure, FailureGroup
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from jobs.models import Job
from tasks.auth import issue_token
from tasks.secrets import secret_put
from tests.conftest import NOW, PUBLIC_URL
from tests.processes import ApiServer

pytestmark = pytest.mark.django_db(transaction=True)

EXAMPLES_PER_OPERATION = 75
MIN_REQUESTS = 1000
REQUEST_LINE_LIMIT = 4000
FRAMING_HEADERS = {"transfer-encoding", "content-length", "connection", "upgrade", "expect", "te"}
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]


@pytest.fixture
def server(tmp_path):
    api = ApiServer(tmp_path / "api.log", workers=2)
    yield api
    api.stop()


@pytest.fixture
def known(tenant, add_task) -> dict[str, list[str]]:
    """Objects of the tenant that generated requests may name, by path parameter."""
    tenant.create_rate = 0  # unlimited: the creations are what is being tested here
    tenant.save()
    tasks = [add_task(status=status) for status in ("active", "paused", "active", "active")]
    jobs = [
        Job.objects.create(
            tenant=tenant,
            task=tasks[0],
            scheduled_at=NOW + timedelta(minutes=n),
            next_attempt_at=NOW,
            status=status,
            attempt=1,
        )
        for n, status in enumerate(("pending", "dead", "dead", "succeeded"))
    ]
    secret_put(
        actor="tests", tenant=tenant, name="crm", value="Bearer x", allowed_hosts=["93.184.216.34"]
    )
    return {
        "task_id": [str(task.id) for task in tasks],
        "job_id": [str(job.id) for job in jobs],
        "name": ["crm"],
    }


def aimed(case, data, known: dict[str, list[str]]) -> None:
    """Half the time, point a generated case at existing objects, with a matching If-Match
    and a task that passes the rules (a public URL, a valid cron), so that the success
    paths are checked as well."""
    if not data.draw(st.booleans()):
        return
    for name in list(case.path_parameters or {}):
        if name in known:
            case.path_parameters[name] = data.draw(st.sampled_from(known[name]))
    if case.headers and "If-Match" in case.headers:
        case.headers["If-Match"] = data.draw(st.sampled_from(["*", '"1"', '"2"']))
    if isinstance(case.body, dict):
        items = case.body.get("tasks") if "tasks" in case.body else [case.body]
        for item in items if isinstance(items, list) else []:
            if isinstance(item, dict):
                _passing_task(item)


def _passing_task(item: dict) -> None:
    item.pop("run_at", None)
    item.update(url=PUBLIC_URL, cron="*/5 * * * *", timezone="UTC", headers={})
    if item.get("secret_ref") is not None:
        item["secret_ref"] = "crm"
    if item.get("priority") == 0:
        item["priority"] = 5  # priority 0 needs an operator's grant


def run_order(operation) -> tuple[bool, str]:
    """Deletes last, so the other operations still find the objects they aim at."""
    return (operation.method.upper() == "DELETE", operation.label)


def cases_of(operation) -> st.SearchStrategy:
    """Valid requests (positive) and requests that break the description (negative)."""
    return st.one_of(
        operation.as_strategy(GenerationMode.POSITIVE),
        operation.as_strategy(GenerationMode.NEGATIVE),
    )


@dataclass
class Run:
    """What every generated request shares, and what the run found."""

    base_url: str
    token: str
    known: dict[str, list[str]]
    session: requests.Session
    tally: dict[str, int] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)


def exercise(operation, run: Run) -> None:
    @settings(
        max_examples=EXAMPLES_PER_OPERATION,
        deadline=None,
        database=None,
        phases=[Phase.generate],  # a failure is recorded, not shrunk: the report names it
        suppress_health_check=list(HealthCheck),
    )
    @given(case=cases_of(operation), data=st.data())
    def one_request(case, data) -> None:
        aimed(case, data, run.known)
        # Framing headers are HTTP's, not the API's: gunicorn answers a transfer coding it
        # does not know with 501 before the API sees the request, as HTTP asks it to.
        assume(not FRAMING_HEADERS & {name.lower() for name in case.headers or {}})
        response = case.call(
            base_url=run.base_url,
            session=run.session,
            headers={"Authorization": f"Bearer {run.token}"},
        )
        # gunicorn itself refuses a request line over its limit (in HTML, before the API
        # sees it); nginx in front of it refuses those first in production.
        assume(len(response.request.path_url) < REQUEST_LINE_LIMIT)
        run.tally[operation.label] = run.tally.get(operation.label, 0) + 1
        try:
            case.validate_response(response, checks=CHECKS)
        except (Failure, FailureGroup) as exc:
            run.failures.append(f"{operation.label}: {exc}\n{case.as_curl_command()}"[:3000])

    one_request()


def test_generated_requests_get_no_server_error_and_match_the_schema(server, tenant, known):
    schema = schemathesis.openapi.from_url(server.url("/v1/schema"))
    operations = sorted((r.ok() for r in schema.get_all_operations()), key=run_order)
    # Closed before the server stops: gunicorn waits out open keep-alive connections.
    with requests.Session() as session:
        run = Run(server.url(""), issue_token(tenant), known, session)
        for operation in operations:
            exercise(operation, run)
    assert run.failures == [], "\n\n".join(run.failures[:10])
    assert len(run.tally) == len(operations) >= 18, sorted(run.tally)
    assert sum(run.tally.values()) >= MIN_REQUESTS, run.tally
