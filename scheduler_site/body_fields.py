"""The one refusal of a body's fields that no route takes: each named, as `read-only` when the
route shows it but only an operator (or the service) sets it, else as `unknown field`."""

from __future__ import annotations

from collections.abc import Collection

from rest_framework import serializers


def refuse_other_fields(
    data: object, editable: Collection[str], read_only: Collection[str]
) -> None:
    if not isinstance(data, dict):
        raise serializers.ValidationError({"non_field_errors": ["expected a JSON object"]})
    refused = {
        name: ["read-only" if name in read_only else "unknown field"]
        for name in sorted(set(data) - set(editable))
    }
    if refused:
        raise serializers.ValidationError(refused)
