"""Reading /v1/schema as a code generator does: each operation, its JSON bodies, and a
JSON Schema validator for any part of it (OpenAPI 3.0's `nullable` read as JSON Schema's)."""

from __future__ import annotations

from collections.abc import Iterator

import jsonschema

HTTP_METHODS = ("get", "post", "put", "patch", "delete")


def operations(schema: dict) -> Iterator[tuple[str, str, dict]]:
    for path, items in schema["paths"].items():
        for method, operation in items.items():
            if method in HTTP_METHODS:
                yield path, method, operation


def request_bodies(schema: dict) -> Iterator[tuple[str, dict]]:
    for path, method, operation in operations(schema):
        media = operation.get("requestBody", {}).get("content", {}).get("application/json")
        if media:
            yield f"{method.upper()} {path}", media


def success_bodies(schema: dict) -> Iterator[tuple[str, dict]]:
    for path, method, operation in operations(schema):
        for status, response in operation["responses"].items():
            media = response.get("content", {}).get("application/json")
            if status.startswith("2") and media:
                yield f"{method.upper()} {path} {status}", media


def component(schema: dict, media: dict) -> dict:
    return schema["components"]["schemas"][media["schema"]["$ref"].rsplit("/", 1)[-1]]


def as_json_schema(node: object) -> object:
    if isinstance(node, list):
        return [as_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    converted = {key: as_json_schema(value) for key, value in node.items() if key != "nullable"}
    if node.get("nullable"):
        return {"anyOf": [converted, {"type": "null"}]}
    return converted


def validator(schema: dict, part: dict) -> jsonschema.Draft202012Validator:
    """Checks values against `part`, its `$ref`s read in the whole document."""
    document = {"components": as_json_schema(schema["components"]), **as_json_schema(part)}
    return jsonschema.Draft202012Validator(document)
