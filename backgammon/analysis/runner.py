"""Run GNU Backgammon over a match record and read its error rates (docs/games.md, "Error rates").

The program (`gnubg -t -q -c <command file>`) runs as a subprocess with limits: a private temporary directory
that is also its HOME (it keeps its settings there), a memory limit (RLIMIT_AS, set in the child before it
starts), no network (a new network namespace by `unshare -rn` where the kernel allows it; otherwise the
program still has nothing to contact: it only reads the command file), and a time limit after which the whole
process group is killed. Every result names the engine, its version, the plies and the match equity table;
figures of another engine or ply are another result, never mixed.
"""

from __future__ import annotations

import contextlib
import functools
import os
import queue
import re
import resource
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from backgammon.analysis.gnubg_stats import PlayerFigures, StatisticsError, parse

GNUBG = "/usr/games/gnubg"
DEFAULT_TIME_LIMIT = 300.0  # seconds; a 25-point match at 2 plies takes about a minute on the club's server
DEFAULT_MEMORY_MB = 1024
PLIES = (0, 1, 2)


class AnalysisFailed(Exception):
    """The analysis did not give figures; the message says why ("timed out after 300 s", "gnubg exited 1: …")."""


@dataclass(frozen=True)
class Analysis:
    engine: str  # "gnubg" (the program) or "gnubg-nn" (the Python package)
    version: str
    plies: int
    met: str
    players: tuple[PlayerFigures, PlayerFigures]
    seconds: float
    checker_only: bool = False  # the package's fallback: checker play only, cubeless


def available(program: str = GNUBG) -> bool:
    return Path(program).is_file() and os.access(program, os.X_OK)


@functools.cache
def program_version(program: str = GNUBG) -> str:
    """ "GNU Backgammon 1.07.001 20230103" -> "1.07.001"."""
    try:
        out = subprocess.run([program, "--version"], capture_output=True, text=True, timeout=30, check=False).stdout
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    found = re.search(r"GNU Backgammon (\S+)", out)
    return found.group(1) if found else "unknown"


@functools.cache
def no_network_prefix() -> tuple[str, ...]:
    """`unshare -rn` (a network namespace with nothing in it) when this kernel lets an unprivileged user make
    one; else nothing."""
    unshare = shutil.which("unshare")
    if unshare is None:
        return ()
    try:
        ok = subprocess.run([unshare, "-rn", "true"], capture_output=True, timeout=10, check=False).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return ()
    return (unshare, "-rn") if ok else ()


def commands(record_name: str, plies: int) -> str:
    """The command file: the analysis settings, the record, the analysis and its statistics."""
    return "\n".join(
        [
            f"set analysis chequerplay evaluation plies {plies}",
            f"set analysis cubedecision evaluation plies {plies}",
            "show matchequitytable 1",
            f"import mat {record_name}",
            "analyse match",
            "show statistics match",
            "",
        ]
    )


@dataclass(frozen=True)
class SandboxRun:
    output: str  # what the program wrote (stdout and stderr together)
    seconds: float
    files: dict[str, bytes]  # the files asked for by `keep` that the program left in its folder


def run_gnubg_sandboxed(
    files: dict[str, bytes | str],
    args: Sequence[str],
    *,
    plies: int,
    program: str = GNUBG,
    time_limit: float = DEFAULT_TIME_LIMIT,
    memory_mb: int = DEFAULT_MEMORY_MB,
    on_line: Callable[[str], None] | None = None,
    keep: Sequence[str] = (),
) -> SandboxRun:
    """The one way the program runs (the runner's command file and the review's script alike): the plies and the
    program checked first ("engine not installed"), `files` written into a private temporary folder that is also
    its HOME, `program *args` run there without network under `run_limited`'s limits, and the files named in
    `keep` read back before the folder goes. AnalysisFailed otherwise."""
    if plies not in PLIES:
        raise AnalysisFailed(f"plies must be one of {', '.join(map(str, PLIES))}, not {plies}")
    if not available(program):
        raise AnalysisFailed("engine not installed")
    with tempfile.TemporaryDirectory(prefix="bg-analysis-") as private:
        for name, content in files.items():
            target = Path(private) / Path(name).name  # a bare name: nothing is written outside the folder
            target.write_bytes(content if isinstance(content, bytes) else content.encode())
        started = time.monotonic()
        out = run_limited(
            [*no_network_prefix(), program, *args],
            cwd=private,
            time_limit=time_limit,
            memory_mb=memory_mb,
            on_line=on_line,
        )
        seconds = time.monotonic() - started
        kept = {}
        for name in keep:
            with contextlib.suppress(OSError):
                kept[name] = (Path(private) / Path(name).name).read_bytes()
    return SandboxRun(output=out, seconds=seconds, files=kept)


def analyse_with_gnubg(
    record: bytes,
    *,
    plies: int,
    program: str = GNUBG,
    time_limit: float = DEFAULT_TIME_LIMIT,
    memory_mb: int = DEFAULT_MEMORY_MB,
) -> Analysis:
    """Analyse a .mat record at `plies` and return both players' figures; AnalysisFailed otherwise."""
    run = run_gnubg_sandboxed(
        {"match.mat": record, "commands.txt": commands("match.mat", plies)},
        ["-t", "-q", "-c", "commands.txt"],
        plies=plies,
        program=program,
        time_limit=time_limit,
        memory_mb=memory_mb,
    )
    out = run.output
    try:
        players = parse(out)
    except StatisticsError as exc:
        tail = " ".join(out.strip().splitlines()[-3:])[:300]
        raise AnalysisFailed(f"gnubg gave no statistics ({exc}); it said: {tail}") from None
    met = re.search(r"Match equity table: (.+)", out)
    return Analysis(
        engine="gnubg",
        version=program_version(program),
        plies=plies,
        met=met.group(1).strip() if met else "unknown",
        players=players,
        seconds=run.seconds,
    )


def run_limited(
    argv: Sequence[str],
    *,
    cwd: str,
    time_limit: float,
    memory_mb: int,
    on_line: Callable[[str], None] | None = None,
) -> str:
    """Run `argv` in `cwd` (also its HOME) in a process group of its own, with at most `memory_mb` of address
    space; kill the whole group at `time_limit`. Returns what it wrote (stdout and stderr together). With
    `on_line`, each line is handed to it as it comes (in this thread), for progress."""
    limit = memory_mb * 1024 * 1024

    def limits() -> None:  # in the child, before the program starts
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    env = {"HOME": cwd, "TMPDIR": cwd, "PATH": "/usr/bin:/bin:/usr/games", "LANG": "C", "LC_ALL": "C"}
    try:
        child = subprocess.Popen(  # noqa: S603 - a fixed program with our own arguments
            list(argv),
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=limits,  # noqa: PLW1509 - only setrlimit, no locks taken
        )
    except OSError as exc:
        raise AnalysisFailed(f"could not start {argv[0]}: {exc}") from None
    try:
        if on_line is None:
            out, _ = child.communicate(timeout=time_limit)
        else:
            out = _stream(child, time.monotonic() + time_limit, on_line)
    except subprocess.TimeoutExpired:
        _kill_group(child, streaming=on_line is not None)
        raise AnalysisFailed(f"timed out after {time_limit:g} s") from None
    except BaseException:
        _kill_group(
            child, streaming=True
        )  # the progress callback failed (or the worker is stopping): the program goes too
        raise
    text = out.decode("utf-8", "replace")
    if child.returncode != 0:
        tail = " ".join(text.strip().splitlines()[-3:])[:300]
        raise AnalysisFailed(f"{Path(argv[0]).name} exited {child.returncode}: {tail}")
    return text


def _stream(child: subprocess.Popen, deadline: float, on_line: Callable[[str], None]) -> bytes:
    """Read the child's output line by line (a thread reads, this one calls `on_line`) until it ends or the
    deadline passes (subprocess.TimeoutExpired)."""
    lines: queue.Queue[bytes | None] = queue.Queue()
    kept: list[bytes] = []

    def read() -> None:
        assert child.stdout is not None
        for line in child.stdout:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise subprocess.TimeoutExpired(child.args, 0)
        try:
            line = lines.get(timeout=remaining)
        except queue.Empty:
            raise subprocess.TimeoutExpired(child.args, 0) from None
        if line is None:
            break
        kept.append(line)
        on_line(line.decode("utf-8", "replace"))
    child.wait(timeout=max(deadline - time.monotonic(), 0.1))
    return b"".join(kept)


def _kill_group(child: subprocess.Popen, *, streaming: bool = False) -> None:
    with contextlib.suppress(ProcessLookupError):  # its own session: the group is the child's and its children's
        os.killpg(child.pid, signal.SIGKILL)
    if streaming:  # the reader thread drains the pipe
        child.wait()
    else:
        child.communicate()
