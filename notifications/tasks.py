"""Celery tasks of the notifications: each takes a row id and sends it at most once (the service claims it)."""

from celery import shared_task

from notifications import services


@shared_task(name="notifications.send_email", ignore_result=True, soft_time_limit=60, time_limit=90)
def send_email(notification_id: int) -> bool:
    return services.send_email(notification_id)


@shared_task(name="notifications.send_webhook", ignore_result=True, soft_time_limit=60, time_limit=90)
def send_webhook(delivery_id: int) -> bool:
    return services.send_webhook(delivery_id)
