from django.contrib import admin
from django.http import JsonResponse
from django.urls import include, path

from console.views import dashboard_view


def health(request):
    return JsonResponse({"status": "ok"})


urlpatterns = [
    path("admin/dashboard/", admin.site.admin_view(dashboard_view), name="console-dashboard"),
    path("admin/", admin.site.urls),
    path("healthz", health),
    path("v1/", include("tasks.urls")),
    path("v1/", include("jobs.urls")),
]


def json_not_found(request, exception=None):
    return JsonResponse({"error": {"code": "not_found", "message": "not found"}}, status=404)


def json_server_error(request):
    return JsonResponse({"error": {"code": "internal", "message": "internal error"}}, status=500)


handler404 = json_not_found
handler500 = json_server_error
