"""An example for each body of /v1/schema that its view does not already show, by the name
of the body's component, so every route that answers a task or a job (new ones too) shows
one. A test checks each example against its own schema."""

from __future__ import annotations

TASK_ID = "0190f3a2-6c1e-7b3d-9a41-5e2f8c7d1b20"
JOB_ID = "0190f3a2-9d04-7c55-8e12-3a6b4f0e9c71"
NEXT = "https://scheduler.example.com/v1/tasks?cursor=eyJhZnRlciI6Ij..."

TASK = {
    "id": TASK_ID,
    "name": "nightly invoices",
    "cron": "0 3 * * *",
    "timezone": "Europe/Madrid",
    "run_at": None,
    "url": "https://example.com/hooks/invoices",
    "method": "POST",
    "headers": {"Content-Type": "application/json"},
    "body": '{"report": "invoices"}',
    "secret_ref": None,
    "priority": 5,
    "timeout_seconds": 30,
    "max_attempts": 5,
    "backoff_base_seconds": 10,
    "misfire_policy": "run_all",
    "interval_seconds": None,
    "starts_at": None,
    "ends_at": None,
    "max_runs": None,
    "runs_made": 12,
    "overlap": "allow",
    "skipped_runs": 0,
    "on_success_url": None,
    "on_failure_url": None,
    "labels": {"env": "prod", "team": "billing"},
    "flow_key": None,
    "status": "active",
    "next_run_at": "2030-01-02T02:00:00Z",
    "version": 3,
    "created_at": "2029-12-20T10:15:00Z",
    "updated_at": "2030-01-01T02:00:01Z",
}

JOB = {
    "id": JOB_ID,
    "task_id": TASK_ID,
    "scheduled_at": "2030-01-01T02:00:00Z",
    "status": "succeeded",
    "attempt": 1,
    "max_attempts": 5,
    "priority": 5,
    "next_attempt_at": None,
    "claimed_at": "2030-01-01T02:00:00.012Z",
    "started_at": "2030-01-01T02:00:00.015Z",
    "finished_at": "2030-01-01T02:00:00.231Z",
    "http_status": 200,
    "error": None,
    "response_body": '{"ok": true}',
    "duration_ms": 216,
    "labels": {"env": "prod", "team": "billing"},
}

DEAD_JOB = JOB | {
    "status": "dead",
    "attempt": 5,
    "http_status": 503,
    "error": "HTTP 503",
    "response_body": "Service Unavailable",
}

PENDING_JOB = JOB | {
    "status": "pending",
    "attempt": 0,
    "claimed_at": None,
    "started_at": None,
    "finished_at": None,
    "http_status": None,
    "response_body": None,
    "duration_ms": None,
}

ATTEMPT = {
    "attempt": 1,
    "started_at": "2030-01-01T02:00:00.015Z",
    "outcome": "retry",
    "duration_ms": 30004,
    "http_status": None,
    "error": "timed out after 30 s",
    "response_head": None,
}

FLOW = {
    "key": "api.example.com",
    "parallelism": 4,
    "rate": 10,
    "period_seconds": 60,
    "breaker_failures": 5,
    "breaker_cooldown_seconds": 60,
    "paused": False,
    "circuit": {"state": "closed", "failures": 0, "opened_at": None, "retry_at": None},
    "waiting": 2,
    "in_flight": 1,
    "created_at": "2029-12-20T10:15:00Z",
    "updated_at": "2029-12-20T10:15:00Z",
}

SECRET = {
    "name": "billing-token",
    "allowed_hosts": ["example.com"],
    "created_at": "2029-12-20T10:15:00Z",
    "updated_at": "2029-12-20T10:15:00Z",
}

ERROR = {
    "error": {
        "code": "invalid",
        "message": "the request is not valid",
        "fields": {"cron": ["exactly one of cron, run_at, interval_seconds"]},
    }
}

API_KEY = {
    "id": "0190f3a2-7e21-7a10-b3c4-1d2e3f4a5b6c",
    "name": "deploy bot",
    "scope": "write",
    "prefix": "acs_k3j9x2qa",
    "created_at": "2030-01-01T09:00:00Z",
    "last_used_at": "2030-01-02T10:15:00Z",
    "expires_at": None,
}

# One example (its title, its value) per component; a page shows one item and its link.
BY_COMPONENT: dict[str, tuple[str, object]] = {
    "TaskOutput": ("A cron task", TASK),
    "TaskPage": ("A page of tasks", {"results": [TASK], "next": NEXT}),
    "JobOutput": ("A job", JOB),
    "JobPage": ("A page of jobs", {"results": [DEAD_JOB], "next": None}),
    "AttemptPage": ("A job's attempts", {"results": [ATTEMPT], "next": None}),
    "FlowOutput": ("A flow", FLOW),
    "FlowPage": ("A page of flows", {"results": [FLOW], "next": None}),
    "ApiKeyPage": ("The tenant's keys (never a key)", {"results": [API_KEY], "next": None}),
    "SecretOutput": ("A secret (never its value)", SECRET),
    "SecretPage": ("The tenant's secrets", {"results": [SECRET], "next": None}),
    "SigningSecretOutput": (
        "A signing secret",
        {
            "signing_secret": "whsec_MfKQ9r8GKYqrTFhXyJ5pqbLx7y2kZp0Qm3jG4aUv1cE=",
            "previous_secret_signs_until": None,
        },
    ),
    "BatchOutput": (
        "One created, one refused",
        {
            "results": [
                {"index": 0, "status": 201, "task": TASK},
                {"index": 1, "status": 400, "error": ERROR["error"]},
            ]
        },
    ),
    "SecretInputRequest": (
        "A bearer token for one host",
        {"value": "s3cr3t-t0ken", "allowed_hosts": ["example.com"]},
    ),
    "BatchSchemaInputRequest": (
        "Two tasks",
        {
            "tasks": [
                {"name": "nightly invoices", "cron": "0 3 * * *", "url": TASK["url"]},
                {
                    "name": "reminder",
                    "run_at": "2030-01-01T09:00:00Z",
                    "url": "https://example.com/hooks/remind",
                    "idempotency_key": "reminder-2030-01-01",
                },
            ]
        },
    ),
}
# By status: the same body reads differently (a run now is a pending job, a retry too).
BY_OPERATION: dict[tuple[str, str], tuple[str, object]] = {
    ("runTaskNow", "202"): ("The job made", PENDING_JOB),
    ("retryDeadJob", "202"): ("The dead job, pending again", PENDING_JOB),
    ("cancelJob", "202"): ("The job, cancelled", PENDING_JOB | {"status": "cancelled"}),
    ("discardJob", "200"): ("The dead job, discarded", DEAD_JOB | {"status": "cancelled"}),
    ("discardJob", "202"): ("The dead job, discarded", DEAD_JOB | {"status": "cancelled"}),
}


def _component(media: dict) -> str | None:
    ref = media.get("schema", {}).get("$ref", "")
    return ref.rsplit("/", 1)[-1] or None


def _add(media: dict, example: tuple[str, object] | None) -> None:
    if example and "examples" not in media and "example" not in media:
        title, value = example
        media["examples"] = {title.replace(" ", ""): {"summary": title, "value": value}}


def add_examples(result: dict, generator, request, public) -> dict:
    """A drf-spectacular postprocessing hook (after the operation ids are named)."""
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            body = operation.get("requestBody", {}).get("content", {}).get("application/json")
            if body:
                _add(body, BY_COMPONENT.get(_component(body)))
            for status, response in operation["responses"].items():
                media = response.get("content", {}).get("application/json")
                if media and status.startswith("2"):
                    own = BY_OPERATION.get((operation.get("operationId"), status))
                    _add(media, own or BY_COMPONENT.get(_component(media)))
    error = result.get("components", {}).get("schemas", {}).get("ErrorBody")
    if error is not None:
        error["example"] = ERROR
    return result
