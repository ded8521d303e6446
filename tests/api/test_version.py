"""The service's version (scheduler_site/version.py) in /healthz's body and in the schema."""

from scheduler_site.version import VERSION


def test_healthz_answers_the_version(client):
    body = client.get("/healthz").json()
    assert body == {"status": "ok", "version": VERSION}


def test_the_schema_carries_the_version(client):
    schema = client.get("/v1/schema", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    assert schema["info"]["version"] == VERSION
