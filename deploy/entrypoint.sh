#!/bin/sh
# The image's one entry point: `web` (HTTP), `ws` (the sockets), `worker`, `beat`, `migrate` (the release step) or `healthcheck`; anything
# else is run as given (`docker compose run --rm web python manage.py createsuperuser`). docs/deploy.md.
set -eu
case "${1:-web}" in
  web)
    # Plain HTTP (pages, the API, static files): gunicorn's gthread workers, WEB_CONCURRENCY processes of
    # WEB_THREADS threads per node. A thread lives as long as its process and keeps one persistent database
    # connection (CONN_MAX_AGE), so a node holds WEB_CONCURRENCY x WEB_THREADS of them (docs/connections.md).
    # Measured side by side (docs/deploy.md), a static file answered 2-4x faster here than through uvicorn, whose
    # Django handler starts a thread for every request. Keep-alive outlasts the proxy's idle upstream connections
    # (deploy/Caddyfile, 4 s), so Caddy never sends a request on a connection gunicorn is closing.
    exec gunicorn config.wsgi:application --bind "0.0.0.0:${PORT:-8000}" --workers "${WEB_CONCURRENCY:-3}" \
      --worker-class gthread --threads "${WEB_THREADS:-4}" --keep-alive 10 --timeout 30 --graceful-timeout 20 \
      --access-logfile - --log-level info
    ;;
  ws)
    # The live pages' sockets (/ws/ only; the proxy sends nothing else here): ASGI, each socket an event-loop
    # task, WS_CONCURRENCY processes per node, each with its own database pool of at most DATABASE_POOL_MAX_SIZE
    # (config/asgi.py turns the pool on; a socket's session lookup borrows a connection and gives it back).
    exec uvicorn config.asgi:application --host 0.0.0.0 --port "${PORT:-8000}" --workers "${WS_CONCURRENCY:-1}" \
      --ws websockets-sansio --ws-max-size 65536 --timeout-graceful-shutdown 20
    ;;
  worker)
    exec celery -A config worker --loglevel=info --concurrency "${CELERY_WORKER_CONCURRENCY:-2}" --without-gossip
    ;;
  beat)
    # Exactly one beat for the whole site (docker-compose.yml runs it as its own service with one replica).
    exec celery -A config beat --loglevel=info --schedule=/tmp/celerybeat-schedule
    ;;
  migrate)
    # Once per release, before the new web and worker start; the migrations are safe to run again.
    exec python manage.py migrate --noinput
    ;;
  healthcheck)
    # Liveness of this node only (/health/live/), asked with a Host the site accepts: Django refuses a request
    # to 127.0.0.1 when ALLOWED_HOSTS names only the public host.
    exec python - <<'PY'
import os, sys, urllib.request
host = (os.environ.get("ALLOWED_HOSTS") or "localhost").split(",")[0].strip().lstrip(".*") or "localhost"
request = urllib.request.Request(f"http://127.0.0.1:{os.environ.get('PORT', '8000')}/health/live/", headers={"Host": host})
try:
    with urllib.request.urlopen(request, timeout=3) as answer:
        sys.exit(0 if answer.status == 200 else 1)
except OSError as error:
    print(f"healthcheck: {error}", file=sys.stderr)
    sys.exit(1)
PY
    ;;
  *)
    exec "$@"
    ;;
esac
