"""What /v1/schema says of the ids in its paths. The views take `task_id` and `job_id` as
plain URL parts (a malformed one is a 404, not a 400), so drf-spectacular has nothing to say
of them; a generated client's docstring and Swagger UI's form read this instead."""

from __future__ import annotations

PATH_IDS = {
    "task_id": "the task's `id`, as its create answered it (a UUID)",
    "job_id": "the job's `id` (a UUID), also its calls' `Idempotency-Key`",
}


def describe_path_parameters(result: dict, generator, request, public) -> dict:
    """A drf-spectacular postprocessing hook; a description a view gives is kept."""
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            if not isinstance(operation, dict):
                continue
            for parameter in operation.get("parameters", []):
                if parameter.get("in") == "path" and parameter["name"] in PATH_IDS:
                    parameter.setdefault("description", PATH_IDS[parameter["name"]])
    return result
