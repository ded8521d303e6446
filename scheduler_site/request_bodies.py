"""What /v1/schema says of request bodies beyond their fields: the API refuses a field it
does not know (400), so each body is `additionalProperties: false`; what a field left out
takes (its `default`); and the rule that a task has exactly one kind of schedule."""

from __future__ import annotations

from collections.abc import Iterator

SCHEDULES = ("cron", "run_at", "interval_seconds")
# A body component -> the fields of which it takes exactly one.
ONE_OF = {"TaskInputRequest": SCHEDULES, "BatchTaskInputRequest": SCHEDULES}
REF = "#/components/schemas/"


def task_defaults() -> dict[str, object]:
    """What a created task takes for a field left out: the model's own defaults."""
    from tasks.models import Task

    defaults = {}
    for field in Task._meta.concrete_fields:
        if field.editable and field.has_default() and not field.primary_key:
            value = field.get_default()
            if isinstance(value, str | int | bool | dict | list):
                defaults[field.name] = value
    return defaults


def defaults_by_component() -> dict[str, dict[str, object]]:
    from flows.fields import DEFAULTS as FLOW_DEFAULTS

    tasks = task_defaults()
    return {
        "TaskInputRequest": tasks,
        "BatchTaskInputRequest": tasks,
        "FlowInputRequest": FLOW_DEFAULTS,
    }


def body_components(result: dict) -> Iterator[str]:
    """Each component a JSON request body is made of (the body and the objects inside it)."""
    schemas = result.get("components", {}).get("schemas", {})
    todo = [
        operation["requestBody"]["content"]["application/json"].get("schema", {})
        for operations in result.get("paths", {}).values()
        for operation in operations.values()
        if isinstance(operation, dict)
        and "application/json" in operation.get("requestBody", {}).get("content", {})
    ]
    seen: set[str] = set()
    while todo:
        node = todo.pop()
        if isinstance(node, dict):
            ref = node.get("$ref", "")
            if ref.startswith(REF) and ref[len(REF) :] not in seen:
                seen.add(ref[len(REF) :])
                todo.append(schemas.get(ref[len(REF) :], {}))
            todo.extend(node.get("properties", {}).values())
            todo.extend(value for key, value in node.items() if key in ("items", "allOf"))
        elif isinstance(node, list):
            todo.extend(node)
    yield from sorted(seen)


def one_of_rule(fields: tuple[str, ...]) -> dict:
    """Exactly one of `fields`. Inside an `allOf`: generators such as openapi-python-client
    would read a `oneOf` beside the properties as a union of three shapeless bodies."""
    return {
        "description": f"exactly one of {', '.join(fields)}",
        "oneOf": [{"required": [field]} for field in fields],
    }


def describe_request_bodies(result: dict, generator, request, public) -> dict:
    """A drf-spectacular postprocessing hook."""
    schemas = result.get("components", {}).get("schemas", {})
    defaults = defaults_by_component()
    for name in body_components(result):
        component = schemas.get(name, {})
        if component.get("type") != "object" or "properties" not in component:
            continue
        component["additionalProperties"] = False
        for field, value in defaults.get(name, {}).items():
            if field in component["properties"]:
                component["properties"][field].setdefault("default", value)
        if name in ONE_OF:
            component["allOf"] = [one_of_rule(ONE_OF[name])]
    return result
