"""The OpenAPI description of the alert a flow's circuit opening sends: every field the
body has (flows/circuit_alert.py makes it), with an example."""

import json
import uuid
from datetime import UTC, datetime

from flows.circuit_alert import opened_body
from flows.models import Flow
from tenants.alert_docs import CIRCUIT_BODY
from tests.api.test_openapi_schema import schema  # noqa: F401 - a fixture


def test_the_tenant_patch_describes_the_circuit_alert(schema):  # noqa: F811
    callbacks = schema["paths"]["/v1/tenant"]["patch"]["callbacks"]
    (request,) = callbacks["circuitOpenedAlert"]["{$request.body#/on_failure_url}"].values()
    assert "webhook-id" in request["description"]
    (example,) = request["requestBody"]["content"]["application/json"]["examples"].values()
    assert example["value"] == CIRCUIT_BODY
    properties = schema["components"]["schemas"]["CircuitAlertBody"]["properties"]
    assert set(properties) == set(CIRCUIT_BODY)


def test_the_documented_circuit_alert_has_every_field_one_sends():
    now = datetime.now(UTC)
    flow = Flow(key="api", failures=10, opened_at=now, retry_at=now)
    assert set(json.loads(opened_body(flow, uuid.uuid4(), uuid.uuid4()))) == set(CIRCUIT_BODY)
