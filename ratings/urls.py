app_name = "ratings"
urlpatterns: list = []
