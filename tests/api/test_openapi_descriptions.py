"""Every field a code generator meets in /v1/schema says what it is: the answers' fields as
well as the requests' (tests/api/test_openapi_for_generators.py), and every parameter, the
ids in the paths included, so a generated client's docstrings and Swagger UI's forms are
never blank."""

from tests.api.openapi_documents import operations
from tests.api.test_openapi_schema import schema  # noqa: F401 - a fixture


def test_every_field_of_every_answer_is_described(schema):  # noqa: F811
    undescribed = [
        f"{name}.{field}"
        for name, body in schema["components"]["schemas"].items()
        if not name.endswith("Request")
        for field, spec in body.get("properties", {}).items()
        if not spec.get("description")
    ]
    assert undescribed == []


def test_every_parameter_is_described(schema):  # noqa: F811
    undescribed = [
        f"{method.upper()} {path} {parameter['in']} {parameter['name']}"
        for path, method, operation in operations(schema)
        for parameter in operation.get("parameters", [])
        if not parameter.get("description")
    ]
    assert undescribed == []


def test_a_path_id_says_whose_id_it_is(schema):  # noqa: F811
    parameters = schema["paths"]["/v1/jobs/{job_id}/discard"]["post"]["parameters"]
    job_id = next(parameter for parameter in parameters if parameter["name"] == "job_id")
    assert "job's" in job_id["description"]
