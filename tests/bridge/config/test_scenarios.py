"""Scripted scenarios: the rulebook's Day One table (§4) and finale table (§9), golden outputs, file errors.

Each ``tests/scenarios/<name>.toml`` is played through the engine and its record compared, in every format of
``bridge.app.export``, with ``<name>.text``, ``<name>.wiki`` and ``<name>.json`` (rewrite them with
``pytest --update-goldens``). The rulebook facts are also asserted one by one, so a golden file rewritten by
mistake cannot hide a wrong table.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from bridge.app.cli import main
from bridge.app.export import FORMATS, format_record, summarize
from bridge.config.play import play_scenario
from bridge.config.scenario import ScenarioError, load_scenario, parse_scenario
from bridge.config.settings_json import settings_to_json
from engine.errors import ConfigError
from engine.ids import Allegiance, Power
from engine.outcome import Termination, Winner
from engine.record import RoundTableRecord, TorchRound
from engine.rulesets.traitors.game import Game
from engine.rulesets.traitors.twists.guess import GuessPower

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
SCENARIO_FILES = sorted(SCENARIOS.glob("*.toml"))
GOLDEN_SUFFIX = {"text": ".text", "wiki": ".wiki", "json": ".json"}

DAY_ONE_TABLE = """\
| Voter | First vote | Second vote |
|---|---|---|
| Sunny | Alex | No vote |
| Efe | Alex | Alex |
| Makena | Kai | Alex |
| Alex | Sunny | No vote |
| Kai | Sunny×2 | Sunny×2 |
| Zuri | Sunny | Sunny |
| Steve | Alex | Sunny |
| Ari | Alex | Sunny |
| Noor | Efe | Sunny |"""
"""Rulebook §4, as in ``docs/rules/traitors.md``."""

FINALE_TABLE = """\
| Finalist | Vote 1 | Banishment | Vote 2 | Result |
|---|---|---|---|---|
| Alex | Banish Again | Sunny | End Game | Winner |
| Kai | End Game | Sunny | End Game | Winner |
| Zuri | Banish Again | Sunny | End Game | Winner |
| Sunny | End Game | Alex | Banished | |"""
"""Rulebook §9, as in ``docs/rules/traitors.md``."""


def play(name: str) -> Game:
    return play_scenario(load_scenario(SCENARIOS / f"{name}.toml"))


def round_tables(game: Game) -> list[RoundTableRecord]:
    return [e for e in game.record.events if isinstance(e, RoundTableRecord)]


# ------------------------------------------------------------------------------------------- goldens


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("path", SCENARIO_FILES, ids=lambda p: p.stem)
def test_scenario_output_matches_golden(path: Path, fmt: str, golden: Callable[[Path, str], None]) -> None:
    game = play_scenario(load_scenario(path))
    golden(path.with_suffix(GOLDEN_SUFFIX[fmt]), format_record(game.record, fmt) + "\n")


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=lambda p: p.stem)
def test_every_shipped_scenario_loads_and_plays(path: Path) -> None:
    scenario = load_scenario(path)
    game = play_scenario(scenario)
    assert game.log[0]["action"] == "start_series"
    # The input log replays to the same record (rulebook [house] §1: a series replays exactly).
    again = Game.replay(scenario.settings, scenario.seed, game.log)
    assert again.record.to_dict() == game.record.to_dict()


def test_json_is_the_record_dict() -> None:
    game = play("finale")
    assert json.loads(format_record(game.record, "json")) == {
        **game.record.to_dict(),
        "summary": summarize(game.record),
    }


def test_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown format"):
        format_record(play("finale").record, "html")


# ------------------------------------------------------------------------------------------- rulebook §1 and §4


class TestDayOne:
    """Rulebook §1 example deal and §4 Day One table."""

    @pytest.mark.rule("T1.5")
    def test_example_deal(self) -> None:
        game = play("day_one")
        players = game.players
        assert list(players) == ["Sunny", "Efe", "Makena", "Alex", "Kai", "Zuri", "Steve", "Ari", "Noor"]
        expected = {
            "Sunny": (Allegiance.TRAITOR, Power.BARTENDER, Power.ANALYST),
            "Efe": (Allegiance.TRAITOR, Power.FALSIFIER, Power.RESEARCHER),
            "Makena": (Allegiance.TRAITOR, Power.SILENCER, Power.SHERIFF),
            "Alex": (Allegiance.FAITHFUL, Power.CLEANSER, None),
            "Kai": (Allegiance.FAITHFUL, Power.DETECTIVE, None),
            "Zuri": (Allegiance.FAITHFUL, Power.HISTORIAN, None),
            "Steve": (Allegiance.FAITHFUL, Power.MIMIC, None),
            "Ari": (Allegiance.FAITHFUL, Power.SOBER, None),
            "Noor": (Allegiance.FAITHFUL, Power.SPY, None),
        }
        assert {n: (p.allegiance, p.power, p.false_power) for n, p in players.items()} == expected

    @pytest.mark.rule("T4.8", "T4.4")
    def test_vote_counts_and_banishment(self) -> None:
        table = round_tables(play("day_one"))[0]
        assert table.day == 1
        assert table.double_vote == "Kai"
        assert [r.kind for r in table.rounds] == ["first", "second"]
        assert [r.count for r in table.rounds] == ["4-4-1-1", "6-2"]
        assert sorted(table.rounds[1].candidates) == ["Alex", "Sunny"]
        assert table.banished == "Sunny"
        assert table.revealed == "traitor"

    @pytest.mark.rule("T4.8", "T4.1", "T4.4")
    def test_each_voters_row(self) -> None:
        table = round_tables(play("day_one"))[0]
        first, second = table.rounds
        rows = {
            v: (first.votes[v], first.weights.get(v, 1), second.votes[v], second.weights.get(v, 1))
            for v in table.present
        }
        assert rows == {
            "Sunny": ("Alex", 1, None, 1),
            "Efe": ("Alex", 1, "Alex", 1),
            "Makena": ("Kai", 1, "Alex", 1),
            "Alex": ("Sunny", 1, None, 1),
            "Kai": ("Sunny", 2, "Sunny", 2),
            "Zuri": ("Sunny", 1, "Sunny", 1),
            "Steve": ("Alex", 1, "Sunny", 1),
            "Ari": ("Alex", 1, "Sunny", 1),
            "Noor": ("Efe", 1, "Sunny", 1),
        }

    @pytest.mark.rule("T4.8")
    @pytest.mark.parametrize("fmt", ["text", "wiki"])
    def test_table_as_the_rulebook_writes_it(self, fmt: str) -> None:
        out = format_record(play("day_one").record, fmt)
        if fmt == "text":
            assert DAY_ONE_TABLE in out
            assert "Result: Sunny banished (Traitor)\nVote count: 4-4-1-1, 6-2\n" in out
        else:
            rows = [line.split("|")[1:] for line in DAY_ONE_TABLE.splitlines()[2:]]
            for voter, a, b, _ in rows:
                assert f"! {voter.strip()}\n| {a.strip()} || {b.strip()}\n" in out
            assert "! Vote count\n| 4-4-1-1 || 6-2\n" in out
            assert '! Result\n| colspan="2" | Sunny banished (Traitor)\n' in out


# ------------------------------------------------------------------------------------------- rulebook §9


class TestFinale:
    """Rulebook §9 finale table."""

    @pytest.mark.rule("T9.7", "T9.5", "T9.6")
    def test_counts_and_winners(self) -> None:
        game = play("finale")
        events = game.record.events
        start = next(i for i, e in enumerate(events) if isinstance(e, TorchRound))
        finale = events[start:]
        assert [type(e).__name__ for e in finale] == ["TorchRound", "RoundTableRecord", "TorchRound"]
        vote1, banishment, vote2 = finale
        assert isinstance(vote1, TorchRound) and isinstance(vote2, TorchRound)
        assert isinstance(banishment, RoundTableRecord) and banishment.finale
        assert vote1.count == "2-2"
        assert vote1.choices == {"Alex": "banish_again", "Kai": "end_game", "Zuri": "banish_again", "Sunny": "end_game"}
        assert [r.count for r in banishment.rounds] == ["3-1"]
        assert banishment.rounds[0].votes == {"Alex": "Sunny", "Kai": "Sunny", "Zuri": "Sunny", "Sunny": "Alex"}
        assert banishment.banished == "Sunny" and banishment.revealed is None
        assert vote2.count == "3-0"
        assert vote2.choices == {"Alex": "end_game", "Kai": "end_game", "Zuri": "end_game"}
        assert game.outcome is not None
        assert game.outcome.winner is Winner.FAITHFUL
        assert game.outcome.termination is Termination.FINALE_AGREED
        assert game.outcome.winners == ("Alex", "Kai", "Zuri")

    @pytest.mark.rule("T9.7")
    def test_table_as_the_rulebook_writes_it(self) -> None:
        out = format_record(play("finale").record, "text")
        assert FINALE_TABLE + "\nVote count: 2-2, 3-1, 3-0\n" in out
        assert out.endswith("\nFaithful win\nWinners: Alex, Kai, Zuri")

    def test_wiki_table(self) -> None:
        out = format_record(play("finale").record, "wiki")
        assert "! Finalist !! Vote 1 !! Banishment !! Vote 2 !! Result\n" in out
        assert "! Alex\n| Banish Again || Sunny || End Game || Winner\n" in out
        assert "! Sunny\n| End Game || Alex || Banished ||\n" in out  # the empty Result cell
        assert "! Vote count\n| 2-2 || 3-1 || 3-0 ||\n" in out
        assert out.endswith("'''Faithful win'''\n\nWinners: Alex, Kai, Zuri")


# ------------------------------------------------------------------------------------------- scenario errors

MINIMAL = """\
hosts = ["Host"]
contestants = ["Alex", "Kai", "Zuri", "Sunny", "Efe", "Noor"]
traitors = 1
"""


DEALT = 'hosts = ["Host"]\n' + "".join(
    f'[[deal]]\nname = "{n}"\nallegiance = "{a}"\npower = "{p}"\n'
    for n, a, p in [
        ("Sunny", "traitor", "bartender"),
        ("Alex", "faithful", "cleanser"),
        ("Kai", "faithful", "detective"),
        ("Zuri", "faithful", "historian"),
        ("Efe", "faithful", "mimic"),
        ("Noor", "faithful", "spy"),
    ]
)
"""Six contestants, Sunny the only Traitor (powers by their short names)."""


def test_error_is_a_config_error_naming_file_and_key_path() -> None:
    text = MINIMAL + '[[input]]\naction = "advance"\n' * 12 + '[[input]]\naction = "cast_vote"\nvoter = "Kai"\n'
    with pytest.raises(ScenarioError) as info:
        parse_scenario(text, "day_one.toml")
    assert isinstance(info.value, ConfigError)
    assert str(info.value) == "day_one.toml: input[12].target: field required"


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ('[[input]]\naction = "cast_vot"\n', "input[0].action: unknown action 'cast_vot'"),
        ('[[input]]\nvoter = "Kai"\n', "input[0].action: field required"),
        ('[[input]]\naction = "advance"\nhots = "Host"\n', "input[0].hots: unknown key"),
        ('[[input]]\naction = "choose_torch"\nfinalist = "Kai"\ntorch = "red"\n', "input[0].torch: input should be"),
        ('[[input]]\naction = "advance"\nat = "soon"\n', "input[0].at: input should be a valid number"),
        ("seed = 1.5\n", "seed: input should be a valid integer"),
        ('twists = { 1 = ["double vote", "mystery"] }\n', "twists.1[1]: unknown twist 'mystery'"),
        ('twists = { one = ["double_vote"] }\n', "twists.one: a key is a day number"),
        ("durations = { lunch = 5 }\n", "durations.lunch: unknown phase"),
        ('no_votes = "skip"\n', "no_votes: input should be 'revote' or 'deadlock'"),
    ],
)
def test_bad_keys(extra: str, message: str) -> None:
    with pytest.raises(ScenarioError, match="^x.toml: " + _re(message)):
        parse_scenario(MINIMAL + extra, "x.toml")


@pytest.mark.parametrize("value", ["revote", "deadlock"])
def test_no_votes_setting_is_a_scenario_key(value: str) -> None:
    """House rule no_votes (a first vote with no vote at all), read from a scenario or series file."""
    settings = parse_scenario(MINIMAL + f'no_votes = "{value}"\n', "x.toml").settings
    assert settings.no_votes == value
    with pytest.raises(ScenarioError, match="no_votes: not a setting of the black_knights ruleset"):
        parse_scenario('ruleset = "black_knights"\ncontestants = ["Alex"]\nno_votes = "deadlock"\n', "y.toml")


@pytest.mark.rule("T9.4")
@pytest.mark.parametrize("value", [True, False])
def test_end_when_no_traitors_is_a_scenario_key(value: bool) -> None:
    """T9.4: *"A series will end only when all players are in agreement, or when only two players remain."* The
    early end when no Traitor is left is a series setting, off unless a scenario or series file turns it on."""
    assert parse_scenario(MINIMAL, "x.toml").settings.end_when_no_traitors is False
    settings = parse_scenario(MINIMAL + f"end_when_no_traitors = {str(value).lower()}\n", "x.toml").settings
    assert settings.end_when_no_traitors is value
    with pytest.raises(ScenarioError, match="end_when_no_traitors: not a setting of the black_knights ruleset"):
        parse_scenario('ruleset = "black_knights"\ncontestants = ["Alex"]\nend_when_no_traitors = true\n', "y.toml")


@pytest.mark.parametrize("value", [True, False])
def test_night_fixed_length_is_a_scenario_key(value: bool) -> None:
    """The fixed night ([house]: every night stage runs its whole clock) is a series setting, on unless a scenario
    or series file turns it off, and kept in the settings' JSON form."""
    assert parse_scenario(MINIMAL, "x.toml").settings.night_fixed_length is True
    settings = parse_scenario(MINIMAL + f"night_fixed_length = {str(value).lower()}\n", "x.toml").settings
    assert settings.night_fixed_length is value
    assert settings_to_json(settings)["night_fixed_length"] is value
    with pytest.raises(ScenarioError, match="night_fixed_length: not a setting of the black_knights ruleset"):
        parse_scenario('ruleset = "black_knights"\ncontestants = ["Alex"]\nnight_fixed_length = true\n', "y.toml")


def test_a_deal_and_a_guess_power_input_read_without_a_warning() -> None:
    """Powers, allegiances and twists are read by name ("The Cleanser") and dumped as their codes, with no
    serializer warning (a warning is an error here)."""
    import warnings

    text = DEALT + '[[input]]\naction = "guess_power"\nguesser = "Sunny"\ntarget = "Alex"\npower = "The Cleanser"\n'
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        scenario = parse_scenario(text, "x.toml")
    (guess,) = [i.action for i in scenario.inputs]
    assert guess == GuessPower("Sunny", "Alex", Power.CLEANSER)


def _re(text: str) -> str:
    import re

    return re.escape(text)


def test_bad_deal_names_the_entry() -> None:
    text = 'hosts = ["Host"]\n' + "".join(
        f'[[deal]]\nname = "{n}"\nallegiance = "{a}"\npower = "{p}"\n'
        for n, a, p in [
            ("Alex", "faithful", "The Cleanser"),
            ("Kai", "faithful", "The Wizard"),
            ("Zuri", "traitor", "x"),
        ]
    )
    with pytest.raises(ScenarioError) as info:
        parse_scenario(text, "deal.toml")
    assert info.value.problems[0].startswith("deal[1].power: unknown power 'The Wizard'")
    assert info.value.problems[1].startswith("deal[2].power: unknown power 'x'")


def test_settings_errors_name_the_file() -> None:
    with pytest.raises(ScenarioError, match=r"^x\.toml: traitors: 3 Traitors with 6 contestants"):
        parse_scenario(MINIMAL.replace("traitors = 1", "traitors = 3"), "x.toml")


def test_scripted_deal_is_only_checked_for_consistency() -> None:
    # The rulebook's example deal: 3 Traitors among 9, the most a random deal of 9 allows (at most a third).
    assert load_scenario(SCENARIOS / "day_one.toml").settings.deal is not None
    nine = '["Sunny", "Efe", "Makena", "Alex", "Kai", "Zuri", "Steve", "Ari", "Noor"]'
    assert parse_scenario(f"contestants = {nine}\ntraitors = 3\n", "x.toml").settings.traitors == 3
    with pytest.raises(
        ScenarioError,
        match=_re("traitors: 4 Traitors with 9 contestants; need at least 1 and at most a third (3 at most)"),
    ):
        parse_scenario(f"contestants = {nine}\ntraitors = 4\n", "x.toml")
    # Consistency is still checked: a Traitor holds a Traitor power, the counts agree.
    with pytest.raises(ScenarioError, match=_re("x.toml: deal[0] (Sunny): a Traitor's power must be a Traitor power")):
        parse_scenario(DEALT.replace('power = "bartender"', 'power = "spy"'), "x.toml")
    with pytest.raises(ScenarioError, match="x.toml: traitors: 2, but the deal has 1 Traitors"):
        parse_scenario("traitors = 2\n" + DEALT, "x.toml")


def test_refused_input_names_file_index_and_engine_message() -> None:
    text = MINIMAL + '[[input]]\naction = "advance"\n[[input]]\naction = "cast_vote"\nvoter = "Kai"\ntarget = "Alex"\n'
    scenario = parse_scenario(text, "x.toml")
    with pytest.raises(ScenarioError) as info:
        play_scenario(scenario)
    assert str(info.value) == (
        "x.toml: input[1]: the engine refused cast_vote(voter=Kai, target=Alex): "
        "The vote is not open. [illegal.vote.not_open]"
    )


def test_refused_shorthand_names_the_part() -> None:
    text = MINIMAL + '[[input]]\naction = "timer"\n[[input]]\naction = "oath"\ntraitor = "Kai"\n'
    with pytest.raises(
        ScenarioError, match=_re("x.toml: input[1].oath[0]: the engine refused swear_oath(traitor=Kai)")
    ):
        play_scenario(parse_scenario(text, "x.toml"))


def test_time_must_not_go_backwards() -> None:
    text = MINIMAL + '[[input]]\naction = "advance"\nat = 10\n[[input]]\naction = "advance"\nat = 5\n'
    with pytest.raises(ScenarioError, match=_re("x.toml: input[1].at: 5 is earlier than the previous input (10)")):
        play_scenario(parse_scenario(text, "x.toml"))


def test_times_default_to_one_second_apart_and_timer_to_the_deadline() -> None:
    text = DEALT + '[[input]]\naction = "advance"\n[[input]]\naction = "oath"\ntraitor = "Sunny"\n'
    text += '[[input]]\naction = "timer"\n[[input]]\naction = "advance"\nhost = "Host"\n'
    game = play_scenario(parse_scenario(text, "x.toml"))
    times = [entry["now"] for entry in game.log]
    # start 0; advance 1; three Oath answers 2, 3, 4; the Oath's 90 s clock, which runs whole however soon she
    # answered (phases house rule 9), runs out at 91; advance 92.
    assert times == [0.0, 1.0, 2.0, 3.0, 4.0, 91.0, 92.0]
    assert game.log[5] == {"now": 91.0, "action": "timer_expired", "phase_seq": 2}


def test_advance_needs_a_host() -> None:
    text = (
        'contestants = ["Alex", "Kai", "Zuri", "Sunny", "Efe", "Noor"]\ntraitors = 1\n[[input]]\naction = "advance"\n'
    )
    with pytest.raises(ScenarioError, match=_re("x.toml: input[0].host: no host given and the scenario sets no hosts")):
        parse_scenario(text, "x.toml")


def test_every_engine_input_has_a_scenario_form() -> None:
    from bridge.config.inputs import SHORTHANDS, input_models
    from engine.actions import ACTION_TYPES

    assert set(input_models()) == set(ACTION_TYPES) | set(SHORTHANDS)


def test_every_full_form_has_the_engine_inputs_keys() -> None:
    """A full form is the engine input's JSON form (``Action.to_dict()``) plus ``at``: the same keys, so a table
    copied from an input log plays as that input."""
    import dataclasses

    from bridge.config.inputs import input_models
    from engine.actions import ACTION_TYPES

    forms = input_models()
    for kind, cls in ACTION_TYPES.items():
        keys = set(forms[kind].model_fields) - {"action", "at"}
        assert keys == {cls.actor_key if f.name == "actor" else f.name for f in dataclasses.fields(cls)}, kind


def test_all_file_problems_are_listed_at_once() -> None:
    text = MINIMAL + 'seed = "one"\n[[input]]\naction = "cast_vote"\n'
    with pytest.raises(ScenarioError) as info:
        parse_scenario(text, "x.toml")
    assert info.value.problems == [
        "seed: input should be a valid integer",
        "input[0].voter: field required",
        "input[0].target: field required",
    ]


def test_unreadable_file() -> None:
    with pytest.raises(ScenarioError, match="^nowhere.toml: cannot read the file"):
        load_scenario("nowhere.toml")


def test_cli_play(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["play", str(SCENARIOS / "finale.toml"), "--format", "text"]) == 0
    assert (SCENARIOS / "finale.text").read_text(encoding="utf-8") == capsys.readouterr().out
    bad = tmp_path / "bad.toml"
    bad.write_text(MINIMAL + '[[input]]\naction = "votes"\n', encoding="utf-8")
    assert main(["play", str(bad)]) == 2
    assert f"{bad}: input[0].votes: field required" in capsys.readouterr().err


def test_an_input_log_is_a_scenario() -> None:
    """docs/scenarios.md: a ``Game.log`` entry is a full-form input once ``now`` is renamed ``at``."""
    game = play("day_one")
    lines = ["seed = 1", 'hosts = ["Host"]', 'twists = { 1 = ["double_vote"] }']
    for c in game.record.contestants:
        lines += ["[[deal]]", f'name = "{c.name}"', f'allegiance = "{c.allegiance}"', f'power = "{c.power}"']
        if c.false_power:
            lines.append(f'false_power = "{c.false_power}"')
    for entry in game.log:
        lines.append("[[input]]")
        for key, value in entry.items():
            lines.append(f"{'at' if key == 'now' else key} = {json.dumps(value)}")
    again = play_scenario(parse_scenario("\n".join(lines) + "\n", "from_log.toml"))
    assert again.log == game.log
    assert again.record.to_dict() == game.record.to_dict()


def _random_series(seed: int) -> Game:
    """A series of random legal inputs (host moves and timers mixed in): ties, deadlocks, recruits, finales."""
    import random

    from engine.actions import Advance, StartSeries, TimerExpired
    from engine.ids import Twist
    from engine.rulesets.traitors.settings import Settings

    rng = random.Random(seed)
    n = rng.randint(6, 12)
    names = tuple(f"Player{i}" for i in range(1, n + 1))
    settings = Settings(
        contestants=names,
        traitors=rng.randint(1, (n - 1) // 3),
        hosts=("Host",),
        twists={d: (Twist.DOUBLE_VOTE,) for d in range(1, 8) if rng.random() < 0.5},
        first_night_murder=rng.random() < 0.5,
    )
    game = Game(settings, seed)
    now = 0.0
    game.handle(StartSeries(), now=now)
    while not game.is_over and now < 3000:
        now += 1
        actions = [a for p in names for a in game.legal_actions(p)]
        if actions and rng.random() < 0.9:
            game.handle(rng.choice(actions), now=now)
        else:
            game.handle(rng.choice([Advance("Host"), TimerExpired(game.phase_seq)]), now=now)
    return game


@pytest.mark.parametrize("seed", range(40))
def test_random_series_render_with_square_tables(seed: int) -> None:
    record = _random_series(seed).record
    assert json.loads(format_record(record, "json")) == {**record.to_dict(), "summary": summarize(record)}
    for block in format_record(record, "text").split("\n\n"):
        rows = [line for line in block.splitlines() if line.startswith("|")]
        assert len({row.count("|") for row in rows}) <= 1, block
    for table in format_record(record, "wiki").split("{|")[1:]:
        body = table.split("\n|}")[0].split("\n", 1)[1]  # drop the 'class="wikitable"' line
        assert len({_wiki_width(row) for row in body.split("\n|-\n")}) == 1, table


def _wiki_width(row: str) -> int:
    """Columns of one MediaWiki table row (``! a`` / ``| b || c`` lines; ``colspan`` counted)."""
    import re

    width = 0
    for line in row.splitlines():
        sep = "!!" if line.startswith("!") else "||"
        for cell in line[1:].split(sep):
            span = re.match(r'\s*colspan="(\d+)"\s*\|', cell)
            width += int(span.group(1)) if span else 1
    return width
