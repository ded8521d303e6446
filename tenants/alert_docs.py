"""How the API describes the tenant-wide failure alert (OpenAPI callbacks on PATCH
/v1/tenant): a task callback's body with the alert's own two fields (made by
jobs/callbacks/alerts.py), and the alert of a flow's circuit opening (flows/circuit_alert.py)."""

from drf_spectacular.utils import OpenApiCallback, OpenApiExample, OpenApiRequest, extend_schema
from rest_framework import serializers

from tasks.callback_body_docs import EXAMPLE_BODY, HEADERS, CallbackBody

ALERT_BODY = EXAMPLE_BODY | {"event": "alert", "deaths": 3, "window_seconds": 60}
CIRCUIT_BODY = {
    "type": "circuit.opened",
    "event": "alert",
    "flow_key": "billing-api",
    "failures": 10,
    "breaker_failures": 10,
    "opened_at": "2030-01-01T03:02:31.120000Z",
    "retry_at": "2030-01-01T03:03:01.120000Z",
    "job_id": EXAMPLE_BODY["job_id"],
    "task_id": EXAMPLE_BODY["task_id"],
}


class AlertBody(CallbackBody):
    deaths = serializers.IntegerField(
        help_text="the deaths of the task this alert reports, the latest one's fields above"
        " (at most one alert per task per window: deaths in between are counted here), e.g. `3`"
    )
    window_seconds = serializers.IntegerField(
        help_text="the window of at most one alert per task (ALERT_WINDOW_SECONDS), e.g. `60`"
    )


class CircuitAlertBody(serializers.Serializer):
    type = serializers.CharField(help_text="`circuit.opened`")
    event = serializers.CharField(help_text="`alert`: the tenant's on_failure_url")
    flow_key = serializers.CharField(help_text="the flow whose circuit opened, e.g. `billing-api`")
    failures = serializers.IntegerField(
        help_text="its consecutive failed calls when the batch that opened it was written, e.g."
        " `10` (a few more when calls let out earlier failed in the same batch)"
    )
    breaker_failures = serializers.IntegerField(help_text="the flow's threshold, e.g. `10`")
    opened_at = serializers.DateTimeField(help_text="when it opened")
    retry_at = serializers.DateTimeField(
        help_text="when one probe call may go (half-open): its success closes the circuit"
    )
    job_id = serializers.UUIDField(help_text="the latest failed call's job")
    task_id = serializers.UUIDField(help_text="its task")


TENANT_ALERT = [
    OpenApiCallback(
        name="jobDiedAlert",
        path="{$request.body#/on_failure_url}",
        decorator=extend_schema(
            summary="The tenant's failure alert",
            description=(
                "One POST when a job of a task without an on_failure_url of its own dies, at"
                " most one per task per window. " + HEADERS
            ),
            request=OpenApiRequest(
                AlertBody, examples=[OpenApiExample("An alert's body", value=ALERT_BODY)]
            ),
            responses={200: None},
        ),
    ),
    OpenApiCallback(
        name="circuitOpenedAlert",
        path="{$request.body#/on_failure_url}",
        decorator=extend_schema(
            summary="The tenant's alert of a circuit opening",
            description=(
                "One POST each time a flow's circuit opens from closed (after"
                " `breaker_failures` consecutive failed calls), none when it re-opens after a"
                " failed probe; none when on_failure_url is not set. " + HEADERS
            ),
            request=OpenApiRequest(
                CircuitAlertBody,
                examples=[OpenApiExample("A circuit alert's body", value=CIRCUIT_BODY)],
            ),
            responses={200: None},
        ),
    ),
]
