"""How the API describes the tenant-wide failure alert (an OpenAPI callback on PATCH
/v1/tenant): a task callback's body with the alert's own two fields. The body is made by
jobs/callbacks/alerts.py."""

from drf_spectacular.utils import OpenApiCallback, OpenApiExample, OpenApiRequest, extend_schema
from rest_framework import serializers

from tasks.callback_body_docs import EXAMPLE_BODY, HEADERS, CallbackBody

ALERT_BODY = EXAMPLE_BODY | {"event": "alert", "deaths": 3, "window_seconds": 60}


class AlertBody(CallbackBody):
    deaths = serializers.IntegerField(
        help_text="the deaths of the task this alert reports, the latest one's fields above"
        " (at most one alert per task per window: deaths in between are counted here), e.g. `3`"
    )
    window_seconds = serializers.IntegerField(
        help_text="the window of at most one alert per task (ALERT_WINDOW_SECONDS), e.g. `60`"
    )


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
    )
]
