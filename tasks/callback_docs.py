"""How the API describes a task's callback fields (OpenAPI descriptions and examples)."""

from drf_spectacular.utils import OpenApiExample

_POLICY = (
    " Same destination policy as `url` (http or https, public hosts on ports 80/443 only),"
    " checked when set and again when called. Null clears it."
)

CALLBACK_HELP = {
    "on_success_url": "called once (POST, signed with Standard Webhooks headers) after a job"
    " of this task succeeds, with the job's result as JSON (see the README's Callbacks),"
    " e.g. `https://example.com/hooks/done`." + _POLICY,
    "on_failure_url": "called once (POST, signed) after a job of this task dies: its last"
    " attempt failed, or its last lease ran out; with the job's last status, error and"
    " attempts. Without it, the tenant's own on_failure_url is alerted, if set;"
    " e.g. `https://example.com/hooks/failed`." + _POLICY,
}

CALLBACK_EXAMPLES = [
    OpenApiExample(
        "A task that reports its runs",
        request_only=True,
        value={
            "name": "nightly export",
            "cron": "0 3 * * *",
            "url": "https://example.com/hooks/export",
            "on_success_url": "https://example.com/hooks/done",
            "on_failure_url": "https://example.com/hooks/failed",
        },
    ),
]
