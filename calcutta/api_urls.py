from rest_framework.routers import SimpleRouter

from calcutta import api

router = SimpleRouter()
router.register("calcuttas", api.CalcuttaViewSet, basename="calcutta")

urlpatterns = router.urls
