"""The flows API: one view per route. A key names a flow of the calling tenant only."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from audit.record import token_actor
from flows import selectors, services
from flows.serializers import FlowInput, FlowOutput
from scheduler_site.openapi import PAGE, errors, page_of
from scheduler_site.pagination import decode_cursor, page_limit, page_response
from scheduler_site.query_params import NONE, PAGING

FLOW_KEY = OpenApiParameter(
    "key",
    OpenApiTypes.STR,
    OpenApiParameter.PATH,
    pattern=r"^[A-Za-z0-9_.:-]{1,100}$",
    description="the flow key tasks name in `flow_key` (per tenant), e.g. `crm` or"
    " `host:api.example.com`; not `.` or `..`",
)


def _flow_response(flow, status_code: int = status.HTTP_200_OK) -> Response:
    (body,) = selectors.flow_bodies([flow])
    return Response(FlowOutput(body).data, status=status_code)


class FlowCollectionView(APIView):
    known_query_params = {"GET": PAGING}

    @extend_schema(
        summary="The tenant's flows, by key",
        operation_id="flows_list",
        parameters=PAGE,
        responses={200: page_of(FlowOutput, "FlowPage"), **errors(400)},
    )
    def get(self, request: Request) -> Response:
        limit = page_limit(request)
        after = (decode_cursor(request) or {}).get("after")
        found = selectors.flow_list(tenant=request.user, after=after, limit=limit + 1)
        next_position = {"after": found[limit - 1].key} if len(found) > limit else None
        bodies = selectors.flow_bodies(found[:limit])
        return page_response(request, FlowOutput(bodies, many=True).data, next_position)


@extend_schema(parameters=[FLOW_KEY])
class FlowItemView(APIView):
    known_query_params = NONE

    @extend_schema(
        summary="One flow: its settings, pause, circuit, waiting and in-flight counts",
        operation_id="flows_get",
        responses={200: FlowOutput, **errors(404)},
    )
    def get(self, request: Request, key: str) -> Response:
        return _flow_response(selectors.flow_get(tenant=request.user, key=key))

    @extend_schema(
        summary="Create or replace a flow's settings (a field left out takes its default)",
        operation_id="flows_put",
        request=FlowInput,
        responses={201: FlowOutput, 200: FlowOutput, **errors(400, 413, 415)},
    )
    def put(self, request: Request, key: str) -> Response:
        services.checked_key(key)
        payload = FlowInput(data=request.data)
        payload.is_valid(raise_exception=True)
        flow, created = services.flow_put(
            tenant=request.user,
            actor=token_actor(request),
            key=key,
            settings=dict(payload.validated_data),
        )
        return _flow_response(flow, status.HTTP_201_CREATED if created else status.HTTP_200_OK)

    @extend_schema(
        summary="Delete a flow: the jobs it holds back go back to pending",
        operation_id="flows_delete",
        responses={204: None, **errors(404)},
    )
    def delete(self, request: Request, key: str) -> Response:
        services.flow_delete(tenant=request.user, actor=token_actor(request), key=key)
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema(parameters=[FLOW_KEY])
class FlowPauseView(APIView):
    @extend_schema(
        summary="Pause a flow: its jobs wait (a key naming no flow yet makes one, paused)",
        operation_id="flows_pause",
        request=None,
        responses={200: FlowOutput, **errors()},
    )
    def post(self, request: Request, key: str) -> Response:
        flow = services.flow_pause(tenant=request.user, actor=token_actor(request), key=key)
        return _flow_response(flow)


@extend_schema(parameters=[FLOW_KEY])
class FlowResumeView(APIView):
    @extend_schema(
        summary="Resume a flow: its waiting jobs go on, in their place",
        operation_id="flows_resume",
        request=None,
        responses={200: FlowOutput, **errors(404)},
    )
    def post(self, request: Request, key: str) -> Response:
        flow = services.flow_resume(tenant=request.user, actor=token_actor(request), key=key)
        return _flow_response(flow)
