app_name = "calcutta"
urlpatterns: list = []
