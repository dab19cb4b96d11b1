"""The load test's node, as production runs one (docs/deploy.md, "Two servers"): its Caddy sends /ws/* to the
socket server and every other request to the HTTP workers. A real Caddy on loopback in front of two stand-in
servers that say which they are; skipped where Caddy is not installed (.ci/run installs it)."""

import http.server
import shutil
import socket
import subprocess
import threading
import time
import urllib.request

import pytest

from loadtest.stack import caddyfile

pytestmark = pytest.mark.skipif(not shutil.which("caddy"), reason="needs Caddy (apt install caddy)")


def stand_in(name: str) -> http.server.ThreadingHTTPServer:
    class Named(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802
            body = f"{name} {self.path} {self.headers['Host']}".encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Named)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def node(tmp_path):
    http_server, ws_server = stand_in("http"), stand_in("ws")
    number = free_port()
    config = tmp_path / "Caddyfile"
    config.write_text(caddyfile(number, http_server.server_port, ws_server.server_port))
    env = {"HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path), "PATH": "/usr/bin"}
    caddy = subprocess.Popen(
        [shutil.which("caddy"), "run", f"--config={config}", "--adapter=caddyfile"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        for _ in range(100):
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", number)) == 0:
                    break
            assert caddy.poll() is None, caddy.stderr.read()
            time.sleep(0.05)
        yield f"http://127.0.0.1:{number}"
    finally:
        caddy.terminate()
        caddy.wait(timeout=10)
        for server in (http_server, ws_server):
            server.shutdown()
            server.server_close()


def get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as answer:
        return answer.read().decode()


def test_the_sockets_path_goes_to_the_socket_server_and_everything_else_to_the_http_workers(node):
    port = node.rsplit(":", 1)[1]
    assert get(f"{node}/ws/live/") == f"ws /ws/live/ 127.0.0.1:{port}"  # the Host the site checks is passed on
    for path in ("/health/", "/static/favicon.svg", "/clubs/load/", "/api/", "/wsx/"):
        assert get(f"{node}{path}") == f"http {path} 127.0.0.1:{port}"
