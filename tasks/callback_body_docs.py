"""How the API describes the request a callback makes (an OpenAPI callback on the task
routes): its JSON body, field by field, its headers, and an example. The body itself is
made by jobs/callbacks/payload.py; tests/api/test_openapi_callbacks.py keeps both in step."""

from drf_spectacular.utils import (
    OpenApiCallback,
    OpenApiExample,
    OpenApiRequest,
    extend_schema,
)
from rest_framework import serializers

EXAMPLE_BODY = {
    "type": "job.dead",
    "event": "failure",
    "job_id": "0193a5c2-7d1e-7b40-9a8e-3f1c2b4d5e6f",
    "task_id": "0193a5c0-11aa-7c22-8b33-445566778899",
    "task_name": "nightly export",
    "scheduled_at": "2030-01-01T03:00:00Z",
    "finished_at": "2030-01-01T03:02:31.120000Z",
    "status": "dead",
    "attempts": 5,
    "http_status": 503,
    "error": "HTTP 503",
    "duration_ms": 212,
    "response_body": "upstream unavailable",
    "response_body_encoding": "text",
}

HEADERS = (
    "Signed like every call: `webhook-id` (the callback's own id, the same on every try of"
    " one callback: drop repeats by it), `webhook-timestamp` and `webhook-signature`"
    " (Standard Webhooks, with the tenant's signing secret), `Content-Type:"
    " application/json`, `Idempotency-Key` (= webhook-id) and `X-Attempt`. Any 2xx answer"
    " ends it; anything else is retried with backoff, up to 5 tries."
)


SUCCESS_BODY = EXAMPLE_BODY | {
    "type": "job.succeeded",
    "event": "success",
    "status": "succeeded",
    "attempts": 1,
    "http_status": 200,
    "error": None,
    "response_body": '{"exported": 1250}',
}
# Neither request_only nor response_only: a callback's body is read in the other direction.
EXAMPLES = {
    "on_success_url": OpenApiExample("A success callback's body", value=SUCCESS_BODY),
    "on_failure_url": OpenApiExample("A failure callback's body", value=EXAMPLE_BODY),
}


class CallbackBody(serializers.Serializer):
    type = serializers.CharField(help_text="`job.succeeded` or `job.dead`, e.g. `job.dead`")
    event = serializers.ChoiceField(
        choices=["success", "failure", "alert"],
        help_text="which URL this is: the task's on_success_url (`success`), its"
        " on_failure_url (`failure`) or the tenant's on_failure_url (`alert`), e.g. `failure`",
    )
    job_id = serializers.UUIDField(
        help_text="the job reported on, e.g. `" + EXAMPLE_BODY["job_id"] + "`"
    )
    task_id = serializers.UUIDField(help_text="its task")
    task_name = serializers.CharField(help_text="its task's name, e.g. `nightly export`")
    scheduled_at = serializers.DateTimeField(
        help_text="the job's run time, e.g. `2030-01-01T03:00:00Z`"
    )
    finished_at = serializers.DateTimeField(help_text="when it succeeded or died")
    status = serializers.CharField(help_text="`succeeded` or `dead`, e.g. `dead`")
    attempts = serializers.IntegerField(help_text="the attempts it made, e.g. `5`")
    http_status = serializers.IntegerField(
        allow_null=True, help_text="the last attempt's HTTP status (null: no answer), e.g. `503`"
    )
    error = serializers.CharField(
        allow_null=True,
        help_text="the last attempt's error (null on success), e.g. `HTTP 503`, `timed out"
        " after 30s`, `lease expired`, `destination not allowed`",
    )
    duration_ms = serializers.IntegerField(
        allow_null=True, help_text="the last attempt's, e.g. `212`"
    )
    response_body = serializers.CharField(
        allow_null=True,
        help_text="the first 4 KiB of the last reply: as text when UTF-8, else base64",
    )
    response_body_encoding = serializers.ChoiceField(
        choices=["text", "base64"], allow_null=True, help_text="how response_body is written"
    )


CALLBACK_DESCRIPTION = (
    "One POST when a job of the task succeeds (to on_success_url) or dies (to"
    " on_failure_url): its last attempt failed, or its last lease ran out. " + HEADERS
)


def _callback(name: str, field: str) -> OpenApiCallback:
    return OpenApiCallback(
        name=name,
        path=f"{{$request.body#/{field}}}",
        decorator=extend_schema(
            summary=f"The call to the task's {field}",
            description=CALLBACK_DESCRIPTION,
            request=OpenApiRequest(CallbackBody, examples=[EXAMPLES[field]]),
            responses={200: None},
        ),
    )


TASK_CALLBACKS = [
    _callback("jobSucceeded", "on_success_url"),
    _callback("jobDied", "on_failure_url"),
]
