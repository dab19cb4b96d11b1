"""config/pipeline.py is the one place that wires the apps into each other's hooks: every hook runs the steps it
lists, in its order; no product module registers with a hook itself (read from the source); the steps' declared
locks follow the lock order, which base.locks checks at runtime; and a confirmation locks nothing the pipeline does
not declare for it."""

import ast
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.utils.module_loading import import_string

from accounts.badges import _COUNTS
from base import locks
from base.hooks import Hook
from config import pipeline
from config.pipeline import Event, Step
from games.matchplay import hooks as match_hooks
from games.matchplay.hooks import _placers
from games.models.matches import _DIRECTOR_CHECKS
from tests.tournaments.builders import drawn_event, play_all

ROOT = Path(__file__).resolve().parents[2]
SKIPPED = {".venv", "tests", "node_modules", "migrations"}
PIPELINE = ROOT / "config" / "pipeline.py"
# The registries that are plain functions, not Hook objects: the pipeline calls them, nobody else.
REGISTRY_FUNCTIONS = {"on_place_matches", "register_director_check"}


def product_sources() -> list[Path]:
    """Every Python file of the project outside the tests (and the virtualenv, whose walk alone took seconds)."""
    tops = [p for p in ROOT.iterdir() if p.is_dir() and p.name not in SKIPPED and not p.name.startswith(".")]
    found = [p for top in tops for p in top.rglob("*.py") if not SKIPPED & set(p.relative_to(ROOT).parts)]
    return sorted(found + list(ROOT.glob("*.py")))


def hook_classes(trees: dict[Path, ast.Module]) -> set[str]:
    """Hook and the classes built on it (Conditions, Sweepers), by name."""
    names, grew = {"Hook"}, True
    while grew:
        grew = False
        for tree in trees.values():
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef) and node.name not in names:
                    bases = {b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in node.bases}
                    if bases & names:
                        names.add(node.name)
                        grew = True
    return names


def declared_hooks(trees: dict[Path, ast.Module]) -> dict[str, str]:
    """{dotted path: name} of every module-level `name = Hook()` (or a class built on Hook) in product code."""
    classes, found = hook_classes(trees), {}
    for path, tree in trees.items():
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for node in tree.body:
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                func = node.value.func
                called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
                if called in classes:
                    for target in node.targets:
                        if isinstance(target, ast.Name):
                            found[f"{module}.{target.id}"] = target.id
    return found


def aliases(trees: dict[Path, ast.Module], hook_names: set[str]) -> set[str]:
    """Module-level names bound to a hook's register (`on_result_confirmed = result_confirmed.register`)."""
    found = set()
    for tree in trees.values():
        for node in tree.body:
            value = node.value if isinstance(node, ast.Assign) else None
            if isinstance(value, ast.Attribute) and value.attr == "register" and _last_name(value.value) in hook_names:
                found |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return found


def _last_name(node) -> str:
    if isinstance(node, ast.Name):
        return node.id
    return node.attr if isinstance(node, ast.Attribute) else ""


def registrations(relative: str, tree: ast.Module, hook_names: set[str], alias_names: set[str]) -> list[str]:
    """`file:line` of each call (or decorator) that registers with a hook: `<hook>.register(...)`, `@<hook>.register`,
    an `on_…` alias of one, or a registry function."""
    found = []
    for node in ast.walk(tree):
        targets = [node.func] if isinstance(node, ast.Call) else []
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            targets += node.decorator_list
        for target in targets:
            name = _last_name(target)
            registers = (
                isinstance(target, ast.Attribute) and name == "register" and _last_name(target.value) in hook_names
            )
            if registers or name in alias_names | REGISTRY_FUNCTIONS:
                found.append(f"{relative}:{target.lineno}")
    return found


def stray_registrations(sources: dict[str, str], hook_names: set[str], alias_names: set[str]) -> list[str]:
    found = []
    for relative, source in sources.items():
        if relative != "config/pipeline.py":
            found += registrations(relative, ast.parse(source), hook_names, alias_names)
    return found


@pytest.fixture(scope="module")
def trees() -> dict[Path, ast.Module]:
    return {path: ast.parse(path.read_text(encoding="utf-8")) for path in product_sources()}


def test_no_product_module_registers_with_a_hook_but_the_pipeline(trees):
    hook_names = set(declared_hooks(trees).values())
    alias_names = aliases(trees, hook_names)
    assert {"result_confirmed", "flight_results_changed", "sweepers", "club_consent"} <= hook_names
    assert {"on_result_confirmed", "on_flight_results_changed"} <= alias_names
    sources = {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8") for p in trees}
    assert stray_registrations(sources, hook_names, alias_names) == [], (
        "Only config/pipeline.py registers with a hook: list the callback as a step there."
    )
    assert registrations("config/pipeline.py", trees[PIPELINE], hook_names, alias_names), "the check reads nothing"


@pytest.mark.parametrize(
    ("source", "line"),
    [
        ("from games.matchplay import hooks\nhooks.result_confirmed.register(print)\n", 2),
        ("from games.matchplay.hooks import result_confirmed\n\n@result_confirmed.register\ndef heard(m, r): ...\n", 3),
        ("from tournaments.hooks import on_flight_results_changed\non_flight_results_changed(print)\n", 2),
        ("from base.queue import sweepers\nsweepers.register(print)\n", 2),
        ("from games.matchplay.hooks import on_place_matches\non_place_matches(print)\n", 2),
    ],
)
def test_the_registration_check_catches_a_sample(trees, source, line):
    hook_names = set(declared_hooks(trees).values())
    alias_names = aliases(trees, hook_names)
    assert stray_registrations({"games/live.py": source}, hook_names, alias_names) == [f"games/live.py:{line}"]
    assert stray_registrations({"config/pipeline.py": source}, hook_names, alias_names) == []
    assert (
        stray_registrations(
            {"games/live.py": "from accounts import badges\nbadges.register('x', print)\n"}, hook_names, alias_names
        )
        == []
    )


def test_every_hook_of_the_apps_is_in_the_pipeline(trees):
    wired = {e.hook for e in pipeline.EVENTS} | set(pipeline.CONDITIONS) | {"base.queue.sweepers"}
    assert set(declared_hooks(trees)) == wired


def test_every_live_and_permission_module_is_listed(trees):
    """A new <app>/live.py or permissions.py is loaded only if the pipeline lists it (no autodiscovery)."""
    modules = {".".join(p.relative_to(ROOT).with_suffix("").parts) for p in trees}
    assert {m for m in modules if m.endswith(".live") and m != "base.live"} == set(pipeline.LIVE_MODULES)
    assert {m for m in modules if m.endswith(".permissions")} == set(pipeline.PERMISSION_MODULES)


def test_every_hook_runs_the_listed_steps_in_the_listed_order():
    for event in pipeline.EVENTS:
        assert import_string(event.hook).registered() == tuple(import_string(s.call) for s in event.steps), event.hook
    assert import_string("base.queue.sweepers").registered() == tuple(import_string(s.call) for s in pipeline.SWEEPERS)
    for hook, steps in pipeline.CONDITIONS.items():
        assert import_string(hook).registered() == tuple(import_string(s.call) for s in steps)
    assert [import_string(s.call) for s in pipeline.PLACERS] == _placers
    assert [import_string(s.call) for s in pipeline.DIRECTOR_CHECKS] == _DIRECTOR_CHECKS
    assert {name: import_string(path) for name, path in pipeline.BADGES.items()} == _COUNTS


def test_a_confirmation_notifies_first_and_moves_the_bracket_before_the_ratings():
    """The order first=True and INSTALLED_APPS used to give, now the list's: the step that locks nothing first,
    then the bracket (which fires the flight's steps), the pools, the ladder."""
    owners = [s.owner for s in pipeline.event("games.matchplay.hooks.result_confirmed").steps]
    assert owners == ["notifications", "games", "tournaments", "ratings", "ratings"]
    flight = [s.call for s in pipeline.event("tournaments.hooks.flight_results_changed").steps]
    assert flight.index("tournaments.services.boards.results_changed") < flight.index(
        "calcutta.services.settlement.on_flight_results_changed"
    )


def test_base_locks_checks_the_order_the_pipeline_declares():
    assert locks.LOCK_ORDER == pipeline.LOCK_ORDER
    assert locks.KNOWN_INVERSIONS == pipeline.KNOWN_INVERSIONS
    pipeline.check_locks()  # what install() checked at startup


def test_steps_that_would_lock_out_of_order_fail_naming_the_step():
    late_then_early = Event(
        "games.matchplay.hooks.result_confirmed",
        held=("games.Match",),
        steps=(
            Step("ratings.services.pools.on_result_confirmed", "ratings", locks=("ratings.RatingPool",)),
            Step("calcutta.services.settlement.on_flight_results_changed", "calcutta", locks=("calcutta.Calcutta",)),
        ),
    )
    with pytest.raises(
        ImproperlyConfigured, match=r"on_flight_results_changed \(calcutta\).*calcutta.Calcutta locked after"
    ):
        pipeline.check_locks((late_then_early,))
    fired_too_late = Event(
        "tournaments.hooks.flight_results_changed",
        held=(),
        steps=(Step("a.b", "tournaments", locks=("tournaments.Board",)),),
    )
    fires = Event(
        "games.matchplay.hooks.result_confirmed",
        held=("games.Match",),
        steps=(
            Step("ratings.x", "ratings", locks=("ratings.EventPoints",)),
            Step("tournaments.y", "tournaments", fires=("tournaments.hooks.flight_results_changed",)),
        ),
    )
    with pytest.raises(ImproperlyConfigured, match=r"tournaments.y → tournaments.hooks.flight_results_changed → a.b"):
        pipeline.check_locks((fires, fired_too_late))
    unknown = Event("x.y", held=(), steps=(Step("a.b", "points", locks=("ratings.PointsAward",)),))
    with pytest.raises(ImproperlyConfigured, match="not in base.locks.LOCK_ORDER"):
        pipeline.check_locks((unknown,))
    in_order = Event(
        "x.y", held=("tournaments.Slot",), steps=(Step("a.b", "x", locks=("tournaments.Slot", "ratings.Ladder")),)
    )
    pipeline.check_locks((in_order,))


def test_a_pipeline_that_would_lock_out_of_order_fails_at_startup(monkeypatch):
    confirmed = pipeline.event("games.matchplay.hooks.result_confirmed")
    bracket, pools = confirmed.steps[2], confirmed.steps[3]
    swapped = Event(confirmed.hook, held=confirmed.held, steps=(pools, bracket))  # the pools before the bracket
    monkeypatch.setattr(pipeline, "EVENTS", (swapped, *pipeline.EVENTS[1:]))
    with pytest.raises(ImproperlyConfigured, match=r"tournaments.receivers.result_confirmed \(tournaments\)"):
        pipeline.install()


def test_installing_again_changes_nothing_and_a_callback_registered_elsewhere_fails_at_startup():
    before = match_hooks.result_confirmed.registered()
    pipeline.install()
    assert match_hooks.result_confirmed.registered() == before

    def elsewhere(match, report):
        pass

    hook = Hook()
    hook.register(elsewhere)
    match_hooks.result_confirmed.register(elsewhere)
    try:
        with pytest.raises(ImproperlyConfigured, match=r"result_confirmed has callbacks registered outside.*elsewhere"):
            pipeline.install()
    finally:
        match_hooks.result_confirmed.remove(elsewhere)
    assert match_hooks.result_confirmed.registered() == before


@pytest.mark.django_db
def test_a_bracket_played_to_its_end_locks_only_what_the_pipeline_declares(club, director_user, monkeypatch):
    """The declared locks are what the code takes: every model a confirmation locks (its match, then its steps'
    and the steps of the hooks they fire) is declared for result_confirmed, and they come in the declared order."""
    taken: list[str] = []
    check = locks.refusal

    def recording(held, label):
        taken.append(label)
        return check(held, label)

    _event, flights = drawn_event(club, director_user, 4)
    monkeypatch.setattr(locks, "refusal", recording)
    play_all(director_user, [flights["main"]])

    def closure(event: Event) -> set[str]:
        labels = set(event.held)
        for step in event.steps:
            labels |= set(step.locks)
            for fired in step.fires:
                labels |= closure(pipeline.event(fired))
        return labels

    declared = closure(pipeline.event("games.matchplay.hooks.result_confirmed"))
    assert {"games.Match", "tournaments.Slot", "ratings.EventPoints", "ratings.RatingPool"} <= set(taken)
    assert set(taken) <= declared
