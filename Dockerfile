# syntax=docker/dockerfile:1
# The site's one image: web (gunicorn), ws (uvicorn), worker, beat and the one-shot migrate all run it
# (deploy/entrypoint.sh), so every node serves the same code, compiled move generator, translations and static
# files. docs/deploy.md.
#
#   docker build -t bgclub .                          # the default image
#   docker build --build-arg WITH_GNUBG=1 -t bgclub .  # with GNU Backgammon (Debian's gnubg) for analysis
#   docker build --build-arg WITH_S3=1 -t bgclub .     # with django-storages for MEDIA_STORAGE=s3
#
# The build-time steps are tools/build_image_steps.sh, which also runs outside Docker (and in the tests).

ARG PYTHON_IMAGE=python:3.11-slim

# --- builder: a compiler, the virtualenv, the built files ---------------------------------------------------------
FROM ${PYTHON_IMAGE} AS builder
ARG WITH_S3=0
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONDONTWRITEBYTECODE=1
RUN apt-get update \
 && apt-get install -y --no-install-recommends gcc libc6-dev \
 && rm -rf /var/lib/apt/lists/*
RUN python -m venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH
WORKDIR /app
# Requirements first: a change to the code alone does not reinstall them.
COPY requirements.txt .
RUN pip install -r requirements.txt \
 && if [ "$WITH_S3" = "1" ]; then pip install "django-storages[s3]==1.14.6"; fi
COPY . .
RUN sh tools/build_image_steps.sh

# --- runtime: no compiler, a user of its own ------------------------------------------------------------------------
FROM ${PYTHON_IMAGE}
ARG WITH_GNUBG=0
# gnubg (GNU Backgammon) is Debian's package; it installs under /usr/games.
RUN if [ "$WITH_GNUBG" = "1" ]; then \
      apt-get update && apt-get install -y --no-install-recommends gnubg && rm -rf /var/lib/apt/lists/*; \
    fi \
 && groupadd --system --gid 10001 bgclub \
 && useradd --system --uid 10001 --gid bgclub --home-dir /app --shell /usr/sbin/nologin bgclub \
 && mkdir -p /data/media \
 && chown bgclub:bgclub /data/media
ENV PATH=/opt/venv/bin:/usr/games:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    MEDIA_ROOT=/data/media \
    STATIC_MANIFEST=1
COPY --from=builder /opt/venv /opt/venv
# The code and what was built from it belong to root and are read-only for the site's user; it writes only to
# MEDIA_ROOT (a volume shared by web and worker) and /tmp.
COPY --from=builder /app /app
WORKDIR /app
USER bgclub
EXPOSE 8000
ENTRYPOINT ["/app/deploy/entrypoint.sh"]
CMD ["web"]
