from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from base import views as core_views
from notifications import views as notification_views

APPS = ["clubs", "games", "tournaments", "calcutta", "ratings", "points", "chouette"]

api_v1 = [path("", include("accounts.api_urls"))]
api_v1 += [path("", include(f"{app}.api_urls")) for app in APPS]
api_v1 += [path("", include("data.api_urls"))]

urlpatterns = [
    path("", core_views.home, name="home"),
    path("health/", core_views.health, name="health"),
    path("health/live/", core_views.live, name="health-live"),
    path("accounts/", include("accounts.urls")),  # before Django's, whose password reset it replaces
    path("accounts/", include("django.contrib.auth.urls")),
    # Django's language switch, which also stores the choice for the person's notifications.
    path("i18n/", include([path("setlang/", notification_views.set_language, name="set_language")])),
    path("admin/", admin.site.urls),
    path("api/v1/", include(api_v1)),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
]
urlpatterns += [path("", include(f"{app}.urls")) for app in APPS]
urlpatterns += [path("", include("notifications.urls"))]
urlpatterns += [path("", include("data.urls"))]

if settings.DEBUG:
    from django.conf.urls.static import static

    urlpatterns += static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT)

handler404 = "base.views.not_found"
handler500 = "base.views.server_error"
