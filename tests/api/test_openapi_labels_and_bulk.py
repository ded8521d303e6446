"""The OpenAPI schema describes labels, the label filters and the bulk routes with examples."""

import pytest
from rest_framework.test import APIClient


@pytest.fixture
def schema(db) -> dict:
    response = APIClient().get("/v1/schema", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    return response.json()


def test_tasks_describe_their_labels_with_an_example(schema):
    labels = schema["components"]["schemas"]["TaskInputRequest"]["properties"]["labels"]
    assert labels["maxProperties"] == 20 and labels["example"] == {"env": "prod", "team": "billing"}
    assert "labels" in schema["components"]["schemas"]["TaskOutput"]["properties"]
    assert "labels" in schema["components"]["schemas"]["JobOutput"]["properties"]


@pytest.mark.parametrize("path", ["/v1/tasks", "/v1/tasks/{task_id}/jobs", "/v1/dlq"])
def test_each_list_names_the_label_filter(schema, path):
    names = [parameter["name"] for parameter in schema["paths"][path]["get"]["parameters"]]
    assert "label" in names


@pytest.mark.parametrize("path", ["/v1/dlq/retry", "/v1/jobs/cancel"])
def test_each_bulk_route_has_its_filter_and_examples(schema, path):
    body = schema["paths"][path]["post"]["requestBody"]["content"]["application/json"]
    assert body["schema"]["$ref"].endswith("/BulkFilterInputRequest") and len(body["examples"]) >= 3
    answer = schema["paths"][path]["post"]["responses"]["200"]["content"]["application/json"]
    assert answer["schema"]["$ref"].endswith("/BulkOutput")
    assert all(
        set(example["value"]) == {"count", "refused"} for example in answer["examples"].values()
    )


def test_the_bulk_filter_names_every_criterion(schema):
    fields = schema["components"]["schemas"]["BulkFilterInputRequest"]["properties"]
    assert set(fields) == {
        "task_id",
        "scheduled_before",
        "scheduled_after",
        "error_contains",
        "label",
        "ids",
        "dry_run",
    }
    assert fields["ids"]["maxItems"] == 1000
