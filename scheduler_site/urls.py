from django.contrib import admin
from django.http import JsonResponse
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from scheduler_site.readiness import readiness
from scheduler_site.version import VERSION


def health(request):
    return JsonResponse({"status": "ok", "version": VERSION})


urlpatterns = [
    path("admin/", include("console.urls")),
    path("admin/", admin.site.urls),
    path("healthz", health),
    path("readyz", readiness),
    path("v1/schema", SpectacularAPIView.as_view(), name="schema"),
    path("v1/docs", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
    path("v1/", include("tasks.urls")),
    path("v1/", include("jobs.urls")),
    path("v1/", include("tenants.urls")),
    path("v1/", include("audit.urls")),
    path("v1/", include("flows.urls")),
]


def json_bad_request(request, exception=None):
    # Django answers an unknown Host or another suspicious request here, before any view:
    # in the API's error shape too, never an HTML page.
    return JsonResponse({"error": {"code": "bad_request", "message": "bad request"}}, status=400)


def json_not_found(request, exception=None):
    return JsonResponse({"error": {"code": "not_found", "message": "not found"}}, status=404)


def json_server_error(request):
    return JsonResponse({"error": {"code": "internal", "message": "internal error"}}, status=500)


handler400 = json_bad_request
handler404 = json_not_found
handler500 = json_server_error
