"""The deployment that scales out (docs/deploy.md): the compose file runs N web nodes behind a proxy with exactly
one beat and a migrate step they wait for, web and worker share one media store; the image's build steps
(tools/build_image_steps.sh, which the Dockerfile runs) build what a node needs; MEDIA_STORAGE chooses where
uploads live. Docker itself is not on the test machines, so the image's steps run here as a script."""

import http.server
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import threading
from pathlib import Path

import pytest
import yaml

from tests.paths import REPO


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((REPO / "docker-compose.yml").read_text())


def test_the_compose_file_builds_its_own_image_and_never_installs_at_start(compose):
    for name in ("migrate", "web", "worker", "beat"):
        service = compose["services"][name]
        assert service["build"]["context"] == "."
        assert "volumes" not in service or all(":/app" not in v for v in service["volumes"]), name
        assert "pip install" not in str(service.get("command", "")), name


def test_exactly_one_beat_and_it_runs_beside_no_web_server(compose):
    services = compose["services"]
    beats = [name for name, s in services.items() if "beat" in str(s.get("command", ""))]
    assert beats == ["beat"]
    assert services["beat"]["deploy"]["replicas"] == 1
    assert services["web"]["command"] == ["web"]


def test_web_scales_out_behind_a_proxy_and_waits_for_the_migrations(compose):
    services = compose["services"]
    web = services["web"]
    assert str(web["deploy"]["replicas"]).startswith("${WEB_REPLICAS")
    assert "ports" not in web  # only the proxy is published; replicas would fight over one host port
    assert services["proxy"]["ports"]
    for name in ("web", "worker", "beat"):
        assert services[name]["depends_on"]["migrate"] == {"condition": "service_completed_successfully"}
    assert services["migrate"]["command"] == ["migrate"]
    assert services["migrate"]["restart"] == "no"
    assert web["healthcheck"]["test"][-1] == "healthcheck"
    entrypoint = (REPO / "deploy" / "entrypoint.sh").read_text()
    assert "/health/live/" in entrypoint


def test_plain_http_runs_on_gunicorn_and_the_sockets_on_uvicorn_each_scaled_behind_the_one_proxy(compose):
    """Two servers of the one image (docs/deploy.md, "Two servers"): `web` serves every plain request from
    gunicorn's WSGI workers, `ws` the live pages' sockets from uvicorn's ASGI process; only the proxy is published."""
    services = compose["services"]
    ws = services["ws"]
    assert (services["web"]["command"], ws["command"]) == (["web"], ["ws"])
    assert str(ws["deploy"]["replicas"]).startswith("${WS_REPLICAS")
    assert "ports" not in ws
    assert ws["depends_on"]["migrate"] == {"condition": "service_completed_successfully"}
    assert ws["healthcheck"]["test"][-1] == "healthcheck"
    assert set(services["proxy"]["depends_on"]) == {"web", "ws"}
    entrypoint = (REPO / "deploy" / "entrypoint.sh").read_text()
    web_branch = entrypoint.split("\n  web)", 1)[1].split(";;", 1)[0]
    ws_branch = entrypoint.split("\n  ws)", 1)[1].split(";;", 1)[0]
    assert "exec gunicorn config.wsgi:application" in web_branch and "--worker-class gthread" in web_branch
    assert "exec uvicorn config.asgi:application" in ws_branch


def _proxied(routes: list, matched: tuple = ()) -> list[tuple[tuple, str]]:
    """(the path matchers on the way, the upstream service) of every reverse_proxy in Caddy's JSON routes."""
    found = []
    for route in routes:
        paths = tuple(p for m in route.get("match", []) for p in m.get("path", []))
        for handler in route.get("handle", []):
            if handler["handler"] == "reverse_proxy":
                found.append((matched + paths, handler["dynamic_upstreams"]["name"]))
            elif handler["handler"] == "subroute":
                found += _proxied(handler["routes"], matched + paths)
    return found


@pytest.mark.skipif(not shutil.which("caddy"), reason="needs Caddy to read the Caddyfile as the proxy does")
def test_the_proxy_sends_sockets_to_the_ws_service_and_everything_else_to_the_web_service():
    done = subprocess.run(
        ["caddy", "adapt", "--config", str(REPO / "deploy" / "Caddyfile"), "--adapter", "caddyfile"],
        env={**os.environ, "SITE_ADDRESS": ":80"},
        capture_output=True,
        text=True,
        check=True,
    )
    routes = json.loads(done.stdout)["apps"]["http"]["servers"]["srv0"]["routes"]
    assert _proxied(routes) == [(("/ws/*",), "ws"), ((), "web")]  # in this order: the first match wins


def test_web_and_worker_share_one_media_volume(compose):
    services = compose["services"]
    assert "media:/data/media" in services["web"]["volumes"]
    assert "media:/data/media" in services["worker"]["volumes"]
    assert "media" in compose["volumes"]
    assert services["web"]["environment"]["MEDIA_ROOT"] == "/data/media"


class Live(http.server.BaseHTTPRequestHandler):
    """A node's /health/live/ that answers 200 only to the site's own host name, as Django's host check does."""

    status = 200

    def do_GET(self):  # noqa: N802
        ok = self.path == "/health/live/" and self.headers["Host"] == "club.example.org"
        self.send_response(self.status if ok else 400)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.mark.parametrize(("answer", "exit_code"), [(200, 0), (503, 1)])
def test_the_health_check_asks_this_nodes_liveness_with_the_sites_host_name(answer, exit_code):
    handler = type("Answer", (Live,), {"status": answer})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}",
        "PORT": str(server.server_port),
        "ALLOWED_HOSTS": "club.example.org,.example.org",
    }
    try:
        done = subprocess.run(
            ["sh", str(REPO / "deploy" / "entrypoint.sh"), "healthcheck"], env=env, capture_output=True, timeout=30
        )
    finally:
        server.shutdown()
        server.server_close()
    assert done.returncode == exit_code, done.stderr


def test_the_entrypoint_runs_any_other_command_as_given():
    done = subprocess.run(
        ["sh", str(REPO / "deploy" / "entrypoint.sh"), "echo", "as given"], capture_output=True, text=True, check=True
    )
    assert done.stdout == "as given\n"


@pytest.mark.skipif(not shutil.which("cc") and not shutil.which("gcc"), reason="needs a C compiler, as the image has")
def test_the_image_build_steps_build_the_move_generator_translations_and_static_files(tmp_path):
    """The Dockerfile's builder stage runs tools/build_image_steps.sh over the source alone (.dockerignore keeps
    built files out): here over a copy of the tracked files, with nothing built in it beforehand."""
    files = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True).stdout
    source = tmp_path / "app"
    for name in files.decode().split("\0"):
        if name and (REPO / name).is_file():
            target = source / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, target)
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SECRET_KEY", "DEBUG")}
    done = subprocess.run(
        ["sh", "tools/build_image_steps.sh"],
        cwd=source,
        env={**env, "PYTHON": sys.executable},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert (source / "backgammon" / f"compiled_moves{sysconfig.get_config_var('EXT_SUFFIX')}").exists()
    assert list(source.glob("*/locale/de/LC_MESSAGES/django.mo"))
    assert (source / "staticfiles" / "staticfiles.json").exists()


def start(**environment: str) -> subprocess.CompletedProcess:
    show = "from django.conf import settings; print(settings.STORAGES['default']['BACKEND'])"
    env = {**os.environ, "SECRET_KEY": "t", "STATIC_MANIFEST": "0", "DJANGO_SETTINGS_MODULE": "config.settings"}
    for name in ("MEDIA_STORAGE", "AWS_STORAGE_BUCKET_NAME"):
        env.pop(name, None)
    return subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {show}"],
        cwd=REPO,
        env={**env, **environment},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_media_stays_on_the_filesystem_unless_object_storage_is_chosen():
    assert start().stdout.strip() == "django.core.files.storage.FileSystemStorage"


def test_object_storage_names_what_it_needs_at_start_up():
    """MEDIA_STORAGE=s3 needs django-storages and a bucket; without them the start stops and says which."""
    started = start(MEDIA_STORAGE="s3", AWS_STORAGE_BUCKET_NAME="records")
    try:
        import storages  # noqa: F401
    except ImportError:
        assert started.returncode != 0
        assert "MEDIA_STORAGE=s3 needs django-storages" in started.stderr
    else:
        assert started.stdout.strip() == "storages.backends.s3.S3Storage"
        no_bucket = start(MEDIA_STORAGE="s3")
        assert "MEDIA_STORAGE=s3 needs AWS_STORAGE_BUCKET_NAME" in no_bucket.stderr
    assert "MEDIA_STORAGE='cloud'" in start(MEDIA_STORAGE="cloud").stderr
