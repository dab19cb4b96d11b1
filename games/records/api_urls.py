from rest_framework.routers import SimpleRouter

from games.records import api

router = SimpleRouter()
router.register("game-records", api.GameRecordViewSet, basename="game-record")
router.register("record-uploads", api.UploadBatchViewSet, basename="record-upload")

urlpatterns = router.urls
