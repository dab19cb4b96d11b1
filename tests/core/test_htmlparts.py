"""The changed parts of a live region (base.htmlparts): a page that swaps them shows exactly the newer version, and
anything the parts cannot say (the skeleton changed) asks for the whole region."""

import pytest

from base import htmlparts

OLD = (
    '<div class="bracket-page" id="live-bracket" data-live-version="3"><h1>Main</h1><ol>'
    '<li class="cell"><div class="slot" id="slot-1"><span class="side">Anna</span><div class="x">in</div></div></li>'
    '<li class="cell"><div class="slot" id="slot-2"><span class="side">Ben</span></div></li>'
    '<li class="cell"><div class="slot" id="slot-3"><span class="tbd">…</span></div></li>'
    '</ol><label for="q">Find</label><input id="q" value="a"><p>Entries</p></div>'
)


def newer(text: str, version: int = 4) -> str:
    return text.replace('data-live-version="3"', f'data-live-version="{version}"')


def test_a_result_changes_two_slots_and_the_patch_is_those_two_only():
    new = newer(OLD).replace(">Anna<", ">Anna <b>7</b><").replace('<span class="tbd">…</span>', "<span>Anna</span>")
    parts = htmlparts.changed_parts(htmlparts.split(OLD), htmlparts.split(new))
    assert set(parts) == {"slot-1", "slot-3"}
    assert parts["slot-1"].startswith('<div class="slot" id="slot-1">') and parts["slot-1"].endswith("</div></div>")
    assert htmlparts.patched(OLD, parts, 4) == new


def test_nothing_changed_but_the_version_is_an_empty_patch():
    assert htmlparts.changed_parts(htmlparts.split(OLD), htmlparts.split(newer(OLD))) == {}
    assert htmlparts.patched(OLD, {}, 4) == newer(OLD)


@pytest.mark.parametrize(
    "change",
    [
        lambda t: t.replace("<h1>Main</h1>", "<h1>Main (finished)</h1>"),  # outside every part
        lambda t: t.replace('value="a"', 'value="b"'),  # a void element is never a part
        lambda t: t.replace("</ol>", '<li><div class="slot" id="slot-4">new</div></li></ol>'),  # a part more
        lambda t: t.replace('<div class="slot" id="slot-2"><span class="side">Ben</span></div>', ""),  # one fewer
    ],
)
def test_a_change_outside_the_parts_asks_for_the_whole_region(change):
    assert htmlparts.changed_parts(htmlparts.split(OLD), htmlparts.split(newer(change(OLD)))) is None


def test_a_region_with_an_id_twice_or_a_part_left_open_is_not_split():
    assert htmlparts.split(OLD.replace('id="slot-2"', 'id="slot-1"')) is None
    assert htmlparts.split('<div id="r"><div id="a"><div>open</div>') is None
    assert htmlparts.changed_parts(None, htmlparts.split(OLD)) is None


def test_a_part_holding_its_own_tag_nested_ends_at_its_own_end_tag():
    text = '<div id="r">\n<div id="a"><div><div>deep</div></div>\n</div><div id="b">b</div></div>'
    split = htmlparts.split(text)
    assert split.parts == {"a": '<div id="a"><div><div>deep</div></div>\n</div>', "b": '<div id="b">b</div>'}
