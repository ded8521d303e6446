"""The operation ids of /v1/schema: one name per route and method, said as what it does, in
camelCase, so a generated client reads `client.list_dead_jobs()`, not `dlq_retrieve()`.

drf-spectacular names an operation from its path (`tasks_pause_create`); this table renames
each one. A new route adds one line here. An id a view already sets in camelCase through
`extend_schema(operation_id=...)` is kept: the table never fights a deliberate name.
"""

from __future__ import annotations

import re

CAMEL_CASE = re.compile(r"[a-z]+(?:[A-Z][a-z0-9]*)+")
PARAMETER = re.compile(r"\{[^}]+\}")

OPERATION_IDS = {
    ("/v1/tasks", "get"): "listTasks",
    ("/v1/tasks", "post"): "createTask",
    ("/v1/tasks/batch", "post"): "createTasks",
    ("/v1/tasks/by-name/{name}", "put"): "upsertTaskByName",
    ("/v1/tasks/{task_id}", "get"): "getTask",
    ("/v1/tasks/{task_id}", "patch"): "updateTask",
    ("/v1/tasks/{task_id}", "delete"): "deleteTask",
    ("/v1/tasks/{task_id}/pause", "post"): "pauseTask",
    ("/v1/tasks/{task_id}/resume", "post"): "resumeTask",
    ("/v1/tasks/{task_id}/run", "post"): "runTaskNow",
    ("/v1/tasks/{task_id}/backfill", "post"): "backfillTask",
    ("/v1/tasks/{task_id}/jobs", "get"): "listTaskJobs",
    ("/v1/tasks/{task_id}/skipped", "get"): "listSkippedRuns",
    ("/v1/schedule-preview", "post"): "previewSchedule",
    ("/v1/jobs/{job_id}", "get"): "getJob",
    ("/v1/jobs/{job_id}/attempts", "get"): "listJobAttempts",
    ("/v1/jobs/{job_id}/retry", "post"): "retryDeadJob",
    ("/v1/jobs/{job_id}/cancel", "post"): "cancelJob",
    ("/v1/jobs/{job_id}/discard", "post"): "discardJob",
    ("/v1/jobs/cancel", "post"): "cancelJobs",
    ("/v1/dlq", "get"): "listDeadJobs",
    ("/v1/dlq/retry", "post"): "retryDeadJobs",
    ("/v1/secrets", "get"): "listSecrets",
    ("/v1/secrets/{name}", "put"): "putSecret",
    ("/v1/secrets/{name}", "delete"): "deleteSecret",
    ("/v1/signing-secret", "get"): "getSigningSecret",
    ("/v1/api-keys", "get"): "listApiKeys",
    ("/v1/api-keys", "post"): "createApiKey",
    ("/v1/api-keys/{id}", "get"): "getApiKey",
    ("/v1/api-keys/{id}", "delete"): "revokeApiKey",
    ("/v1/tenant", "get"): "getTenant",
    ("/v1/tenant", "patch"): "updateTenant",
    ("/v1/flows", "get"): "listFlows",
    ("/v1/flows/{key}", "get"): "getFlow",
    ("/v1/flows/{key}", "put"): "putFlow",
    ("/v1/flows/{key}", "delete"): "deleteFlow",
    ("/v1/flows/{key}/pause", "post"): "pauseFlow",
    ("/v1/flows/{key}/resume", "post"): "resumeFlow",
    ("/v1/audit", "get"): "listAuditEntries",
}


def route_key(path: str, method: str) -> tuple[str, str]:
    """A route whatever its path parameters are called (`{id}` or `{key_id}`)."""
    return PARAMETER.sub("{}", path), method.lower()


BY_ROUTE = {route_key(path, method): name for (path, method), name in OPERATION_IDS.items()}


def name_operations(result: dict, generator, request, public) -> dict:
    """A drf-spectacular postprocessing hook: each operation gets its name from the table."""
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            if not isinstance(operation, dict) or "operationId" not in operation:
                continue
            if CAMEL_CASE.fullmatch(operation["operationId"]):
                continue
            name = BY_ROUTE.get(route_key(path, method))
            if name:
                operation["operationId"] = name
    return result
