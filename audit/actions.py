"""Every action the audit log records, `<thing>.<verb>`, and what made it (the README
lists them too). A new kind of change adds its action here: the console's filter offers
these."""

ACTIONS = {
    # Through the API (the actor is the token's jti, or api_key:<id>) or the console
    # (operator:<username>).
    "task.create": "POST /v1/tasks, PUT /v1/tasks/by-name/{name}: the fields (as stored)",
    "task.update": "PATCH /v1/tasks/{id}, PUT /v1/tasks/by-name/{name}: each changed field",
    "task.pause": "POST /v1/tasks/{id}/pause, or the console",
    "task.resume": "POST /v1/tasks/{id}/resume, or the console",
    "task.delete": "DELETE /v1/tasks/{id}, or the console",
    "task.run": "POST /v1/tasks/{id}/run, or the console: the job made",
    "task.backfill": "POST /v1/tasks/{id}/backfill: the range, runs made and existing",
    "task.batch": "POST /v1/tasks/batch: the count and the first 100 ids",
    "job.retry": "POST /v1/jobs/{id}/retry, or the console",
    "job.cancel": "POST /v1/jobs/{id}/cancel, or the console",
    "secret.put": "PUT /v1/secrets/{name}: created or replaced, its hosts (never the value)",
    "secret.delete": "DELETE /v1/secrets/{name}, or the console: its hosts",
    "tenant.update": "PATCH /v1/tenant, or a save of the tenant's page in the console",
    "dlq.retry": "POST /v1/dlq/retry, one entry per batch: filter, count, operation, batch",
    "jobs.cancel": "POST /v1/jobs/cancel, one entry per batch: filter, count, operation, batch",
    "flow.put": "PUT /v1/flows/{key}: created, or each changed setting {old, new}",
    "flow.pause": "POST /v1/flows/{key}/pause (created when the key named no flow yet)",
    "flow.resume": "POST /v1/flows/{key}/resume",
    "flow.close_circuit": "the console: the circuit closed by hand {circuit_state, failures}",
    "flow.delete": "DELETE /v1/flows/{key}: its settings and the jobs it let go",
    "api_key.create": "POST /v1/api-keys: name, scope, prefix, expires_at (never the key)",
    "api_key.revoke": "DELETE /v1/api-keys/{id}, or the console: name, prefix",
    "job.discard": "POST /v1/jobs/{id}/discard, or the console: out of the DLQ for good",
    # Console and operator commands only.
    "dlq.retry_all": "retry all matching: the tenant's count of dead jobs matched",
    "signing_secret.rotate": "a new signing secret (never either secret)",
    "tenant.stop": "the tenant stopped, with the count of tasks suspended",
    "tenant.resume": "the tenant resumed",
    "tenant.revoke_tokens": "every token issued until then refused",
    "tenant.create": "a tenant added in the console",
    "tenant.delete": "a tenant deleted in the console",
}
