from django.urls import path

from tenants import views
from tenants.api_keys import views as api_key_views

urlpatterns = [
    path("tenant", views.TenantView.as_view(), name="tenant"),
    path("api-keys", api_key_views.ApiKeyCollectionView.as_view(), name="api-key-collection"),
    path("api-keys/<str:key_id>", api_key_views.ApiKeyItemView.as_view(), name="api-key-item"),
]
