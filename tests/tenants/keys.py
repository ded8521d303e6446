"""API keys in tests: made through the API, and clients that send one."""

from __future__ import annotations

from rest_framework.test import APIClient


def create_key(api: APIClient, **fields) -> dict:
    body = {"name": "deploy script", "scope": "write"} | fields
    response = api.post("/v1/api-keys", body, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def client_with_key(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    return client
