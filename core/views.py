from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.shortcuts import render

from clubs import selectors as club_selectors
from core.models import WorkerHeartbeat


def home(request):
    clubs = club_selectors.visible_clubs(user=request.user).with_member_counts()[:20]
    return render(request, "core/home.html", {"clubs": clubs})


def health(request):
    """Liveness for load balancers and directors: the database answers, and when a broker is configured,
    when a worker last proved it is processing tasks."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    latest = WorkerHeartbeat.objects.order_by("-last_seen").first()
    return JsonResponse(
        {
            "database": connection.vendor,
            "tasks": "eager" if settings.CELERY_TASK_ALWAYS_EAGER else "broker",
            "last_worker_heartbeat": latest.last_seen.isoformat() if latest else None,
        }
    )
