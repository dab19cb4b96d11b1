from rest_framework.routers import SimpleRouter

from games.matchplay import api

router = SimpleRouter()
router.register("matches", api.MatchViewSet, basename="match")

urlpatterns = router.urls
