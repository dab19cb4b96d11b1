import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()

from base.heap import freeze_loaded_objects, warm_up  # noqa: E402
from config.celery import warm_up as warm_up_tasks  # noqa: E402

warm_up()  # what the first requests would load while people wait (base/heap.py)
warm_up_tasks()  # and the first queued task (config/celery.py)

freeze_loaded_objects()  # everything loaded above lives as long as the worker (base/heap.py)
