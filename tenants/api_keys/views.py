"""/v1/api-keys: a tenant creates, lists, reads and revokes its own keys. Creating and
revoking are writes, so a `read` key may do neither (tenants/api_keys/scope.py); a `write`
key may create further keys, of either scope."""

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from audit.record import token_actor
from scheduler_site.errors import NotFound
from scheduler_site.ids_in_urls import parse_id
from scheduler_site.openapi import PAGE, errors, page_of
from scheduler_site.pagination import decode_cursor, page_limit, page_response
from scheduler_site.query_params import NONE, refuse_unknown_params
from tenants.api_keys import openapi  # noqa: F401 - registers the key's security scheme
from tenants.api_keys.lifetime import checked_lifetime
from tenants.api_keys.serializers import ApiKeyInput, ApiKeyOutput, CreatedApiKeyOutput
from tenants.api_keys.services import api_key_create, api_key_revoke, live_keys

KEY_ID = OpenApiParameter("key_id", str, OpenApiParameter.PATH, description="the key's `id`")
PAGE_KEYS = {"limit", "cursor"}


class ApiKeyCollectionView(APIView):
    @extend_schema(
        operation_id="listApiKeys",
        summary="The tenant's API keys, newest first (never a key or its hash)",
        parameters=PAGE,
        responses={200: page_of(ApiKeyOutput, "ApiKeyPage"), **errors(400)},
    )
    def get(self, request: Request) -> Response:
        refuse_unknown_params(request, PAGE_KEYS)
        limit = page_limit(request)
        found = live_keys(request.user.id).order_by("-id")
        if before := (decode_cursor(request) or {}).get("before"):
            found = found.filter(id__lt=parse_id(before, "cursor"))
        page = list(found[: limit + 1])
        next_position = {"before": str(page[limit - 1].id)} if len(page) > limit else None
        return page_response(request, ApiKeyOutput(page[:limit], many=True).data, next_position)

    @extend_schema(
        operation_id="createApiKey",
        summary="Create an API key: the answer shows the key, this once",
        request=ApiKeyInput,
        responses={201: CreatedApiKeyOutput, **errors(403, 409, 413, 415)},
    )
    def post(self, request: Request) -> Response:
        payload = ApiKeyInput(data=request.data)
        payload.is_valid(raise_exception=True)
        fields = payload.validated_data
        api_key, key = api_key_create(
            tenant=request.user,
            actor=token_actor(request),
            name=fields["name"],
            scope=fields["scope"],
            expires_at=checked_lifetime(fields.get("expires_at"), request.auth),
        )
        body = CreatedApiKeyOutput({**ApiKeyOutput(api_key).data, "key": key}).data
        return Response(body, status=status.HTTP_201_CREATED)


@extend_schema(parameters=[KEY_ID])
class ApiKeyItemView(APIView):
    known_query_params = NONE  # one key: no paging

    @extend_schema(
        operation_id="getApiKey",
        summary="One API key (never the key or its hash)",
        responses={200: ApiKeyOutput, **errors(404)},
    )
    def get(self, request: Request, key_id: str) -> Response:
        found = live_keys(request.user.id).filter(id=parse_id(key_id, "API key")).first()
        if found is None:
            raise NotFound("API key not found")
        return Response(ApiKeyOutput(found).data)

    @extend_schema(
        operation_id="revokeApiKey",
        summary="Revoke an API key: refused (401) from the next request on",
        responses={204: None, **errors(403, 404)},
    )
    def delete(self, request: Request, key_id: str) -> Response:
        api_key_revoke(
            tenant=request.user, actor=token_actor(request), key_id=parse_id(key_id, "API key")
        )
        return Response(status=status.HTTP_204_NO_CONTENT)
