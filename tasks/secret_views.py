"""The secrets API: PUT and DELETE by name, GET lists names only."""

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from audit.record import token_actor
from scheduler_site.openapi import PAGE, SECRET_NAME, errors, page_of
from scheduler_site.pagination import decode_cursor, page_limit, page_response
from scheduler_site.query_params import NONE
from tasks import secrets
from tasks.models import Tenant
from tasks.secret_hosts import MAX_ALLOWED_HOSTS
from tasks.serializers import StrictSerializer


class SecretInput(StrictSerializer):
    value = serializers.CharField(
        trim_whitespace=False,
        help_text="the secret, stored encrypted and never shown again; sent as the"
        " `Authorization` header of the calls of tasks naming it in `secret_ref`",
    )
    # Required for a new secret; a replaced one keeps its hosts when this is left out.
    allowed_hosts = serializers.ListField(
        child=serializers.CharField(trim_whitespace=False),
        required=False,
        help_text=f"lowercase host names or IP addresses, 1 to {MAX_ALLOWED_HOSTS}, matched "
        "exactly (no wildcards): the only hosts this secret is sent to",
    )


class SecretOutput(serializers.Serializer):
    name = serializers.CharField(help_text="what a task's `secret_ref` names")
    allowed_hosts = serializers.ListField(
        child=serializers.CharField(), help_text="the only hosts the secret is sent to"
    )
    created_at = serializers.DateTimeField(help_text="when the secret was first stored")
    updated_at = serializers.DateTimeField(help_text="when its value or hosts last changed")


class SigningSecretOutput(serializers.Serializer):
    signing_secret = serializers.CharField(help_text="whsec_...")
    previous_secret_signs_until = serializers.DateTimeField(
        allow_null=True,
        help_text="after a rotation, until when calls carry the old secret's signature too;"
        " null: no rotation under way",
    )


class SecretCollectionView(APIView):
    @extend_schema(
        summary="The tenant's secret names (never values), by name",
        parameters=PAGE,
        responses={200: page_of(SecretOutput, "SecretPage"), **errors(400)},
    )
    def get(self, request: Request) -> Response:
        limit = page_limit(request)
        after = (decode_cursor(request) or {}).get("after")
        found = secrets.secret_names(tenant=request.user, after=after, limit=limit + 1)
        next_position = {"after": found[limit - 1].name} if len(found) > limit else None
        return page_response(request, SecretOutput(found[:limit], many=True).data, next_position)


@extend_schema(parameters=[SECRET_NAME])
class SecretItemView(APIView):
    known_query_params = NONE

    @extend_schema(
        summary="Store a secret (encrypted at rest), or replace it",
        request=SecretInput,
        responses={201: SecretOutput, 200: SecretOutput, **errors(400, 403, 413, 415)},
    )
    def put(self, request: Request, name: str) -> Response:
        payload = SecretInput(data=request.data)
        payload.is_valid(raise_exception=True)
        secret, created = secrets.secret_put(
            tenant=request.user,
            actor=token_actor(request),
            name=name,
            value=payload.validated_data["value"],
            allowed_hosts=payload.validated_data.get("allowed_hosts"),
        )
        code = status.HTTP_201_CREATED if created else status.HTTP_200_OK
        return Response(SecretOutput(secret).data, status=code)

    @extend_schema(summary="Delete a secret", responses={204: None, **errors(404)})
    def delete(self, request: Request, name: str) -> Response:
        secrets.secret_delete(tenant=request.user, actor=token_actor(request), name=name)
        return Response(status=status.HTTP_204_NO_CONTENT)


class SigningSecretView(APIView):
    """The tenant's Standard Webhooks signing secret, to verify the calls it receives."""

    known_query_params = NONE
    # Whoever reads it can sign calls its receivers take for this service's: a write key's.
    write_scope_only = True

    @extend_schema(
        summary="The Standard Webhooks signing secret of the calls (not to a `read` key)",
        responses={200: SigningSecretOutput, **errors(403)},
    )
    def get(self, request: Request) -> Response:
        # The row itself, not the token check's copy: a rotation elsewhere within its second
        # must not hand out the old secret.
        tenant = Tenant.objects.get(id=request.user.id)
        until = tenant.previous_signing_secret_until
        overlapping = until is not None and until > timezone.now()
        return Response(
            {
                "signing_secret": tenant.signing_secret,
                # After a rotation calls carry the old secret's signature too, until then.
                "previous_secret_signs_until": until.isoformat() if overlapping else None,
            }
        )
