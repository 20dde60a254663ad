"""The command line, the record, the demo and the web grimoire read each ruleset's registry entry
(``engine.rulesets.RULESETS``, ``engine.core.ruleset.Ruleset``) instead of naming the ruleset."""

from __future__ import annotations

import pytest

from bridge.app.cli import _parser
from bridge.app.demo_output import WHY, explain
from bridge.app.demo_settings import DEMO_SERIES, demo_settings
from bridge.app.export import format_record
from bridge.app.summary import summarize
from bridge.web.grimoire import NIGHT_READERS, SEAT_READERS, VOTE_READERS, grimoire
from bridge.web.sheets import NIGHT_SHEETS
from engine.errors import ConfigError
from engine.ids import Twist
from engine.record import ContestantRecord, SeriesRecord
from engine.rulesets import DEFAULT_RULESET, RULESETS, new_game, ruleset_of

NAMES = list(RULESETS)


def test_every_game_family_has_a_row_in_every_table_keyed_by_it() -> None:
    families = {r.family for r in RULESETS.values()}
    for table in (DEMO_SERIES, WHY, SEAT_READERS, NIGHT_READERS, VOTE_READERS, NIGHT_SHEETS):
        assert families <= set(table), table


@pytest.mark.parametrize("name", NAMES)
def test_the_command_line_takes_every_registered_ruleset(name: str) -> None:
    for command in ("demo", "simulate"):
        args = _parser().parse_args([command, "--ruleset", name, *(["--series", "1"] if command == "simulate" else [])])
        assert args.ruleset == name


def test_the_command_line_refuses_an_unregistered_ruleset_naming_the_registered_ones(capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        _parser().parse_args(["demo", "--ruleset", "chess"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'chess'" in err and all(repr(name) in err for name in NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_the_demo_series_has_the_rulesets_settings_within_its_range(name: str) -> None:
    spec = RULESETS[name]
    lo, hi = spec.sizes
    for n in (lo, hi):
        settings = demo_settings(n, name)
        assert isinstance(settings, spec.settings) and ruleset_of(settings) is spec
        assert len(settings.contestants) == n
        new_game(settings, 1)  # valid settings: the game takes them
    for n in (lo - 1, hi + 1):
        with pytest.raises(ConfigError, match=rf"^--contestants: {n}; a series has {lo}-{hi} contestants$"):
            demo_settings(n, name)


def test_the_default_ruleset_is_registered() -> None:
    assert DEFAULT_RULESET in RULESETS
    assert ruleset_of(demo_settings(12)).name == DEFAULT_RULESET


@pytest.mark.parametrize("name", NAMES)
def test_the_record_reads_its_heading_hand_survivor_and_columns_from_the_registry(name: str) -> None:
    spec = RULESETS[name]
    alex = ContestantRecord("Alex", 1, "faithful", None, winner=True)
    record = SeriesRecord(name, 1, [alex], {}, winner="faithful", termination="day_limit")
    text = format_record(record, "text")
    assert text.splitlines()[0] == f"# {spec.title}: series record"
    header = ["Contestant", *spec.hand, *(title for title, _ in spec.columns), "Series", "Result"]
    assert f"| {' | '.join(header)} |" in text.splitlines()
    assert f"| {spec.survivor} | Winner |" in text  # still in at the end, in the ruleset's word
    assert [k for k in summarize(record)[0] if k not in ("name", "out", "out_day", "winner")] == [
        key for _, key in spec.columns
    ]
    assert explain(record)[0].startswith("Why: ")


@pytest.mark.parametrize("name", NAMES)
def test_the_grimoire_page_lists_the_twists_of_the_series_ruleset(name: str) -> None:
    """The host page fills its twist list from the clock's ``twists`` (``bridge/web/static/host.js``): the ruleset's
    own, each one the page's ``start_twist`` control takes (``engine.ids.Twist``)."""
    game = new_game(demo_settings(RULESETS[name].sizes[0], name), 1)
    listed = grimoire(game)["clock"]["twists"]
    assert listed == list(RULESETS[name].twists)
    assert [Twist(t) for t in listed] == (list(Twist) if RULESETS[name].family == "traitors" else [])
