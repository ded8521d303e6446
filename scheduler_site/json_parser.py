"""The API's one request parser: JSON, bounded in size and in depth.

DRF's parser reads the whole stream (Django's upload limits do not apply to it) and deep
nesting ends in a RecursionError, a 500. Here a body over REQUEST_BODY_MAX_BYTES is a 413
before any of it is parsed, and nesting deeper than JSON_MAX_DEPTH is a 400.
"""

from __future__ import annotations

import json

from django.conf import settings
from rest_framework import status
from rest_framework.exceptions import APIException, ParseError
from rest_framework.parsers import JSONParser


class RequestTooLarge(APIException):
    # A DRF exception, shaped by the one error handler: DRF loads this module while
    # scheduler_site.errors is still importing DRF.
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "too_large"


def depth_of(value: object) -> int:
    """How deeply arrays and objects nest in a parsed document (iteratively: no recursion)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in children)
    return deepest


class BoundedJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        limit = settings.REQUEST_BODY_MAX_BYTES
        request = (parser_context or {}).get("request")
        declared = request.META.get("CONTENT_LENGTH") if request is not None else None
        if declared and declared.isdigit() and int(declared) > limit:
            raise _too_large(limit)
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise _too_large(limit)
        try:
            data = json.loads(raw.decode(settings.DEFAULT_CHARSET))
        except (ValueError, RecursionError) as exc:
            raise ParseError("the body is not valid JSON (or is nested too deeply)") from exc
        if depth_of(data) > settings.JSON_MAX_DEPTH:
            raise ParseError(f"the body nests deeper than {settings.JSON_MAX_DEPTH} levels")
        return data


def _too_large(limit: int) -> RequestTooLarge:
    return RequestTooLarge(f"the request body is larger than {limit} bytes")
