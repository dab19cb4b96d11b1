"""Celery tasks of the accounts: each takes a row id and sends it at most once (the service claims it)."""

from celery import shared_task

from accounts import services


@shared_task(name="accounts.send_password_reset", ignore_result=True, soft_time_limit=60, time_limit=90)
def send_password_reset(mail_id: int) -> bool:
    return services.send_password_reset(mail_id)
