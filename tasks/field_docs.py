"""How the API describes a task's target and delivery fields (OpenAPI descriptions); the
schedule fields are in tasks/schedule_docs.py, the callbacks in tasks/callback_docs.py."""

FIELD_HELP = {
    "name": "for people and for `PUT /v1/tasks/by-name/{name}`; not unique, up to 200"
    " characters, e.g. `nightly invoices`",
    "timezone": "the IANA zone `cron` is read in (default `UTC`), e.g. `Europe/Madrid`",
    "url": "the http or https URL called, up to 2048 characters; a host that resolves to a"
    " private address is refused, e.g. `https://example.com/hooks/invoices`",
    "method": "the HTTP method of the call (default `POST`)",
    "headers": "extra request headers, up to 50; credentials go in `secret_ref`, and the"
    " headers the executor sets (`Authorization`, `Host`, `webhook-*`, ...) are refused,"
    ' e.g. `{"Content-Type": "application/json"}`',
    "body": "the request body, sent as given and signed with the tenant's signing secret"
    " (default empty)",
    "secret_ref": "the name of a tenant secret sent as `Authorization` to the secret's allowed"
    " hosts only; null: none, e.g. `billing-token`",
    "priority": "0 most urgent to 9 (default 5): a due job of a lower number is called first",
    "timeout_seconds": "how long a call may take, 1 to 900 (default 30)",
    "max_attempts": "calls before the job is dead and in the DLQ, 1 to 50 (default 5)",
    "backoff_base_seconds": "the wait after the first failed call, doubled after each next"
    " one (with jitter, capped), 1 to 86400 (default 10)",
    "misfire_policy": "what a cron or interval task late by more than one run makes:"
    " `run_all` (default) every missed run, `run_once` one run for all of them, `skip` none"
    " (the skipped runs are in the skipped-run ledger)",
}
