"""No secret leaks and the invariants, over many seeded random series of both club rulesets (the same property
test as ``test_secrets.py`` for The Traitors): after every input, for every contestant, every effect they
receive and their view may name another contestant's role only where the rulebook lets them know it."""

from __future__ import annotations

import random

import pytest

from engine.actions import Action, Advance, StartSeries
from engine.effects import Prompt, ShowTitle
from engine.outcome import Winner
from engine.rulesets import RULESETS, new_game
from engine.rulesets.club.game import ClubSettings

HOST = "Monk"
NAMES = ("Alex", "Kai", "Zuri", "Steve", "Ari", "Noor", "Sunny", "Efe", "Makena", "Lena", "Omar", "Rhea",
         "Tomas", "Ines", "Yuki", "Bram")  # fmt: skip
STEP_LIMIT = 3000
SERIES = 150


def allowed(key: str, over: bool) -> bool:
    """Messages that may name a contestant together with a role: check answers (to the checker and the Heir),
    team introductions and picks (to the team), the Black Knights' turned cards, and the end of the series."""
    return (
        key.startswith(("bk.check.", "my.check.", "bk.team", "my.team", "club.team.pick", "bk.reveal."))
        or (over and key.startswith(("my.reveal.", "series.over", "title.series_over")))
    )


def random_settings(rng: random.Random, ruleset: str) -> ClubSettings:
    n = rng.randint(8, 16)
    return ClubSettings(
        ruleset, NAMES[:n], hosts=(HOST,), day_execution=rng.random() < 0.85, max_days=rng.choice([30, 6]),
        mad_knight_solo_win=ruleset == "black_knights" and rng.random() < 0.3,
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
@pytest.mark.parametrize("ruleset", ["black_knights", "mafia_yakuza"])
@pytest.mark.parametrize("chunk", range(3))
def test_no_secret_leaks_in_random_series(ruleset: str, chunk: int) -> None:
    """150 seeded random series per ruleset, in three chunks."""
    per = SERIES // 3
    for seed in range(chunk * per, chunk * per + per):
        play(ruleset, seed)


@pytest.mark.parametrize("ruleset", ["black_knights", "mafia_yakuza"])
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
        for ruleset in ("black_knights", "mafia_yakuza"):
            g = play(ruleset, seed)
            winners.add(g.outcome.winner.value)
            for e in g.record.to_dict()["events"]:
                if e["type"] == "club_night":
                    causes |= set(e["deaths"].values())
                repeats += e["type"] == "club_day" and e["repeat"]
    assert causes >= {"shot", "poison", "mine", "explosion"}
    assert winners >= {"white_order", "black_order", "mafia", "yakuza"}
    assert repeats > 0
