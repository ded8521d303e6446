"""The CLI's other groups as a real process: apply, DLQ, secrets, keys, verify."""

import json
from datetime import UTC, datetime

import pytest

from execution.signing import signature_headers
from jobs.models import Job as JobRow
from tests.client.conftest import write
from tests.conftest import PUBLIC_URL

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def env(base_url, token) -> dict:
    return {"ATCRON_URL": base_url, "ATCRON_KEY": token}


def out(result) -> str:
    assert result.returncode == 0, result.stderr.decode()
    return result.stdout.decode()


@pytest.fixture
def dead_job(sdk, tenant) -> str:
    task = sdk.tasks.create({"name": "crm", "cron": "0 3 * * *", "url": PUBLIC_URL})
    row = JobRow.objects.create(
        tenant=tenant,
        task_id=task.id,
        scheduled_at=datetime(2026, 6, 1, 12, tzinfo=UTC),
        next_attempt_at=datetime(2026, 6, 1, 12, tzinfo=UTC),
        status="dead",
        attempt=3,
        max_attempts=3,
        http_status=500,
        error="HTTP 500",
    )
    return str(row.id)


def test_apply_twice_creates_then_leaves_unchanged(cli, env, tmp_path):
    path = write(
        tmp_path / "tasks.yaml", f"- {{name: poll, interval_seconds: 60, url: {PUBLIC_URL}}}\n"
    )
    first = out(cli("apply", str(path), env=env)).splitlines()
    second = json.loads(out(cli("tasks", "apply", str(path), "--json", env=env)))
    assert first[0].split() == ["NAME", "ACTION", "ID", "VERSION"]
    assert first[1].split()[:2] == ["poll", "created"]
    assert [(r["name"], r["action"], r["task"]["id"]) for r in second] == [
        ("poll", "unchanged", first[1].split()[2])
    ]


def test_a_bad_file_exits_2_with_its_reason(cli, env, tmp_path):
    path = write(tmp_path / "tasks.yaml", f"- {{url: {PUBLIC_URL}}}\n")
    result = cli("apply", str(path), env=env)
    assert result.returncode == 2 and "has no `name`" in result.stderr.decode()


def test_the_dlq_is_listed_and_a_job_retried(cli, env, dead_job):
    lines = out(cli("dlq", "list", env=env)).splitlines()
    assert lines[1].split()[:5] == [
        dead_job,
        lines[1].split()[1],
        "dead",
        "2026-06-01",
        "12:00:00Z",
    ]
    retried = json.loads(out(cli("dlq", "retry", dead_job, "--json", env=env)))
    assert [(job["id"], job["status"]) for job in retried] == [(dead_job, "pending")]


def test_a_dead_job_is_discarded(cli, env, dead_job):
    discarded = json.loads(out(cli("dlq", "discard", dead_job, "--json", env=env)))
    assert [job["status"] for job in discarded] == ["cancelled"]


def test_a_jobs_attempts_are_a_table(cli, env, dead_job):
    assert out(cli("jobs", "attempts", dead_job, env=env)).split() == [
        "ATTEMPT",
        "STARTED",
        "OUTCOME",
        "HTTP",
        "MS",
        "ERROR",
    ]


def test_a_secret_piped_in_is_stored_and_listed_without_its_value(cli, env):
    put = cli(
        "secrets", "put", "crm", "--allowed-host", "api.example.com", stdin=b"Bearer s3\n", env=env
    )
    assert json.loads(out(cli("secrets", "list", "--json", env=env)))[0]["name"] == "crm"
    assert "s3" not in out(put)
    assert out(cli("secrets", "delete", "crm", env=env)) == "deleted secret crm\n"


def test_the_signing_secret_is_shown(cli, env, tenant):
    shown = json.loads(out(cli("signing-secret", "--json", env=env)))
    assert shown["signing_secret"] == tenant.signing_secret


def test_keys_are_made_listed_and_revoked(cli, env, base_url):
    made = json.loads(
        out(cli("keys", "create", "--name", "ci", "--scope", "read", "--json", env=env))
    )
    by_key = {"ATCRON_URL": base_url, "ATCRON_KEY": made["key"]}
    assert out(cli("tasks", "list", env=by_key)).split() == [
        "ID",
        "NAME",
        "STATUS",
        "SCHEDULE",
        "NEXT",
        "RUN",
        "URL",
    ]
    listed = out(cli("keys", "list", env=env)).splitlines()
    assert listed[1].split()[:3] == [made["id"], "ci", "read"]
    assert out(cli("keys", "revoke", made["id"], env=env)) == f"revoked key {made['id']}\n"


def signed_call(secret: str, body: str) -> list[str]:
    headers = signature_headers(
        secrets=[secret], message_id="msg-1", sent_at=datetime.now(UTC), body=body
    )
    return [
        "--id",
        headers["webhook-id"],
        "--timestamp",
        headers["webhook-timestamp"],
        "--signature",
        headers["webhook-signature"],
    ]


def test_verify_accepts_a_call_signed_with_the_tenants_secret_read_from_the_api(cli, env, tenant):
    result = cli("verify", *signed_call(tenant.signing_secret, ""), env=env)
    assert out(result) == "signature valid\n"


def test_verify_refuses_a_changed_body_with_exit_1(cli, tenant, tmp_path):
    body = write(tmp_path / "body", '{"a": 2}')
    args = ["verify", *signed_call(tenant.signing_secret, '{"a": 1}'), "--body", str(body)]
    result = cli(*args, env={"ATCRON_SIGNING_SECRET": tenant.signing_secret})
    assert result.returncode == 1 and "no signature matches" in result.stderr.decode()
