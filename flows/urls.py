from django.urls import path

from flows import views

urlpatterns = [
    path("flows", views.FlowCollectionView.as_view(), name="flow-collection"),
    path("flows/<str:key>", views.FlowItemView.as_view(), name="flow-item"),
    path("flows/<str:key>/pause", views.FlowPauseView.as_view(), name="flow-pause"),
    path("flows/<str:key>/resume", views.FlowResumeView.as_view(), name="flow-resume"),
]
