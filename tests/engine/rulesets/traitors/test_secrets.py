"""No secret leaks, over many seeded random series; and golden playthroughs (``docs/design.md#hidden-information``,
``#tests``; OpenSpiel).

A random series: random settings, bots choosing uniformly among ``Game.legal_actions`` (the host moves on now
and then). After every input, for every contestant, everything they were sent (effects addressed to them or
public) and their view (``view_for``) is checked against what the rulebook lets them know: their own hand,
their own power answers, their Traitor team after the Oath, the Traitors who came to them with an offer (rulebook
§7.2, §10 "Traitors' Equipment": they meet), and public reveals. The same run checks the
invariants: the dead never act, one banishment per round table, the series ends, the winner is the rulebook's.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.actions import Action, Advance, StartSeries
from engine.effects import Announce, Eliminated, GiveItem, MoveTo, Prompt, ShowTitle, Whisper
from engine.ids import FAITHFUL_POWERS, Allegiance, Place, Power, Twist
from engine.outcome import Termination, Winner
from engine.record import RoundTableRecord
from engine.rulesets.traitors.game import Game
from engine.rulesets.traitors.settings import Settings
from engine.rulesets.traitors.views import view_for

HOST = "Host"
NAMES = ("Alex", "Kai", "Zuri", "Steve", "Ari", "Noor", "Sunny", "Efe", "Makena", "Lena", "Omar", "Rhea")
TITLES = {p.title for p in Power}
STEP_LIMIT = 4000

PUBLIC_REVEALS = {"banish.reveal", "sheriff.success", "joker.banished", "series.over", "title.series_over"}
"""Public messages that reveal a secret because the rulebook says so (§4, §5 Sheriff, §6)."""
TEAM_KEYS = {
    "turret.traitors",
    "turret.no_event",
    "turret.choice",
    "turret.decided",
    "turret.nominated",
    "offer.accepted",
    "offer.declined",
    "turret.sword_bearer",
    "turret.guess.decided",
    "trial.decided",
    "confession.read",
    "confession.none",
    "confession.shields",
    "confession.no_shields",
    "confession.response_saved",
    "turret.after_confession",
    "turret.home",
    "offer.visit",
}
"""Messages sent to the Traitors together (every recipient must be a Traitor)."""
MET_KEYS = {"offer.met.seduce", "offer.met.ultimatum"}
"""The Traitors who come to the contestant they seduce or give an ultimatum: only that contestant is told, and
only the names of the Traitors who came."""
OWN_RESULTS = {
    "result.",
    "oath.sworn",
    "deal.",
    "vote.cast",
    "joker.",
    "guess.lost",
    "survivor.alerted",
    "shield.used",
    "power.",
    "diary.",
    "recruit.welcome",
    "finale.torch.chosen",
}
"""Private messages about the recipient's own hand, choices or power answers."""
HOLDER_UNNAMED = {"judge.protects": "The Judge", "sheriff.accuses": "The Sheriff"}
"""Public messages that name a power but never its holder."""


def random_twists(rng: random.Random, first_night_murder: bool) -> dict[int, tuple[Twist, ...]]:
    """Every twist of rulebook §8 on random days (never two conflicting ones on the same day)."""
    out: dict[int, tuple[Twist, ...]] = {}
    for day in range(1, 9):
        chosen = [t for t in Twist if rng.random() < 0.3]
        if Twist.MURDER in chosen and Twist.TRIAL in chosen:
            chosen.remove(rng.choice([Twist.MURDER, Twist.TRIAL]))
        if Twist.GUESS in chosen and Twist.SEER in chosen:
            chosen.remove(rng.choice([Twist.GUESS, Twist.SEER]))
        if Twist.GUESS in chosen and day < 2 and not first_night_murder:
            chosen.remove(Twist.GUESS)
        if chosen:
            out[day] = tuple(chosen)
    return out


def random_settings(rng: random.Random, *, all_twists: bool = False) -> Settings:
    n = rng.randint(6, 12)
    twists = {d: (Twist.DOUBLE_VOTE,) for d in range(1, 6) if rng.random() < 0.3}
    if all_twists:
        first = rng.random() < 0.3
        return Settings(
            contestants=NAMES[:n],
            traitors=rng.randint(1, (n - 1) // 3),
            hosts=(HOST,),
            drunk=rng.choice(["none", "possible", "always"]),
            first_night_murder=first,
            joker_night=rng.choice([None, 1, 2, 3]),
            twists=random_twists(rng, first),
            confession_shields=rng.randint(1, 3),
            trial_contestants=rng.choice([2, 3]),
        )
    return Settings(
        contestants=NAMES[:n],
        traitors=rng.randint(1, (n - 1) // 3),
        hosts=(HOST,),
        drunk=rng.choice(["none", "possible", "always"]),
        first_night_murder=rng.random() < 0.3,
        joker_night=rng.choice([None, 1, 1, 2, 3]),
        joker_outcome=rng.choice(["joker_wins", "traitors_win"]),
        twists=twists,
    )


def pick(game: Game, rng: random.Random) -> Action:
    options: list[Action] = []
    for n in game.contestants():
        options += game.legal_actions(n)
    if not options or rng.random() < 0.08:
        return Advance(HOST)
    return rng.choice(options)


def texts_for(game: Game, effect: object, name: str) -> list[tuple[str | None, str]]:
    """(message key, text) pairs ``name`` receives from ``effect`` (public effects reach everyone)."""
    out: list[tuple[str | None, str]] = []
    to = getattr(effect, "to", None)
    if isinstance(effect, MoveTo):
        to = frozenset(effect.players)
    if to is not None and name not in to:
        return out
    if isinstance(effect, (Announce, Whisper)):
        out.append((effect.message.key, effect.message.text))
    elif isinstance(effect, Prompt):
        out.append((effect.message.key, effect.message.text))
        out += [(effect.message.key, c.label) for c in effect.choices]
    elif isinstance(effect, ShowTitle):
        out.append((effect.title.key, effect.title.text))
    elif isinstance(effect, GiveItem):
        out.append((None, f"{effect.item.value} {effect.label or ''}"))
    elif isinstance(effect, MoveTo):
        out.append((None, f"{effect.place.value} {' '.join(effect.players)}"))
    return out


def check_effects(game: Game, effects: list[object]) -> None:
    traitors = {n for n, p in game.players.items() if p.allegiance is Allegiance.TRAITOR}
    for e in effects:
        to = getattr(e, "to", None)
        if isinstance(e, MoveTo) and e.place in (Place.TURRET, Place.OATH_SPOT):
            assert set(e.players) <= traitors, "only Traitors go to the Turret and the Oath"
        if to is not None and len(to) > 1:
            key = e.message.key if hasattr(e, "message") else None
            assert key in TEAM_KEYS and to <= traitors, f"{key} sent to several contestants: {sorted(to)}"
        for name, p in game.players.items():
            for key, text in texts_for(game, e, name):
                assert "Drunk" not in text, f"{name} saw drunkenness: {text}"
                if key in PUBLIC_REVEALS or (key or "").startswith("result."):
                    continue  # whoever it names
                own = key is not None and any(key.startswith(k) for k in OWN_RESULTS)
                words = text.split(" ")
                for other, q in game.players.items():
                    if (
                        other == name
                        or other not in text  # named nowhere in it (the checks below look for the name)
                        or other not in words
                        and other + "," not in text
                        and other + "." not in text
                        and other + ":" not in text
                    ):
                        continue
                    if key in TEAM_KEYS:
                        assert p.allegiance is Allegiance.TRAITOR
                        continue
                    if key in MET_KEYS:
                        assert game.night is not None and game.night.offer is not None
                        assert game.night.offer[1] == name and other in game.night.traitors, f"{name} met {other}"
                        continue
                    if own and key in ("vote.cast",):
                        continue
                    text = text.replace(HOLDER_UNNAMED.get(key or "", "\0"), "")
                    words = text.split(" ")
                    secret = {q.power.title if q.power else "", q.false_power.title if q.false_power else ""} - {""}
                    for word in secret:
                        assert word not in text, f"{name} learned {other}'s power from {key}: {text}"
                    assert q.allegiance.title not in text or key in ("banish.reveal",), (
                        f"{name} learned {other}'s allegiance: {text}"
                    )


def check_views(game: Game) -> None:
    traitors = {n for n, p in game.players.items() if p.allegiance is Allegiance.TRAITOR}
    for name, p in game.players.items():
        v = view_for(game, name)
        assert v.allegiance == p.allegiance.value
        if v.traitors:
            assert p.sworn and p.allegiance is Allegiance.TRAITOR and set(v.traitors) <= traitors
        text = v.to_text()
        assert "Drunk" not in text
        if p.allegiance is Allegiance.FAITHFUL:
            assert v.power == (p.power.title if p.power else None)
        else:
            assert v.power == (p.power.title if p.power and p.sworn else None), (
                "a Traitor learns their power at the Oath"
            )
        assert v.joker == (name in game.powers.jokers)


def play(seed: int, *, check: bool = True, trace: list[str] | None = None, all_twists: bool = False) -> Game:
    rng = random.Random(seed)
    game = Game(random_settings(rng, all_twists=all_twists), seed)
    now = 0.0
    effects = game.handle(StartSeries(), now=now)
    banishments = 0
    views: dict[str, str] = {}
    for step in range(STEP_LIMIT):
        if check:
            check_effects(game, effects)
            check_views(game)
        if trace is not None:
            for n in game.contestants():
                v = view_for(game, n)
                text = v.to_text() + "".join(
                    f"\n  > {m}" for m in v.messages[len(views.get(n + "#m", "").splitlines()) :]
                )
                if views.get(n) != v.to_text() or len(v.messages) != int(views.get(n + "#c", "0")):
                    trace.append(text)
                views[n] = v.to_text()
                views[n + "#c"] = str(len(v.messages))
                views[n + "#m"] = "\n".join(v.messages)
        banishments += sum(1 for e in effects if isinstance(e, Eliminated) and e.how == "banished")
        if game.is_over:
            break
        for n, p in game.players.items():
            if not p.alive:
                assert game.legal_actions(n) == [], "the dead never act"
        action = pick(game, rng)
        if trace is not None:
            trace.append(f"--- step {step + 1}: {action.to_dict()}")
        now += 1.0
        effects = game.handle(action, now=now)
    assert game.is_over, f"seed {seed}: the series did not end in {STEP_LIMIT} inputs"
    tables = [e for e in game.record.events if isinstance(e, RoundTableRecord)]
    assert banishments == sum(1 for t in tables if t.banished), "one banishment per round table"
    assert all(t.banished or not t.rounds for t in tables[:-1])
    out = game.outcome
    assert out is not None
    living_traitors = [n for n, p in game.players.items() if p.alive and p.allegiance is Allegiance.TRAITOR]
    if out.termination is Termination.JOKER_BANISHED:
        if game.settings.joker_outcome == "joker_wins":
            assert out.winner is Winner.JOKER and len(out.winners) == 1
        else:
            assert out.winner is Winner.TRAITORS and list(out.winners) == living_traitors
    elif living_traitors:
        assert out.winner is Winner.TRAITORS and list(out.winners) == living_traitors
    else:
        assert out.winner is Winner.FAITHFUL
    return game


@pytest.mark.rule("T2.3", "T10.8")
@pytest.mark.parametrize("chunk", range(6))
def test_no_secret_leaks_in_random_series(chunk: int) -> None:
    """300 seeded random series in six chunks of 50."""
    for seed in range(chunk * 50, chunk * 50 + 50):
        play(seed)


@pytest.mark.parametrize("chunk", range(3))
def test_no_secret_leaks_with_every_twist(chunk: int) -> None:
    """150 seeded random series with every twist of rulebook §8 scheduled on random days (and the bar)."""
    for seed in range(chunk * 50, chunk * 50 + 50):
        play(seed, all_twists=True)


def test_random_series_cover_the_twists() -> None:
    """The twist series above really run every twist (else the leak test proves little)."""
    seen: set[str] = set()
    results: set[str] = set()
    for seed in range(50):
        g = play(seed, check=False, all_twists=True)
        for e in g.record.to_dict()["events"]:
            if e["type"] == "twist":
                seen.add(e["twist"])
                results.add(f"{e['twist']}:{e['details'].get('result', '')}")
        assert g.twist_state.drinks, "somebody took a drink"
    assert seen >= {"murder", "confession", "guess", "seer", "trial"}
    assert {"murder:murdered", "murder:nothing"} <= results


def test_replay_is_exact_with_twists() -> None:
    for seed in (4, 9):
        g = play(seed, check=False, all_twists=True)
        again = Game.replay(g.settings, g.seed, g.log)
        assert again.record.to_dict() == g.record.to_dict()
        assert [view_for(again, n) for n in again.contestants()] == [view_for(g, n) for n in g.contestants()]


def test_random_series_cover_the_powers() -> None:
    """The random series above really exercise the powers and the Joker (else the leak test proves little)."""
    used: set[str] = set()
    jokers = 0
    for seed in range(60):
        g = play(seed, check=False)
        for e in g.record.to_dict()["events"]:
            if e["type"] == "night":
                used |= {u["power"] for u in e["powers"]}
                jokers += e["joker"] is not None
    assert used >= {p.value for p in FAITHFUL_POWERS} - {"survivor"} | {"bartender", "falsifier", "silencer"}
    assert jokers > 0


def test_replay_is_exact() -> None:
    for seed in (3, 17, 101):
        g = play(seed, check=False)
        again = Game.replay(g.settings, g.seed, g.log)
        assert again.record.to_dict() == g.record.to_dict()
        assert [view_for(again, n) for n in again.contestants()] == [view_for(g, n) for n in g.contestants()]


PLAYTHROUGHS = Path(__file__).resolve().parents[3] / "playthroughs"


@pytest.mark.parametrize("seed", [5, 23, 42])
def test_golden_playthrough(seed: int, golden) -> None:
    """A complete seeded series: after every input, each contestant whose view changed, with new messages."""
    trace: list[str] = [f"# seed {seed}: every contestant's view after each input (shown when it changed)"]
    g = play(seed, trace=trace)
    trace.append(f"# outcome: {g.outcome.winner.value} ({g.outcome.termination.value})")
    golden(PLAYTHROUGHS / f"seed_{seed}.txt", "\n".join(trace) + "\n")
