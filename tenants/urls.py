from django.urls import path

from tenants import views

urlpatterns = [
    path("tenant", views.TenantView.as_view(), name="tenant"),
]
