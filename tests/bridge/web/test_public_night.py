"""Nothing to read in the night's shape: two series that differ only in a secret show everyone the same thing.

The public trace of a series is everything the castle shows everyone and everything the spectator page is sent,
each with its time: the spectator feed's messages (``bridge.web.spectator.public_effects``: announcements,
public titles, the clock and its changes, reveals, the end) and the commands the castle runs for them
(``bridge.minecraft.render``), plus what is set down where everyone sees it and the teleports that move every
living contestant at once. Whispers, prompts, hand-outs and the moves of a few (the Traitors to the Turret) are
private and left out.

Club rulesets (``engine.rulesets.club.game`` house rules 1-2): every step of the wake order takes its whole clock
whether anyone is woken in it, so a role dealt or not, dead or alive, blocked or not, is not counted from the
clocks. Traitors (``engine.rulesets.traitors.phases`` house rule 7): every night phase shows the one label
"Night", and the public view names the phase ``night``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from bridge.config.castle import default_castle
from bridge.minecraft.render import RenderContext, render
from bridge.web.spectator import public_effects
from engine.actions import AnswerOffer, CastVote, ChooseEvent, SkipPower, SwearOath, TimerExpired
from engine.effects import Announce, ClearPlace, ClockStarted, Effect, MoveTo, PlaceItem
from engine.ids import Allegiance, NightEvent, Power
from engine.rulesets.club.settings import ClubPhase
from engine.rulesets.traitors.phases import NIGHT_PHASES, Phase
from tests.engine.conftest import BK8, MY14, ClubDriver
from tests.engine.rulesets.traitors.test_breaker_cases import TWO_TRAITORS, Series, night_one

Timed = list[tuple[float, Effect]]
CASTLE = default_castle()


class TimedClub(ClubDriver):
    """A ``ClubDriver`` that keeps the time of every effect."""

    def __init__(self, ruleset: str, deal: tuple[tuple[str, str], ...], **kw: Any) -> None:
        self.timed: Timed = []
        super().__init__(ruleset, deal, **kw)

    def do(self, action: Any) -> list[Any]:
        fx = super().do(action)
        self.timed += [(self.now, e) for e in fx]
        return fx

    def expire(self) -> list[Any]:
        fx = super().expire()
        self.timed += [(self.now, e) for e in fx]
        return fx


def public_trace(timed: Timed, seats: dict[str, int], living: Sequence[str] | None = None) -> list[tuple[Any, ...]]:
    """(seconds since the first effect, effect class, what the spectator page and the castle's everyone see).

    ``living``: who is in the series (a ``MoveTo`` of all of them is a public gathering); ``None``: every seat.
    """
    ctx = RenderContext(CASTLE, seats)
    start = timed[0][0] if timed else 0.0
    everyone = set(living if living is not None else seats)
    out: list[tuple[Any, ...]] = []
    for at, e in timed:
        shown = bool(public_effects([e])) or isinstance(e, (PlaceItem, ClearPlace))
        if isinstance(e, MoveTo) and set(e.players) >= everyone:
            shown = True
        if shown:
            out.append((at - start, type(e).__name__, repr(e), tuple(c.text for c in render(e, ctx))))
    return out


def since(timed: Timed, key: str, nth: int = 1) -> Timed:
    """``timed`` from the ``nth`` public announcement ``key`` on."""
    marks = [i for i, (_, e) in enumerate(timed) if isinstance(e, Announce) and e.message.key == key]
    return timed[marks[nth - 1] :]


def until(timed: Timed, key: str) -> Timed:
    """``timed`` up to (and with) the first public announcement ``key``."""
    end = next(i for i, (_, e) in enumerate(timed) if isinstance(e, Announce) and e.message.key == key)
    return timed[: end + 1]


def bk_series(deal: tuple[tuple[str, str], ...], days: int = 2) -> TimedClub:
    """A Black Knights series where nobody acts or is put forward for ``days`` days (nobody dies)."""
    d = TimedClub("black_knights", deal)
    for _ in range(days):
        d.to_day()
        d.speeches({})
        d.night({})
    return d


def swap(deal: tuple[tuple[str, str], ...], name: str, role: str) -> tuple[tuple[str, str], ...]:
    return tuple((n, role if n == name else r) for n, r in deal)


@pytest.mark.rule("BK2", "BK4")
def test_bk_a_role_dealt_or_not_leaves_the_public_night_the_same() -> None:
    """BK2: «Очередность знакомств: 1. Куртизанка … 6. Лекарь» (the order of the introductions), BK4: the host wakes
    the roles one after another. A deal with a Healer and one where Sunny is a second White Knight instead: the
    introduction night and two nights after it show everyone the same clocks, announcements and moves at the same
    times; only Sunny is told something different (the monk meets her, and asks her to heal, in the first)."""
    healer = bk_series(BK8)
    without = bk_series(swap(BK8, "Sunny", "white_knight"))
    seats = healer.game.seats()
    assert public_trace(healer.timed, seats) == public_trace(without.timed, seats)
    clocks = [e.label.key for _, e in until(healer.timed, "club.morning") if isinstance(e, ClockStarted)]
    assert clocks == ["clock.night"] * 6  # the introduction: six meetings, each its own step
    assert {"bk.intro.met", "bk.prompt.healer"} <= set(healer.told("Sunny"))
    assert not {"bk.intro.met", "bk.prompt.healer"} & set(without.told("Sunny"))


@pytest.mark.rule("BK5")
def test_bk_a_blocked_role_leaves_the_public_night_the_same() -> None:
    """BK5: «Выбранный игрок не действует этой ночью» (the chosen player does not act this night). The Courtesan
    chooses the Grey Cardinal in one series and a White Knight in the other; the Black Order's kill lands on the
    same contestant: the night and its morning are the same, to the second, for everyone."""

    def night_with(chosen: str) -> TimedClub:
        d = TimedClub("black_knights", BK8)
        d.to_day()
        d.speeches({})
        mark = len(d.timed)
        kill = {"Zuri": "Sunny"} if chosen == "Kai" else {"Kai": "Sunny", "Zuri": "Sunny"}
        d.night({"courtesan": {"Alex": chosen}, "black_kill": kill})
        assert d.phase is ClubPhase.MORNING and "Sunny" not in d.alive()
        d.timed = d.timed[mark:]
        return d

    blocked, other = night_with("Kai"), night_with("Efe")
    seats = blocked.game.seats()
    assert public_trace(blocked.timed, seats) == public_trace(other.timed, seats)
    assert "club.blocked" in blocked.told("Kai") and "club.blocked" not in other.told("Kai")


@pytest.mark.rule("MY12")
def test_my_a_dead_role_leaves_the_next_public_night_the_same() -> None:
    """MY12: «Всі інші сплять (очікують).» (everyone else sleeps, waiting). Night one: the Mafia shoots the Maniac
    in one series and the Citizen in the other (a public death each). Night two: the Maniac's step runs in both,
    with the same clock, so the night does not tell that the Maniac is gone (the role is not shown on death)."""

    def second_night(victim: str) -> Timed:
        d = TimedClub("mafia_yakuza", MY14)
        d.night({"mafia_shot": {"Alex": victim, "Kai": victim}})
        assert victim not in d.alive()
        d.to_day()
        d.discussion()
        d.vote({})
        d.night({})
        return until(since(d.timed, "club.night", 2), "club.morning")

    maniac, citizen = second_night("Tomas"), second_night("Rhea")
    seats = dict(MY14_SEATS)
    maniac_trace = public_trace(maniac, seats, living=[n for n in seats if n != "Tomas"])
    citizen_trace = public_trace(citizen, seats, living=[n for n in seats if n != "Rhea"])
    assert [t[:2] + t[3:] for t in maniac_trace if t[1] != "MoveTo"] == [
        t[:2] + t[3:] for t in citizen_trace if t[1] != "MoveTo"
    ]
    assert [t[0] for t in maniac_trace] == [t[0] for t in citizen_trace]  # the moves home too, at the same times
    steps = [e for _, e in maniac if isinstance(e, ClockStarted)]
    assert len(steps) == 9 and {e.label.key for e in steps} == {"clock.night"}


MY14_SEATS = tuple((n, i) for i, (n, _) in enumerate(MY14, start=1))


# ---------------------------------------------------------------------------------------------- Traitors


class TimedSeries(Series):
    """A scripted Traitors series (``test_breaker_cases.Series``) that keeps the time of every effect and the
    public view's phase after every input, and lets a night stage's clock run out (``wait``) instead of the host
    moving on (which everyone would see)."""

    timed: Timed
    phases: list[str]

    def do(self, action: Any) -> list[Any]:
        fx = super().do(action)
        self.timed += [(self.now, e) for e in fx]
        self.phases.append(self.g.public_view().phase)
        return fx

    def expire(self) -> list[Any]:
        """The running clock runs out at its deadline."""
        assert self.g.deadline is not None
        self.now = max(self.now, self.g.deadline)
        fx = self.g.handle(TimerExpired(self.g.phase_seq), now=self.now)
        self.fx += fx
        self.timed += [(self.now, e) for e in fx]
        self.phases.append(self.g.public_view().phase)
        return fx

    def vote(self, target: str, exceptions: dict[str, str] | None = None) -> None:
        """Every paper for ``target``; the night that follows is left to its clocks (no host move-on)."""
        b = self.g.ballot
        for v in list(b.voters):
            self.do(CastVote(v, target if v != target else next(c for c in b.candidates if c not in (v, target))))

    def wait(self, phase: Phase) -> None:
        """Until ``phase``: whoever is asked answers (the Oath's questions sworn, every power passed), and each
        night stage's clock runs out."""
        for _ in range(40):
            if self.g.phase is phase:
                return
            night = self.g.night
            if self.g.phase is Phase.OATH and night is not None and night.oath_taking:
                self.do(SwearOath(night.oath_queue[0]))
            elif self.g.phase in (Phase.TRAITOR_POWERS, Phase.HOST_VISIT) and night is not None and night.pending:
                self.do(SkipPower(night.pending[0]))
            else:
                self.expire()
        raise AssertionError(f"never reached {phase}; at {self.g.phase}")


def timed(s: Series) -> TimedSeries:
    """``s``, from now on keeping its times (``TimedSeries``)."""
    s.__class__ = TimedSeries
    assert isinstance(s, TimedSeries)
    s.timed, s.phases = [], []
    return s


def recruited(accept: bool) -> TimedSeries:
    """Night one: the two Traitors seduce Kai, who accepts or declines (nobody is murdered either way); then the
    host moves the series on through day two's round table (Omar banished); night two runs to its breakfast (the
    recruit, if any, swears the Oath). Every night stage ends at its clock."""
    s = timed(night_one(TWO_TRAITORS))
    for t in s.g.night.traitors:
        s.do(ChooseEvent(t, NightEvent.SEDUCE, "Kai"))
    s.wait(Phase.OFFER)
    s.do(AnswerOffer("Kai", accept))
    s.wait(Phase.BREAKFAST)
    s.to(Phase.VOTE)
    s.vote("Omar")
    s.wait(Phase.BREAKFAST)
    return s


@pytest.mark.rule("T7.1", "T7.8")
def test_traitors_a_recruitment_shows_only_night_on_the_public_clock() -> None:
    """T7.1: the Oath happens when a Traitor is recruited; T7.8: seduction. Kai accepts the seduction in one
    series and declines it in the other: through night two (the recruit's Oath, the Turret, the powers, the host's
    visit) every public clock is labelled "Night" and the public view says ``night``, never the Oath or the
    offer, and the host's visit is not announced."""
    for accept in (True, False):
        s = recruited(accept)
        night = since(s.timed, "phase.night", 1)
        labels = [e.label.key for _, e in night if isinstance(e, ClockStarted)]
        assert set(labels) == {"clock.night", "clock.breakfast"} and labels[-1] == "clock.breakfast", labels
        everything = {e.label.key for _, e in s.timed if isinstance(e, ClockStarted)}
        assert not everything & {
            "clock.oath",
            "clock.turret",
            "clock.offer",
            "clock.traitor_powers",
            "clock.host_visit",
        }, everything
        assert "night" in s.phases and not set(s.phases) & {p.value for p in NIGHT_PHASES}
        said = [e.message.key for _, e in s.timed if isinstance(e, Announce)]
        assert "phase.night" in said and "phase.host_visit" not in said  # the visit is told to the one visited


@pytest.mark.rule("T7.1", "T7.8")
def test_traitors_a_recruitment_leaves_the_public_trace_the_same() -> None:
    """T7.1, T7.8: a recruitment (Kai accepts the seduction) and none (he declines) show everyone the same
    trace, with the same times, from night one to the breakfast after night two."""
    yes, no = recruited(True), recruited(False)
    seats = yes.g.seats()
    assert public_trace(yes.timed, seats) == public_trace(no.timed, seats)


def test_public_trace_sees_a_public_difference() -> None:
    """The comparison is not blind: a night where the host moves the first step on early is another trace."""
    a, b = TimedClub("black_knights", BK8), TimedClub("black_knights", BK8)
    for d in (a, b):
        d.to_day()
        d.speeches({})
    b.advance()  # the Courtesan's step ends at once, for everyone to see
    a.night({})
    b.night({})
    seats = a.game.seats()
    assert public_trace(a.timed, seats) != public_trace(b.timed, seats)


def powerless(
    hands: tuple[tuple[str, Allegiance, Power | None], ...], allegiance: Allegiance
) -> tuple[tuple[str, Allegiance, Power | None], ...]:
    """``hands`` with no power for any contestant of ``allegiance``."""
    return tuple((n, a, None if a is allegiance else p) for n, a, p in hands)


def murder_night(hands: tuple[tuple[str, Allegiance, Power | None], ...]) -> TimedSeries:
    """Night one of ``hands``: the Traitors murder Omar; every power prompted is passed and each night stage ends
    at its clock, until day two's breakfast."""
    s = timed(night_one(hands))
    for t in s.g.night.traitors:
        s.do(ChooseEvent(t, NightEvent.MURDER, "Omar"))
    s.wait(Phase.BREAKFAST)
    assert not s.alive("Omar")
    return s


@pytest.mark.rule("T5.1", "T7.10")
@pytest.mark.parametrize(
    ("powers", "asked", "prompt"),
    [
        (Allegiance.TRAITOR, "Sunny", "prompt.bartender"),
        (Allegiance.FAITHFUL, "Alex", "prompt.analyst"),
    ],
)
def test_traitors_a_usable_power_held_or_not_leaves_the_public_trace_the_same(
    powers: Allegiance, asked: str, prompt: str
) -> None:
    """T5.1: «After making their decision, each Traitor will also use their power's ability to hinder The
    Faithful.» T7.10: «the host will individually visit each Faithful to use their ability» … «each player will
    only be visited if they actually need to be». The same night one with the Traitors' powers dealt and with
    none (no Traitor is asked in the Turret), and with the Faithful's powers dealt and with none (nobody is
    visited): everyone sees the same clocks, announcements and moves at the same times; only the holder is asked
    (Sunny for The Bartender, Alex for The Analyst and told of the host's visit)."""
    held, none = murder_night(TWO_TRAITORS), murder_night(powerless(TWO_TRAITORS, powers))
    seats = held.g.seats()
    assert public_trace(held.timed, seats) == public_trace(none.timed, seats)
    clocks = [e.label.key for _, e in held.timed if isinstance(e, ClockStarted)]
    assert clocks == ["clock.night"] * 3 + ["clock.breakfast"]  # after the Turret: powers, offer, host's visit
    assert prompt in held.keys(asked) and prompt not in none.keys(asked)
    if powers is Allegiance.FAITHFUL:
        assert "phase.host_visit" in held.keys(asked) and "phase.host_visit" not in none.keys(asked)


@pytest.mark.rule("T7.1")
def test_traitors_without_the_fixed_night_a_stage_ends_at_its_last_answer() -> None:
    """T7.1: «One Traitor at a time will take the Traitors' Oath». With ``night_fixed_length = false`` the old
    fast night: Efe is taken to the Oath as soon as Sunny's third answer is given, no empty Oath clock runs on
    night one, and the Turret closes at the last pick; the record's settings say the setting is off."""
    s = Series(TWO_TRAITORS, night_fixed_length=False)
    s.advance()
    for _ in range(3):
        s.do(SwearOath("Sunny"))
    assert s.g.phase is Phase.OATH and s.g.night.oath_taking and s.g.night.oath_queue == ["Efe"]
    s.to(Phase.VOTE)
    s.vote("Vic")
    assert s.g.phase is Phase.TURRET  # no Oath clock without a recruit
    for t in s.g.night.traitors:
        s.do(ChooseEvent(t, NightEvent.MURDER, "Omar"))
    assert s.g.phase is Phase.TRAITOR_POWERS
    assert s.g.record.to_dict()["settings"]["night_fixed_length"] is False
    assert "night_fixed_length" not in night_one(TWO_TRAITORS).g.record.to_dict()["settings"]  # on: the default
