"""The balance lab's core: whole series played by bot contestants through the engine alone (no I/O, no clock).

A series is driven as the service would drive it, minus the castle: ``StartSeries``; then, over and over, every
contestant the game has prompted (a ``Prompt`` effect) since its phase last changed is asked by their bot, in seat
order, to pick one of their ``legal_actions``; when nobody asked has anything left to do, the phase clock runs out
(``TimerExpired(phase_seq)``, at the stored deadline). A contestant acts at most once per kind of input per phase
(a finalist votes once per clock: again after the host's question, which starts a clock of its own), so every
phase ends.

Each effect is delivered to the bots it is addressed to (public effects to everyone), exactly as the bridge
would deliver it, so a bot knows only what its contestant was told (``engine.bots``). Time is simulated: one
second per input, a clock's deadline when it runs out. Every random draw comes from the game's seeded generator
or from a bot's own generator seeded from the series seed and the contestant's name, so a series is a pure
function of (settings, seed, bot kinds).

Everything here is pure (standard library only); the ``traitors simulate`` command (``bridge/app/simulate.py``) adds
the progress bar, the processes and the printing.
"""

from __future__ import annotations

import dataclasses
import gc
import hashlib
import math
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from engine.actions import StartSeries, TimerExpired
from engine.bots import BOTS, make_bot
from engine.core.ruleset import RulesetGame
from engine.effects import Announce, Effect, Prompt, Whisper
from engine.rulesets import new_game, ruleset_of

STEP_LIMIT = 20_000
"""Inputs per series before the driver gives up (a series of 16 takes well under 2,000)."""

Z95 = 1.959963984540054
"""The standard normal quantile for a two-sided 95 % interval."""


@dataclass(frozen=True, slots=True)
class SeriesResult:
    """What one simulated series ended with (public after the series: the game log shows it all).

    Args:
        seed: the series seed.
        winner: the winning side (``engine.outcome.Winner`` value, e.g. ``"faithful"``).
        days: the day the series ended on (day zero is the first day).
        inputs: accepted inputs, timers included.
        roles: contestant → the power or role dealt at the start (``"no power"`` for a contestant without one).
        sides: contestant → the side dealt at the start (``"faithful"``/``"traitor"``, or the club team).
        winners: the contestants who won (``Outcome.winners``: for ``traitors`` only those still in the series).
        winning_side: the contestants on the winning side at the end: their side then (a recruit is a Traitor)
            is the side that won, or they are among ``winners`` (the Joker), whether or not they were still in.
    """

    seed: int
    winner: str
    days: int
    inputs: int
    roles: Mapping[str, str]
    sides: Mapping[str, str]
    winners: tuple[str, ...]
    winning_side: frozenset[str]


SIDE_WINS = {"faithful": "faithful", "traitor": "traitors", "alone": "mad_knight", "loner": "loners"}
"""A side's name → the ``Winner`` value it wins as, where the two differ."""


def sides_of(settings: Any) -> tuple[str, ...]:
    """The sides a contestant can be dealt under ``settings``, as ``play_series``'s ``bots`` mapping names them:
    ``faithful`` and ``traitor`` (rulebook §1), or the teams of a club ruleset's roles (sorted).

    Raises:
        ConfigError: an unknown ruleset.
    """
    rules = getattr(ruleset_of(settings).game, "RULES", None)
    if rules is None:
        return ("faithful", "traitor")
    return tuple(sorted({role.team for role in rules.roles.values()}))


def _winning_side(game: Any, winner: str, winners: tuple[str, ...]) -> frozenset[str]:
    """Contestants whose side at the end of the series is the winning side, or who won alone."""
    out = set(winners)
    for name, p in game.players.items():
        side = p.allegiance.value if hasattr(p, "allegiance") else game.rules.roles[p.role].team
        if SIDE_WINS.get(side, side) == winner:
            out.add(name)
    return frozenset(out)


def _deal(game: Any) -> tuple[dict[str, str], dict[str, str]]:
    """(contestant → dealt power/role title, contestant → dealt side) right after the deal."""
    roles: dict[str, str] = {}
    sides: dict[str, str] = {}
    for name, p in game.players.items():
        if hasattr(p, "allegiance"):  # traitors
            title = p.power.title if p.power else "no power"
            roles[name] = f"The Drunk {title[4:]}" if p.drunk and title.startswith("The ") else title
            sides[name] = p.allegiance.value
        else:  # a club ruleset
            roles[name] = game.role_title(p.dealt)
            sides[name] = game.rules.roles[p.dealt].team
    return roles, sides


def play_series(settings: Any, seed: int, bots: str | Mapping[str, str] = "smart") -> tuple[RulesetGame, SeriesResult]:
    """Play one whole series with bot contestants.

    The contestants asked are those the game prompted (``Prompt`` effects) since its phase last changed, in seat
    order; each is asked again while ``legal_actions`` offers them a kind of input they have not used in this
    phase. When nobody asked has anything left to do, the phase clock runs out.

    Args:
        settings: the series settings of any ruleset (``engine.rulesets.traitors.settings.Settings`` or ``ClubSettings``).
        seed: the series seed; the bots' generators are seeded from it and their names.
        bots: one bot kind for everyone (a key of ``engine.bots.BOTS``), or side → kind (``"faithful"``,
            ``"traitor"``, or a club team; missing sides play ``"smart"``).

    Returns:
        The finished game and its ``SeriesResult``.

    Raises:
        ConfigError: invalid settings.
        KeyError: an unknown bot kind.
        RuntimeError: the series did not end within ``STEP_LIMIT`` inputs (a bug in the rules or the bots).
    """
    table = _Table(new_game(settings, seed), seed, bots)
    while not table.game.is_over:
        if table.steps > STEP_LIMIT:
            raise RuntimeError(f"series {seed} did not end within {STEP_LIMIT} inputs (phase {table.game.phase})")
        if not table.bots_move():
            table.clock_runs_out()
    return table.game, table.result()


class _Table:
    """One series being played by bots (``play_series``): the game, the bots, and who was asked in this phase."""

    def __init__(self, game: RulesetGame, seed: int, bots: str | Mapping[str, str]) -> None:
        self.game, self.seed, self.now = game, seed, 0.0
        first = game.handle(StartSeries(), now=self.now)
        self.roles, self.sides = _deal(game)
        names = game.contestants()
        kinds = {n: (bots if isinstance(bots, str) else bots.get(self.sides[n], "smart")) for n in names}
        self.players = {
            n: make_bot(kinds[n], n, random.Random(f"{seed}:{n}"), ruleset=ruleset_of(game.settings).name)
            for n in names
        }
        self.listeners = {n: b for n, b in self.players.items() if b.hears}
        self.hears: frozenset[str] = frozenset().union(*(b.hears for b in self.listeners.values()))
        self.seat = {n: i for i, n in enumerate(names)}
        self.asked: set[str] = set()
        self.audience: dict[str, list[Callable[[str, tuple[tuple[str, str], ...]], None]]] = {}
        """Message key → the ``observe`` of every listening bot that learns from it, in seat order (made on the
        key's first announcement)."""
        self.deliver(first, self.asked)
        self.acted: dict[str, set[str]] = {}
        self.seq = game.phase_seq
        self.steps = 1

    def deliver(self, effects: Iterable[Effect], asked: set[str]) -> None:
        """Hand each spoken effect to the listening bots it is addressed to (``to=None``: everyone), when its key is
        one they learn from (``hears``), and note who was prompted (``asked``): the contestants the castle is
        waiting for. Only ``Announce``, ``Whisper`` and ``Prompt`` carry a message (the effect classes have no
        subclasses)."""
        listeners, hears = self.listeners, self.hears
        for e in effects:
            kind = type(e)
            if kind is Prompt:
                asked.update(e.to)  # type: ignore[attr-defined]
            elif kind is not Announce and kind is not Whisper:
                continue
            message = e.message  # type: ignore[attr-defined]
            key = message.key
            if key not in hears:
                continue
            params = message.english_params  # bots read English values
            if kind is Announce:
                heard = self.audience.get(key)
                if heard is None:
                    heard = self.audience[key] = [b.observe for b in listeners.values() if key in b.hears]
                for observe in heard:
                    observe(key, params)
            else:
                for name in e.to:  # type: ignore[attr-defined]
                    bot = listeners.get(name)
                    if bot is not None and key in bot.hears:
                        bot.observe(key, params)

    def bots_move(self) -> bool:
        """Each bot asked, in seat order, sends one input of a kind it has not used in this phase (until the phase
        changes or the series ends). Returns whether any did."""
        game, moved = self.game, False
        acted, players = self.acted, self.players  # the hot loop
        for name in sorted(self.asked, key=self.seat.__getitem__):
            legal = game.legal_actions(name)
            if not legal:
                continue
            done = acted.get(name)
            if done is None:
                done = acted[name] = set()
            elif done:
                legal = [a for a in legal if a.kind not in done]
                if not legal:
                    continue
            bot = players[name]
            if bot.needs_view:  # a lazy view: a bot reads a few fields, and the rest are never worked out
                view = game.lazy_view(name)
                action = bot.choose(view, legal)
                view.close()
            else:
                action = bot.choose(None, legal)
            if action is None:
                continue
            done.add(action.kind)
            self.now += 1.0
            fresh: set[str] = set()
            self.deliver(game.handle(action, now=self.now), fresh)
            self.steps += 1
            moved = True
            if game.phase_seq != self.seq:
                self.seq, self.acted, self.asked = game.phase_seq, {}, fresh
                break
            self.asked |= fresh
            if game.is_over:
                break
        return moved

    def clock_runs_out(self) -> None:
        """Nobody asked has anything left to do: the phase clock runs out at its deadline."""
        game = self.game
        deadline = game.deadline
        self.now = max(self.now + 1.0, deadline if deadline is not None else self.now)
        fresh: set[str] = set()
        self.deliver(game.handle(TimerExpired(game.phase_seq), now=self.now), fresh)
        self.steps += 1
        if game.phase_seq != self.seq:
            self.seq, self.acted, self.asked = game.phase_seq, {}, fresh
        else:
            self.asked |= fresh

    def result(self) -> SeriesResult:
        """The finished series' ``SeriesResult``."""
        outcome = self.game.outcome
        assert outcome is not None
        winners = tuple(outcome.winners)
        return SeriesResult(
            seed=self.seed,
            winner=outcome.winner.value,
            days=self.game.day,
            inputs=self.steps,
            roles=self.roles,
            sides=self.sides,
            winners=winners,
            winning_side=_winning_side(self.game, outcome.winner.value, winners),
        )


def series_seeds(seed: int, count: int) -> list[int]:
    """The seeds of a run's series: series ``i`` of a run seeded ``seed`` plays with the first 48 bits of
    SHA-256 of ``"{seed}:{i}"``. Runs with different seeds share no series; any prefix of a run is the shorter
    run with the same seed.
    """
    return [int.from_bytes(hashlib.sha256(f"{seed}:{i}".encode()).digest()[:6], "big") for i in range(count)]


# ---------------------------------------------------------------------------------------------- twists


def twists_of(settings: Any) -> tuple[str, ...]:
    """The twists a series' settings switch on, by name, in a stable order.

    For ``traitors``: each twist of rulebook §8 scheduled on some day (setting ``twists``) and ``joker`` when the
    Joker is offered (rulebook §6, setting ``joker_night``). The club rulesets have no twists.
    """
    twists = getattr(settings, "twists", None)
    if twists is None:
        return ()
    names = sorted({t.value for day in twists.values() for t in day})
    if getattr(settings, "joker_night", None) is not None:
        names.append("joker")
    return tuple(names)


def without_twist(settings: Any, twist: str) -> Any:
    """The same settings with ``twist`` removed (every day it was scheduled; ``joker``: never offered)."""
    if twist == "joker":
        return dataclasses.replace(settings, joker_night=None)
    kept = {day: tuple(t for t in ts if t.value != twist) for day, ts in settings.twists.items()}
    return dataclasses.replace(settings, twists={d: ts for d, ts in kept.items() if ts})


# ---------------------------------------------------------------------------------------------- statistics


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % by default).

    Args:
        successes: how many trials succeeded (0 ≤ successes ≤ trials).
        trials: how many trials; 0 gives ``(0.0, 1.0)``.
        z: the normal quantile of the confidence level.

    Returns:
        ``(low, high)``, both in [0, 1].

    Raises:
        ValueError: ``successes`` outside ``0..trials``.
    """
    if not 0 <= successes <= trials:
        raise ValueError(f"successes {successes} outside 0..{trials}")
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    denom = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
    # At 0 or all successes the bound is exactly 0 or 1 (the formula gives it up to rounding).
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return (low, high)


@dataclass(slots=True)
class Tally:
    """Counts gathered over many series (mergeable, so process results can be added up in order)."""

    series: int = 0
    wins: dict[str, int] = field(default_factory=dict)
    """Winning side → series won."""
    days: int = 0
    """Sum of series lengths in days."""
    inputs: int = 0
    dealt: dict[str, int] = field(default_factory=dict)
    """Power or role → series in which it was dealt (counted once per holder)."""
    on_winning_side: dict[str, int] = field(default_factory=dict)
    """Power or role → holders who ended on the winning side (``SeriesResult.winning_side``)."""
    twist_runs: dict[str, int] = field(default_factory=dict)
    """Twist → paired runs made (series that had the twist)."""
    twist_changed: dict[str, int] = field(default_factory=dict)
    """Twist → paired runs whose winning side differed without the twist."""
    twist_without: dict[str, dict[str, int]] = field(default_factory=dict)
    """Twist → winning side → paired runs without the twist that side won."""

    def add(self, result: SeriesResult) -> None:
        """Count one series."""
        self.series += 1
        self.wins[result.winner] = self.wins.get(result.winner, 0) + 1
        self.days += result.days
        self.inputs += result.inputs
        for name, role in result.roles.items():
            self.dealt[role] = self.dealt.get(role, 0) + 1
            if name in result.winning_side:
                self.on_winning_side[role] = self.on_winning_side.get(role, 0) + 1

    def add_twist(self, twist: str, result: SeriesResult, without: SeriesResult) -> None:
        """Count one paired run: ``result`` played with ``twist``, ``without`` the same seed without it."""
        self.twist_runs[twist] = self.twist_runs.get(twist, 0) + 1
        self.twist_changed[twist] = self.twist_changed.get(twist, 0) + int(without.winner != result.winner)
        wins = self.twist_without.setdefault(twist, {})
        wins[without.winner] = wins.get(without.winner, 0) + 1

    def merge(self, other: Tally) -> None:
        """Add ``other``'s counts to this tally."""
        self.series += other.series
        self.days += other.days
        self.inputs += other.inputs
        for mine, theirs in (
            (self.wins, other.wins),
            (self.dealt, other.dealt),
            (self.on_winning_side, other.on_winning_side),
            (self.twist_runs, other.twist_runs),
            (self.twist_changed, other.twist_changed),
        ):
            for k, v in theirs.items():
                mine[k] = mine.get(k, 0) + v
        for t, wins in other.twist_without.items():
            mine_wins = self.twist_without.setdefault(t, {})
            for k, v in wins.items():
                mine_wins[k] = mine_wins.get(k, 0) + v


GC_THRESHOLD = 50_000
"""The garbage collector's first threshold while ``simulate`` plays (``_fewer_collections``)."""


@contextmanager
def _fewer_collections() -> Iterator[None]:
    """Run the cyclic garbage collector less often while series are played, then restore its thresholds.

    A series makes no reference cycles (a full collection after thousands of series frees nothing), so the
    collector's passes only cost time, the full ones most: they walk every object the process holds, the
    remembered choices and messages included (``docs/performance.md``). Memory is freed by reference counting
    as before. The thresholds are the process's: two ``simulate`` calls overlapping in threads may leave the raised
    one set (the balance lab uses processes, not threads).
    """
    old = gc.get_threshold()
    if old[0]:  # a threshold of 0 means automatic collection is off: left off
        gc.set_threshold(max(old[0], GC_THRESHOLD), old[1], old[2])
    try:
        yield
    finally:
        gc.set_threshold(*old)


def simulate(
    settings: Any,
    seeds: Sequence[int],
    *,
    bots: str | Mapping[str, str] = "smart",
    twist_impact: bool = False,
    progress: Callable[[int], None] | None = None,
) -> Tally:
    """Play one series per seed and count the results.

    Args:
        settings: the series settings (any ruleset).
        seeds: the series seeds, played in order.
        bots: as for ``play_series``.
        twist_impact: for each twist of ``twists_of(settings)``, play the same seed again without it and count
            whether the winning side changed (one more series per twist: the cost grows to ``1 + twists`` times).
        progress: called with 1 after each series (for a progress bar).

    Returns:
        The tally.
    """
    tally = Tally()
    twists = twists_of(settings) if twist_impact else ()
    variants = {t: without_twist(settings, t) for t in twists}
    with _fewer_collections():
        for seed in seeds:
            _, result = play_series(settings, seed, bots)
            tally.add(result)
            for t in twists:
                _, other = play_series(variants[t], seed, bots)
                tally.add_twist(t, result, other)
            if progress is not None:
                progress(1)
    return tally


def summary(tally: Tally, *, ruleset: str, contestants: int, seed: int, bots: str) -> dict[str, Any]:
    """The tally as plain JSON data (the ``--json`` output; keys documented in ``docs/simulate.md``).

    Returns:
        ``{"ruleset", "contestants", "series", "seed", "bots", "win_rates": {side: {"wins", "rate", "ci95":
        [low, high]}}, "average_days", "average_inputs", "on_winning_side": {role: {"dealt", "won", "rate"}},
        "twists": {twist: {"runs", "changed", "rate", "ci95", "win_rates_without": {side: rate}}}}``; rates are
        fractions rounded to 4 places.
    """
    n = tally.series

    def r(x: float) -> float:
        return round(x, 4)

    return {
        "ruleset": ruleset,
        "contestants": contestants,
        "series": n,
        "seed": seed,
        "bots": bots,
        "win_rates": {
            side: {"wins": w, "rate": r(w / n) if n else 0.0, "ci95": [r(x) for x in wilson(w, n)]}
            for side, w in sorted(tally.wins.items(), key=lambda kv: (-kv[1], kv[0]))
        },
        "average_days": r(tally.days / n) if n else 0.0,
        "average_inputs": r(tally.inputs / n) if n else 0.0,
        "on_winning_side": {
            role: {
                "dealt": d,
                "won": tally.on_winning_side.get(role, 0),
                "rate": r(tally.on_winning_side.get(role, 0) / d),
            }
            for role, d in sorted(tally.dealt.items())
        },
        "twists": {
            t: {
                "runs": runs,
                "changed": tally.twist_changed.get(t, 0),
                "rate": r(tally.twist_changed.get(t, 0) / runs) if runs else 0.0,
                "ci95": [r(x) for x in wilson(tally.twist_changed.get(t, 0), runs)],
                "win_rates_without": {side: r(w / runs) for side, w in sorted(tally.twist_without.get(t, {}).items())},
            }
            for t, runs in sorted(tally.twist_runs.items())
        },
    }


__all__ = [
    "BOTS",
    "SeriesResult",
    "Tally",
    "play_series",
    "series_seeds",
    "sides_of",
    "simulate",
    "summary",
    "twists_of",
    "wilson",
    "without_twist",
]
