app_name = "chouette"
urlpatterns: list = []
