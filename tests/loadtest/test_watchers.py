"""The watchers scenario's own logic (loadtest/watchers.py, loadtest/reference.py): the time until a page shows a
result, the server's CPU per result from /proc numbers, a page that shows a fragment at once and refetches on
"changed", the bare request's URL from the manifest, and a missing input failing instead of printing a figure for
zero work. A page is tested against a real HTTP server on loopback; /proc is a directory written by the test."""

import asyncio
import json

import pytest

from loadtest.reference import static_path
from loadtest.watchers import (
    Board,
    MissingInput,
    Page,
    Result,
    cpu_per_result,
    cpu_ticks,
    lines_for,
    parse_stat,
    show_times,
)


def test_time_to_show_counts_from_the_confirmation_and_a_late_or_absent_page_misses():
    confirmed = [10.0, 12.0]
    pages = [
        {0: 10.4, 1: 12.9},  # 0.4 s and 0.9 s
        {0: 9.95, 1: 12.0},  # shown before the confirmation's response came: 0, not negative
        {0: 21.0},  # result 0 after 11 s (past the 10 s deadline), result 1 never
    ]
    delays, missed = show_times(confirmed, pages, deadline=10)
    assert sorted(delays) == pytest.approx([0.0, 0.0, 0.4, 0.9])
    assert missed == 2


def test_a_result_whose_confirmation_failed_is_not_counted():
    delays, missed = show_times([None, 5.0], [{1: 5.5}, {1: 6.0}], deadline=10)
    assert delays == pytest.approx([0.5, 1.0])
    assert missed == 0


def test_no_confirmed_result_or_no_page_is_a_missing_input_not_a_figure():
    with pytest.raises(MissingInput, match="no result was confirmed"):
        show_times([None, None], [{0: 1.0}], deadline=10)
    with pytest.raises(MissingInput, match="no page was open"):
        show_times([1.0], [], deadline=10)


def test_a_proc_stat_line_with_spaces_and_parentheses_in_the_name():
    # pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime ...
    line = "4242 (python -m (uvicorn)) S 4200 4200 4200 0 -1 4194560 100 0 0 0 750 250 0 0 20 0 4 0 99 0 0"
    assert parse_stat(line) == (4242, 4200, 1000)
    with pytest.raises(ValueError):
        parse_stat("garbage")


def _proc(root, rows):
    for pid, parent, utime, stime in rows:
        (root / str(pid)).mkdir()
        (root / str(pid) / "stat").write_text(
            f"{pid} (p {pid}) S {parent} 1 1 0 -1 0 0 0 0 0 {utime} {stime} 0 0 20 0 1 0 1 0 0\n"
        )
    (root / "self").mkdir()  # not a pid: skipped


def test_cpu_per_result_sums_the_stacks_process_trees_between_two_snapshots(tmp_path):
    # 100: uvicorn with workers 101 and 102 (102's own child 103); 200: celery; 300: someone else's process.
    before_dir, after_dir = tmp_path / "before", tmp_path / "after"
    before_dir.mkdir()
    after_dir.mkdir()
    _proc(before_dir, [(100, 1, 10, 5), (101, 100, 200, 100), (102, 100, 300, 0), (200, 1, 50, 50), (300, 1, 9, 9)])
    _proc(
        after_dir,
        [
            (100, 1, 10, 5),  # +0
            (101, 100, 500, 200),  # +400
            (102, 100, 400, 0),  # +100
            (103, 102, 30, 20),  # new: +50
            (200, 1, 100, 50),  # +50
            (300, 1, 900, 900),  # not the stack's: not counted
        ],
    )
    before = cpu_ticks([100, 200], proc=str(before_dir))
    after = cpu_ticks([100, 200], proc=str(after_dir))
    assert set(after) == {100, 101, 102, 103, 200}
    # 600 ticks at 100 a second over 4 results: 1.5 s each
    assert cpu_per_result(before, after, 4, ticks_per_second=100) == pytest.approx(1.5)


def test_cpu_per_result_refuses_no_process_or_no_result():
    with pytest.raises(MissingInput, match="no server process"):
        cpu_per_result({}, {}, 3, ticks_per_second=100)
    with pytest.raises(MissingInput, match="no result"):
        cpu_per_result({1: 0}, {1: 100}, 0, ticks_per_second=100)


def _lines(board, **kwargs):
    arguments = {
        "pages": 2,
        "board": board,
        "deadline": 10,
        "driver_requests": 4,
        "cpu_before": {1: 0},
        "cpu_after": {1: 300},
        "client_cpu": 0.2,
        "ticks_per_second": 100,
        "short": False,
    }
    return lines_for("watchers", **{**arguments, **kwargs})


def test_the_lines_of_one_n_and_a_missed_page_fails_the_run():
    board = Board(results=[Result(7, confirmed_at=1.0), Result(8, confirmed_at=3.0)], requests=4)
    board.pages_shown = [{0: 1.5, 1: 3.25}, {0: 1.25}]
    run = _lines(board)
    assert "loadtest_watchers_2_p50_ms: 250 ms" in run.lines
    assert "loadtest_watchers_2_max_ms: 500 ms" in run.lines
    assert "loadtest_watchers_2_p99_ms: 500 ms (goal <= 2000 ms)" in run.lines
    assert "loadtest_watchers_2_missed: 1 of 4 (not shown within 10 s)" in run.lines
    assert "loadtest_watchers_2_requests_per_result: 4 req (4 page GETs + 4 report/confirm)" in run.lines
    assert "loadtest_watchers_2_cpu_per_result: 1.50 s (server processes, /proc utime+stime)" in run.lines
    assert run.problems == ["watchers 2: 1 page-results not shown within 10 s"]


def test_a_run_without_a_confirmed_result_prints_no_figure_and_fails():
    board = Board(results=[Result(7)])  # reported, its confirmation never answered 200
    board.pages_shown = [{}, {}]
    run = _lines(board)
    assert run.lines == []
    assert run.problems == ["watchers 2: no result was confirmed; no figure printed"]
    shown = Board(results=[Result(7, confirmed_at=1.0)])
    shown.pages_shown = [{0: 1.1}]
    assert _lines(shown, cpu_after={}).problems == ["watchers 2: no server process to measure; no figure printed"]


PAGE_BEFORE = b'<div class="slot slot-ready" id="slot-5"></div>'
PAGE_AFTER = b'<div class="slot slot-played" id="slot-5"></div>'


async def _server(bodies: list[bytes], served: list[int]):
    """A loopback HTTP server answering each GET with the next body (keep-alive)."""

    async def answer(reader, writer):
        while await reader.readline():
            while (await reader.readline()) not in (b"\r\n", b""):
                pass
            body = bodies[min(len(served), len(bodies) - 1)]
            served.append(1)
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
            await writer.drain()
        writer.close()

    return await asyncio.start_server(answer, "127.0.0.1", 0)


def test_a_changed_message_refetches_the_page_after_the_debounce_and_shows_the_result():
    async def scenario():
        served: list[int] = []
        server = await _server([PAGE_AFTER], served)
        port = server.sockets[0].getsockname()[1]
        board = Board(results=[Result(5)])
        page = Page(board, f"http://127.0.0.1:{port}", "/bracket/", "flight-3")
        page.hear(json.dumps({"type": "changed", "group": "flight-3"}))
        page.hear(json.dumps({"type": "changed", "group": "flight-3"}))  # within the debounce: one GET
        page.hear(json.dumps({"type": "changed", "group": "flight-9"}))  # not this page's group
        await asyncio.sleep(0.05)
        assert page.shown == {}  # the 100 ms debounce has not passed
        await page.pending
        await page.close()
        server.close()
        return board, page, served

    board, page, served = asyncio.run(scenario())
    assert list(page.shown) == [0]
    assert (board.requests, len(served)) == (1, 1)


def test_a_page_that_does_not_yet_hold_the_result_has_not_shown_it():
    async def scenario():
        served: list[int] = []
        server = await _server([PAGE_BEFORE], served)
        port = server.sockets[0].getsockname()[1]
        board = Board(results=[Result(5)])
        page = Page(board, f"http://127.0.0.1:{port}", "/bracket/", "flight-3")
        page.hear(json.dumps({"type": "changed", "group": "flight-3"}))
        await page.pending
        await page.close()
        server.close()
        return page

    assert asyncio.run(scenario()).shown == {}


def test_a_fragment_shows_at_once_without_a_request():
    board = Board(results=[Result(5), Result(6, version=12), Result(7, version=13)])
    page = Page(board, "http://127.0.0.1:1", "/bracket/", "flight-3")  # nothing listens: a GET would fail
    fragment = {
        "type": "fragment",
        "group": "flight-3",
        "version": 12,
        "regions": {"live-bracket": PAGE_AFTER.decode()},
    }
    page.hear(json.dumps(fragment))
    assert sorted(page.shown) == [0, 1]  # 5 by its markup, 6 by the version; 7 (version 13) not yet
    assert board.requests == 0


def test_the_bare_request_is_the_hashed_static_file_from_the_manifest(tmp_path):
    (tmp_path / "staticfiles.json").write_text(json.dumps({"paths": {"js/site.js": "js/site.abc123.js"}}))
    assert static_path(tmp_path, "static/") == "/static/js/site.abc123.js"
    with pytest.raises(SystemExit, match="not in"):
        static_path(tmp_path, "static/", "js/missing.js")
    plain = tmp_path / "plain"
    (plain / "js").mkdir(parents=True)
    (plain / "js" / "site.js").write_text("")
    assert static_path(plain, "/static/") == "/static/js/site.js"
    with pytest.raises(SystemExit, match="not collected"):
        static_path(tmp_path / "empty", "static/")
