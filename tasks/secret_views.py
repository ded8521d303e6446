"""The secrets API: PUT and DELETE by name, GET lists names only."""

from django.utils import timezone
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scheduler_site.pagination import decode_cursor, page_limit, page_response
from tasks import secrets
from tasks.serializers import StrictSerializer


class SecretInput(StrictSerializer):
    value = serializers.CharField(trim_whitespace=False)


class SecretOutput(serializers.Serializer):
    name = serializers.CharField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class SecretCollectionView(APIView):
    def get(self, request: Request) -> Response:
        limit = page_limit(request)
        after = (decode_cursor(request) or {}).get("after")
        found = secrets.secret_names(tenant=request.user, after=after, limit=limit + 1)
        next_position = {"after": found[limit - 1].name} if len(found) > limit else None
        return page_response(request, SecretOutput(found[:limit], many=True).data, next_position)


class SecretItemView(APIView):
    def put(self, request: Request, name: str) -> Response:
        payload = SecretInput(data=request.data)
        payload.is_valid(raise_exception=True)
        secret, created = secrets.secret_put(
            tenant=request.user, name=name, value=payload.validated_data["value"]
        )
        code = status.HTTP_201_CREATED if created else status.HTTP_200_OK
        return Response(SecretOutput(secret).data, status=code)

    def delete(self, request: Request, name: str) -> Response:
        secrets.secret_delete(tenant=request.user, name=name)
        return Response(status=status.HTTP_204_NO_CONTENT)


class SigningSecretView(APIView):
    """The tenant's Standard Webhooks signing secret, to verify the calls it receives."""

    def get(self, request: Request) -> Response:
        tenant = request.user
        until = tenant.previous_signing_secret_until
        overlapping = until is not None and until > timezone.now()
        return Response(
            {
                "signing_secret": tenant.signing_secret,
                # After a rotation calls carry the old secret's signature too, until then.
                "previous_secret_signs_until": until.isoformat() if overlapping else None,
            }
        )
