"""A new club ruleset is its own module plus its registry entry (``docs/rulesets.md``, "A new ruleset").

The toy ruleset here, Lantern Watch, lives only in this file, written as a ruleset module would be: its roles,
wake order, check answer, win check, default deal, rules table, ``ClubGame`` subclass, English messages and registry
entry. Smugglers (a team that shoots together, knowing each other) hide among the harbour; the Lamplighter checks
one contestant a night. The ``lantern_watch`` fixture registers it (``engine.rulesets.register``) for one test and
takes it out after, as a real ruleset's module is registered for good; nothing else in the engine, the bots, the
demo or ``traitors simulate`` is told about it.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from engine.actions import Action, Advance, CastVote, SkipPower, StartSeries, TimerExpired, UsePower
from engine.core.night import CHECK, SHOT
from engine.core.ruleset import Ruleset
from engine.effects import Announce, Prompt, Whisper
from engine.errors import ConfigError
from engine.messages import CATALOG, render
from engine.outcome import Winner
from engine.rulesets import RULESETS, new_game, register, unregister
from engine.rulesets.club.game import ClubGame, ClubPhase
from engine.rulesets.club.settings import ClubRules, ClubSettings, Role, Step, faction_members
from engine.rulesets.club.spec import club_ruleset, role_messages

# ---------------------------------------------------------------------------------------------- the module

HARBOUR = "town"
SMUGGLERS = "mafia"

ROLES: dict[str, Role] = {
    r.code: r
    for r in (
        Role("smuggler", SMUGGLERS, "Smuggler"),
        Role("lamplighter", HARBOUR, "Lamplighter"),
        Role("sailor", HARBOUR, "Sailor"),
    )
}
STEPS = (Step("smugglers", ("smuggler",), SHOT, team=SMUGGLERS), Step("lamplighter", ("lamplighter",), CHECK))
KNOWS = (frozenset({"smuggler"}),)


def check_answer(step: str, actor_role: str, role: str) -> str:
    return "lw.check." + ("smuggler" if role == "smuggler" else "clear")


def win(alive: Mapping[str, str], settings: ClubSettings) -> tuple[Winner, tuple[str, ...]] | None:
    smugglers = faction_members(alive, ROLES, SMUGGLERS)
    if not smugglers:
        return Winner.TOWN, faction_members(alive, ROLES, HARBOUR)
    if 2 * len(smugglers) >= len(alive):
        return Winner.MAFIA, smugglers
    return None


def default_deal(n: int) -> tuple[str, ...]:
    if not 6 <= n <= 10:
        raise ConfigError(f"contestants: {n}; Lantern Watch allows 6-10")
    return ("smuggler", "smuggler", "lamplighter") + ("sailor",) * (n - 3)


RULES = ClubRules(
    name="lantern_watch",
    prefix="lw",
    roles=ROLES,
    steps=STEPS,
    knows=KNOWS,
    check_answer=check_answer,
    win=win,
    default_deal=default_deal,
    sizes=(6, 10),
    intro=(),
    first_night=1,
    reveal_role=False,
    nominations=False,
    keep_option=False,
)


class LanternWatchGame(ClubGame):
    RULES = RULES


MESSAGES = {
    "lw.welcome": "Lantern Watch: {count:contestants}. Keep your role secret.",
    "lw.team": "Your crew: {players}.",
    "lw.prompt.smugglers": "Smugglers: whom do you throw in the harbour?",
    "lw.prompt.lamplighter": "Lamplighter: whose face do you light?",
    "lw.check.smuggler": "{player} is a Smuggler.",
    "lw.check.clear": "{player} is no Smuggler.",
    **role_messages("lw", {c: r.title for c, r in ROLES.items()}, {"setup": "In the game: {name} × {{count}}."}),
}

RULESET = club_ruleset(
    "lantern_watch",
    "Lantern Watch",
    LanternWatchGame,
    "lantern-watch.md",
    columns=(("Days", "days"), ("Votes cast", "votes_cast")),
    messages=MESSAGES,
    good_side=HARBOUR,
    rule_text="lantern-watch-rules.txt",
    rule_id=r"LW\d+",
)

# ---------------------------------------------------------------------------------------------- the tests

DEAL = (
    ("Alex", "smuggler"),
    ("Kai", "lamplighter"),
    ("Zuri", "sailor"),
    ("Steve", "smuggler"),
    ("Ari", "sailor"),
    ("Noor", "sailor"),
)
NAMES = tuple(n for n, _ in DEAL)


@pytest.fixture
def lantern_watch() -> Iterator[Ruleset]:
    """Lantern Watch registered for one test."""
    register(RULESET)
    try:
        yield RULESET
    finally:
        unregister(RULESET.name)


def told(effects: list[object], name: str) -> list[str]:
    """The English lines ``name`` was shown: announcements, whispers and prompts to them, in order."""
    lines = []
    for e in effects:
        if isinstance(e, Announce) or (isinstance(e, Whisper | Prompt) and name in e.to):
            lines.append(render(e.message.key, dict(e.message.params)))
    return lines


def test_registering_adds_the_ruleset_and_its_messages_and_unregistering_takes_them_away() -> None:
    assert "lantern_watch" not in RULESETS and "lw.welcome" not in CATALOG
    register(RULESET)
    try:
        assert RULESETS["lantern_watch"] is RULESET and RULESET.rules is RULES and RULESET.sizes == (6, 10)
        assert CATALOG["lw.deal.lamplighter"] == "Your role: Lamplighter."
        with pytest.raises(ValueError, match="already registered"):
            register(RULESET)
    finally:
        unregister("lantern_watch")
    assert "lantern_watch" not in RULESETS and not set(MESSAGES) & set(CATALOG)


def test_a_ruleset_may_not_take_another_rulesets_message_keys() -> None:
    thief = club_ruleset(
        "thief",
        "Thief",
        LanternWatchGame,
        "thief.md",
        columns=(),
        messages={"bk.welcome": "x"},
        good_side=HARBOUR,
        rule_text="thief.txt",
        rule_id=r"TH\d+",
    )
    with pytest.raises(ValueError, match="bk.welcome"):
        register(thief)
    assert "thief" not in RULESETS and CATALOG["bk.welcome"].startswith("Black Knights")


def test_the_engine_plays_it_and_tells_each_contestant_only_their_own(lantern_watch: Ruleset) -> None:
    game = new_game(ClubSettings("lantern_watch", NAMES, hosts=("Host",), deal=DEAL), seed=1)
    now, fx = 0.0, []  # the time in seconds, every effect so far

    def do(action: Action) -> None:
        nonlocal now
        now += 1.0
        fx.extend(game.handle(action, now=now))

    def expire() -> None:
        nonlocal now
        now = max(now, game.deadline or now)
        fx.extend(game.handle(TimerExpired(game.phase_seq), now=now))

    do(StartSeries())
    while game.phase is ClubPhase.NIGHT:  # night 1: the Smugglers throw Zuri in, the Lamplighter lights Alex
        for a in list(game.pending):
            step = game.current_step().name
            do(UsePower(a, "Zuri") if step == "smugglers" else UsePower(a, "Alex") if a == "Kai" else SkipPower(a))
        expire()
    assert game.phase is ClubPhase.MORNING
    do(Advance("Host"))
    while game.phase is ClubPhase.DISCUSSION:
        do(Advance("Host"))
    for voter in game.living():  # the harbour votes out Alex; the Smugglers vote for Kai
        do(CastVote(voter, "Kai" if voter in ("Alex", "Steve") else "Alex"))

    alex, kai, ari = told(fx, "Alex"), told(fx, "Kai"), told(fx, "Ari")
    assert alex[0] == "Lantern Watch: 6 contestants. Keep your role secret." == kai[0]
    assert "Your role: Smuggler." in alex and "Your role: Lamplighter." in kai and "Your role: Sailor." in ari
    assert "In the game: Smuggler × 2." in ari and "In the game: Lamplighter × 1." in ari
    assert "Your crew: Steve (Smuggler)." in alex and not any(line.startswith("Your crew") for line in kai + ari)
    assert "Smugglers: whom do you throw in the harbour?" in alex
    assert "Lamplighter: whose face do you light?" in kai and "Lamplighter: whose face do you light?" not in alex
    assert "Alex is a Smuggler." in kai and not any("is a Smuggler" in line for line in alex + ari)
    assert "Zuri did not wake up." in ari and "Zuri" not in game.living()
    assert "Alex" not in game.living() and game.phase is ClubPhase.NIGHT  # the vote sent Alex away
    assert not any("Smuggler" in line and "Alex" in line for line in told(fx, "Ari"))  # the role stays secret


def test_bots_play_it_to_a_win_of_one_side(lantern_watch: Ruleset) -> None:
    from engine.sim import play_series

    winners = set()
    for seed in range(6):
        game, _ = play_series(ClubSettings("lantern_watch", NAMES), seed, bots="smart")
        assert game.is_over and game.outcome is not None
        winners.add(game.outcome.winner)
        record = game.record.to_dict()
        assert record["ruleset"] == "lantern_watch"
    assert winners <= {Winner.TOWN, Winner.MAFIA, Winner.NOBODY} and winners & {Winner.TOWN, Winner.MAFIA}


def test_no_secret_leaks_in_its_random_series(lantern_watch: Ruleset, monkeypatch: pytest.MonkeyPatch) -> None:
    """The club rulesets' property test (``test_club_secrets.py``) over seeded random series of Lantern Watch: no
    effect or view names another contestant's role where the rules keep it secret; the win check agrees."""
    monkeypatch.syspath_prepend(str(Path(__file__).parent))
    from test_club_secrets import play

    winners = {play("lantern_watch", seed).outcome.winner for seed in range(30)}  # type: ignore[attr-defined]
    assert {Winner.TOWN, Winner.MAFIA} <= winners


def test_with_the_black_knights_day_its_own_cards_are_turned() -> None:
    """The same ruleset switched to the Black Knights' day (``nominations``, ``reveal_role``): every message of a
    random series is in the catalogue, a departure turns the card under the ruleset's own prefix, and the welcome
    says whether the day ends at the gallows."""
    court_rules = dataclasses.replace(RULES, nominations=True, reveal_role=True)
    court_game = type("LanternCourtGame", (ClubGame,), {"RULES": court_rules})
    court = dataclasses.replace(RULESET, game=court_game, rules=court_rules)
    register(court)
    try:
        keys: list[str] = []
        for seed in range(8):
            rng = random.Random(seed)
            game = new_game(ClubSettings("lantern_watch", NAMES, hosts=("Host",)), seed)
            fx = game.handle(StartSeries(), now=0.0)
            for step in range(1, 2000):
                keys += [e.message.key for e in fx if isinstance(e, Announce | Whisper | Prompt)]
                if game.is_over:
                    break
                legal = [a for n in game.contestants() for a in game.legal_actions(n)]
                fx = game.handle(rng.choice(legal) if legal and rng.random() > 0.05 else Advance("Host"), now=step)
            assert game.is_over
    finally:
        unregister("lantern_watch")
    assert not [k for k in keys if k not in CATALOG and k not in MESSAGES]
    assert "bk.day_execution.on" in keys and any(k.startswith("lw.reveal.") for k in keys)
    assert not any(k.startswith("bk.reveal.") for k in keys)


def test_simulate_offers_and_plays_it(lantern_watch: Ruleset, capsys: pytest.CaptureFixture[str]) -> None:
    from bridge.app.cli import main

    assert main(["simulate", "--json", "--ruleset", "lantern_watch", "--series", "4", "--contestants", "8"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ruleset"] == "lantern_watch" and data["contestants"] == 8
    assert sum(w["wins"] for w in data["win_rates"].values()) == 4
    assert set(data["win_rates"]) <= {"town", "mafia", "nobody"}


@pytest.mark.slow(reason="a whole Lantern Watch series in the sandbox")
def test_the_demo_plays_it_in_the_castle(lantern_watch: Ruleset) -> None:
    from bridge.app.demo import play_demo

    game, sandbox, service = asyncio.run(
        play_demo(8, seed=4, ruleset="lantern_watch", keep_sandbox=True, fast_forward=True)
    )
    try:
        chats = {n: [m.text for m in sandbox.chat(n)] for n in game.contestants()}
        errors = sandbox.snapshot()["errors"]
    finally:
        sandbox.stop()
    assert game.outcome is not None and game.ruleset == "lantern_watch"
    assert service.failed_commands == [] and errors == []
    roles = {c.name: c.power for c in game.record.contestants}
    for name, lines in chats.items():
        private = [line.removeprefix("[Castle, to you] ") for line in lines if line.startswith("[Castle, to you] ")]
        assert f"Your role: {roles[name]}." in private, name
        assert not [line for line in private if line.startswith("Your role") and roles[name] not in line], name
        crew = [line for line in private if line.startswith("Your crew")]
        assert bool(crew) is (roles[name] == "Smuggler"), name
        checks = [line for line in lines if "a Smuggler." in line or "no Smuggler." in line]
        assert not checks or roles[name] == "Lamplighter", name
        assert lines[0] == "[Castle] Lantern Watch: 8 contestants. Keep your role secret."
