"""No secret leaks and the invariants, over many seeded random series of every registered club ruleset (the same
property test as ``test_secrets.py`` for The Traitors): after every input, for every contestant, every effect they
receive and their view may name another contestant's role only where the rulebook lets them know it."""

from __future__ import annotations

import functools
import random

import pytest

from engine.actions import Action, Advance, StartSeries
from engine.effects import Prompt, ShowTitle
from engine.outcome import Winner
from engine.rulesets import RULESETS, new_game
from engine.rulesets.club.game import ClubSettings

HOST = "Monk"
NAMES = (
    "Alex",
    "Kai",
    "Zuri",
    "Steve",
    "Ari",
    "Noor",
    "Sunny",
    "Efe",
    "Makena",
    "Lena",
    "Omar",
    "Rhea",
    "Tomas",
    "Ines",
    "Yuki",
    "Bram",
)
STEP_LIMIT = 3000
SERIES = 150
CLUB = [name for name, r in RULESETS.items() if r.rules is not None]
"""Every registered club ruleset (an entry with a rules table)."""


@functools.cache
def _naming(rulesets: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The key prefixes that may name a contestant with a role in ``rulesets``: always, and once the series is
    over."""
    rules = [RULESETS[name].rules for name in rulesets if RULESETS[name].rules is not None]
    known = [f"{r.prefix}.{kind}" for r in rules for kind in ("check.", "team")]
    turned = [f"{r.prefix}.reveal." for r in rules if r.reveal_role]
    shown = [f"{r.prefix}.reveal." for r in rules if not r.reveal_role]
    return (*known, "club.team.pick", *turned), (*shown, "series.over", "title.series_over")


def allowed(key: str, over: bool) -> bool:
    """Messages that may name a contestant together with a role: check answers (to the checker and the Heir),
    team introductions and picks (to the team), turned cards where the ruleset turns them (Black Knights), and the
    end of the series."""
    always, at_the_end = _naming(tuple(RULESETS))
    return key.startswith(always) or (over and key.startswith(at_the_end))


def random_settings(rng: random.Random, ruleset: str) -> ClubSettings:
    entry = RULESETS[ruleset]
    n = rng.randint(*entry.sizes)
    return ClubSettings(
        ruleset,
        NAMES[:n],
        hosts=(HOST,),
        day_execution=rng.random() < 0.85,
        max_days=rng.choice([30, 6]),
        mad_knight_solo_win="mad_knight" in entry.rules.roles and rng.random() < 0.3,
    )


def pick(game, rng: random.Random) -> Action:
    options: list[Action] = []
    for n in game.contestants():
        options += game.legal_actions(n)
    if not options or rng.random() < 0.06:
        return Advance(HOST)
    return rng.choice(options)


def check_effects(game, effects) -> None:
    titles = {n: game.role_title(p.dealt) for n, p in game.players.items()}
    titles_now = {n: game.role_title(p.role) for n, p in game.players.items()}
    for e in effects:
        to = getattr(e, "to", None)
        message = getattr(e, "message", None) or getattr(e, "title", None)
        if message is None:
            continue
        key = message.key
        if to is not None and len(to) > 1:
            assert key.startswith(("club.team.pick", "bk.check.lord")), key
            groups = [frozenset({n, *game.known_to(n)}) for n in to]
            assert all(to <= g for g in groups), f"{key} to {sorted(to)}"
        if isinstance(e, ShowTitle) and to is not None:
            (holder,) = to
            assert key.endswith("." + game.players[holder].dealt) or key == "title.series_over"
        texts = [message.text] + ([c.label for c in e.choices] if isinstance(e, Prompt) else [])
        for text in texts:
            words = text.replace(",", " ").replace(".", " ").replace(":", " ").replace("'s", " ").split()
            for other in game.players:
                if other not in words or allowed(key, game.is_over):
                    continue
                for title in {titles[other], titles_now[other]}:
                    assert title not in text, f"{key} names {other} with {title}: {text}"


def check_views(game) -> None:
    for name, p in game.players.items():
        v = game.view_for(name)
        assert v.power == game.role_title(p.role)
        assert set(v.traitors) == set(game.known_to(name))
        for entry in v.public.out:
            q = game.players[entry.name]
            assert entry.revealed is None or (game.rules.reveal_role and entry.revealed in (q.role, q.dealt))


def play(ruleset: str, seed: int) -> object:
    rng = random.Random(seed)
    game = new_game(random_settings(rng, ruleset), seed)
    now = 0.0
    effects = game.handle(StartSeries(), now=now)
    for _ in range(STEP_LIMIT):
        check_effects(game, effects)
        if game.is_over:
            break
        for n, p in game.players.items():
            if not p.alive:
                assert game.legal_actions(n) == [], "the dead never act"
        action = pick(game, rng)
        now += 1.0
        effects = game.handle(action, now=now)
    check_views(game)
    assert game.is_over, f"{ruleset} seed {seed}: no end in {STEP_LIMIT} inputs"
    out = game.outcome
    alive = {n: p.role for n, p in game.players.items() if p.alive}
    assert set(out.winners) <= set(alive)
    if out.winner is Winner.NOBODY:
        assert out.winners == ()
    else:
        assert game.rules.win(alive, game.settings) == (out.winner, out.winners)
    return game


@pytest.mark.rule("BK1", "MY1")
@pytest.mark.parametrize("ruleset", CLUB)
@pytest.mark.parametrize("chunk", range(3))
def test_no_secret_leaks_in_random_series(ruleset: str, chunk: int) -> None:
    """150 seeded random series per ruleset, in three chunks."""
    per = SERIES // 3
    for seed in range(chunk * per, chunk * per + per):
        play(ruleset, seed)


@pytest.mark.parametrize("ruleset", CLUB)
def test_replay_is_exact(ruleset: str) -> None:
    for seed in (3, 17):
        g = play(ruleset, seed)
        again = RULESETS[ruleset].game.replay(g.settings, g.seed, g.log)
        assert again.record.to_dict() == g.record.to_dict()
        assert [again.view_for(n) for n in again.contestants()] == [g.view_for(n) for n in g.contestants()]


def test_random_series_cover_the_mechanics() -> None:
    """The random series really reach mines, poison, explosions, heals, repeats and every winner kind."""
    causes: set[str] = set()
    winners: set[str] = set()
    repeats = 0
    for seed in range(40):
        for ruleset in CLUB:
            g = play(ruleset, seed)
            winners.add(g.outcome.winner.value)
            for e in g.record.to_dict()["events"]:
                if e["type"] == "club_night":
                    causes |= set(e["deaths"].values())
                repeats += e["type"] == "club_day" and e["repeat"]
    assert causes >= {"shot", "poison", "mine", "explosion"}
    assert winners >= {"white_order", "black_order", "mafia", "yakuza"}
    assert repeats > 0
