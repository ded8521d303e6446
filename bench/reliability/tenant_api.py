"""Tasks created as a tenant creates them: through the REST API's batch route."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import requests

from tasks.auth import issue_token
from tasks.models import Tenant

BATCH = 500
CLIENT_THREADS = 3


@dataclass(frozen=True)
class CreatedTask:
    id: str
    label: str
    priority: int
    cron: str | None
    timezone: str
    next_run_at: str  # as the API returned it


def campaign_tenant(name: str) -> tuple[Tenant, str]:
    """A tenant without quotas or creation limits (0 means unlimited) and its token."""
    tenant = Tenant.objects.create(
        name=name,
        concurrency_limit=1_000_000,
        max_tasks=0,
        create_rate=0,
        create_burst=0,
        allow_critical=True,
    )
    return tenant, issue_token(tenant, ttl_seconds=86400)


def create_tasks(api_url: str, token: str, bodies: list[dict]) -> list[CreatedTask]:
    """Create every task (each body carries its `label` in `name`); fails on any refusal."""
    batches = [bodies[i : i + BATCH] for i in range(0, len(bodies), BATCH)]
    with ThreadPoolExecutor(CLIENT_THREADS) as pool:
        created = list(pool.map(lambda batch: _post_batch(api_url, token, batch), batches))
    return [task for batch in created for task in batch]


def _post_batch(api_url: str, token: str, bodies: list[dict]) -> list[CreatedTask]:
    response = requests.post(
        f"{api_url}/v1/tasks/batch",
        json={"tasks": bodies},
        headers={"Authorization": f"Bearer {token}"},
        timeout=120,
    )
    response.raise_for_status()
    tasks = []
    for result in response.json()["results"]:
        if result["status"] != 201:
            raise RuntimeError(f"task refused: {result}")
        task = result["task"]
        tasks.append(
            CreatedTask(
                id=task["id"],
                label=task["name"],
                priority=task["priority"],
                cron=task["cron"],
                timezone=task["timezone"],
                next_run_at=task["next_run_at"],
            )
        )
    return tasks
