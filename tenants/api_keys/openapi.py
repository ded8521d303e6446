"""How the schema describes an API key: a second bearer scheme beside the JWT one."""

from drf_spectacular.extensions import OpenApiAuthenticationExtension

from tenants.api_keys.serializers import SCOPE_HELP


class ApiKeyScheme(OpenApiAuthenticationExtension):
    target_class = "tenants.api_keys.auth.ApiKeyAuthentication"
    name = "tenantApiKey"

    def get_security_definition(self, auto_schema) -> dict:
        return {
            "type": "http",
            "scheme": "bearer",
            "bearerFormat": "acs_<prefix>_<secret>",
            "description": f"a key from `POST /v1/api-keys`; its scope: {SCOPE_HELP}",
        }
