"""Every power of rulebook §5 and §6: its ordinary effect, its drunk form and its interplay with another power.

One deal for all: three Traitors (Sunny the Bartender, Efe the Falsifier, Makena the Silencer) and every dealt
Faithful power, plus Vic without a power, who is banished on day one so night one has an event.
"""

from __future__ import annotations

import copy

import pytest

from engine.actions import Advance, AnswerJoker, CastVote, ChooseEvent, SkipPower, StartSeries, SwearOath, UsePower
from engine.effects import Whisper
from engine.errors import IllegalAction
from engine.ids import Allegiance, NightEvent, Power
from engine.outcome import Termination, Winner
from engine.rulesets.traitors import visit
from engine.rulesets.traitors.game import Game
from engine.rulesets.traitors.phases import Phase
from engine.rulesets.traitors.powers import NIGHT_ORDER, POWERS, VISIT_ORDER
from engine.rulesets.traitors.settings import DealEntry, Settings

HOST = "Host"
T, F = Allegiance.TRAITOR, Allegiance.FAITHFUL
HANDS = (
    ("Sunny", T, Power.BARTENDER),
    ("Efe", T, Power.FALSIFIER),
    ("Makena", T, Power.SILENCER),
    ("Alex", F, Power.ANALYST),
    ("Rex", F, Power.RESEARCHER),
    ("Zuri", F, Power.SHERIFF),
    ("Steve", F, Power.CLEANSER),
    ("Kai", F, Power.DETECTIVE),
    ("Hana", F, Power.HISTORIAN),
    ("Bob", F, Power.MIMIC),
    ("Ari", F, Power.SOBER),
    ("Noor", F, Power.SPY),
    ("Rhea", F, Power.SURVIVOR),
    ("Lena", F, Power.JUDGE),
    ("Omar", F, Power.GUARDIAN),
    ("Vic", F, None),
)
NAMES = tuple(h[0] for h in HANDS)
TRAITORS = ("Sunny", "Efe", "Makena")


class Series:
    def __init__(self, drunk: str | None = None, **kw: object) -> None:
        deal = tuple(DealEntry(n, a, p, None, n == drunk) for n, a, p in HANDS)
        kw.setdefault("joker_night", None)
        self.g = Game(Settings(contestants=NAMES, hosts=(HOST,), deal=deal, **kw), seed=3)
        self.now = 0.0
        self.fx: list[object] = []
        self.do(StartSeries())

    def do(self, action: object) -> list[object]:
        self.now += 1
        fx = self.g.handle(action, now=self.now)  # type: ignore[arg-type]
        self.fx += fx
        return fx

    def advance_to(self, phase: Phase) -> None:
        for _ in range(40):
            if self.g.phase is phase:
                return
            if self.g.phase is Phase.OATH and self.g.night.oath_taking:
                self.do(SwearOath(self.g.night.oath_queue[0]))
            else:
                self.do(Advance(HOST))
        raise AssertionError(self.g.phase)

    def vote(self, target: str, exceptions: dict[str, str] | None = None) -> None:
        b = self.g.ballot
        for v in list(b.voters):
            t = (exceptions or {}).get(v, target)
            if t == v:
                t = next(c for c in b.candidates if c != v and c != target)
            self.do(CastVote(v, t))
        if self.g.phase is Phase.OATH and not self.g.night.oath_taking:
            self.do(Advance(HOST))  # an Oath clock with nobody at the Oath (phases house rule 9)

    def night(
        self,
        murder: str = "Hana",
        traitor: dict[str, str] | None = None,
        visit: dict[str, tuple[str, ...]] | None = None,
        event: NightEvent = NightEvent.MURDER,
    ) -> None:
        """From the Turret: the event, the Traitor powers, the host's visit; ends at breakfast."""
        assert self.g.phase is Phase.TURRET, self.g.phase
        for t in self.g.night.traitors:
            self.do(ChooseEvent(t, event, murder))
        if self.g.phase is Phase.TURRET:  # phases house rule 9: each night stage runs its whole clock
            self.do(Advance(HOST))
        for name in list(self.g.night.pending) if self.g.phase is Phase.TRAITOR_POWERS else []:
            target = (traitor or {}).get(name)
            self.do(UsePower(name, target) if target else SkipPower(name))
        if self.g.phase is Phase.TRAITOR_POWERS:
            self.do(Advance(HOST))
        if self.g.phase is Phase.OFFER and self.g.night.offer is None:
            self.do(Advance(HOST))
        if self.g.phase is Phase.HOST_VISIT:
            for name in list(self.g.night.pending):
                targets = (visit or {}).get(name)
                if targets:
                    self.do(UsePower(name, targets[0], targets[1] if len(targets) > 1 else None))
                elif name in self.g.night.pending:
                    self.do(SkipPower(name))
        if self.g.phase is Phase.HOST_VISIT:
            self.do(Advance(HOST))
        assert self.g.phase in (Phase.BREAKFAST, Phase.OVER), self.g.phase

    def told(self, name: str, since: int = 0) -> list[str]:
        return [e.message.text for e in self.fx[since:] if isinstance(e, Whisper) and e.to == frozenset({name})]

    def key_told(self, name: str, prefix: str) -> list[str]:
        return [
            e.message.key
            for e in self.fx
            if isinstance(e, Whisper) and e.to == frozenset({name}) and e.message.key.startswith(prefix)
        ]


def night_one(drunk: str | None = None, banish: str = "Vic", **kw: object) -> Series:
    s = Series(drunk, **kw)
    s.advance_to(Phase.VOTE)
    s.vote(banish)
    assert s.g.phase is Phase.TURRET
    return s


def to_day_two_vote(s: Series) -> None:
    s.advance_to(Phase.VOTE)


# ---------------------------------------------------------------------------------------------- registry


def test_registry_and_night_order_cover_every_power() -> None:
    assert set(POWERS) == set(Power)
    assert all(spec.rule.strip() and "rulebook" in spec.rule for spec in POWERS.values())
    assert len(set(NIGHT_ORDER)) == len(NIGHT_ORDER)
    assert VISIT_ORDER.index(Power.GUARDIAN) < VISIT_ORDER.index(Power.CLEANSER) < VISIT_ORDER.index(Power.ANALYST)


def _accepted(game: Game, actor: str, power: Power, alive: list[str]) -> list[tuple[str, str | None]]:
    """The candidates ``validate`` accepts, each tried in turn (what ``options`` must equal)."""
    spec = POWERS[power]
    if spec.targets == 1:
        candidates: list[tuple[str, str | None]] = [(t, None) for t in alive]
    else:
        candidates = [(a, b) for i, a in enumerate(alive) for b in alive[i + 1 :]]
    out = []
    for t, second in candidates:
        try:
            spec.validate(game, actor, (t,) if second is None else (t, second))
        except IllegalAction:
            continue
        out.append((t, second))
    return out


def test_every_targeted_power_lists_exactly_what_its_validator_accepts() -> None:
    """``Power.options`` (the prompt's choices and ``legal_actions``) agrees with ``validate`` for every power,
    every living contestant as its user, at every night phase of random series, with last targets (last night's,
    older, none) and the Judge's self-protection set at random."""
    import random

    from engine.actions import TimerExpired

    targeted = [p for p, spec in POWERS.items() if spec.targets]
    assert all(POWERS[p].options is not None for p in targeted)
    rng = random.Random(7)
    checked = 0
    for _ in range(6):  # the shared deal (every power is dealt), played six ways
        s = Series()
        g = s.g
        seen: set[int] = set()
        while not g.is_over and s.now < 400:
            if g.phase in (Phase.TURRET, Phase.TRAITOR_POWERS, Phase.HOST_VISIT) and g.phase_seq not in seen:
                seen.add(g.phase_seq)
                alive = g.living()
                kept = dict(g.powers.last_target), set(g.powers.judge_self)
                for actor in alive:
                    for power in targeted:
                        if rng.random() < 0.5:
                            g.powers.last_target[(actor, power)] = (g.day - rng.choice((0, 1, 2)), rng.choice(alive))
                        if rng.random() < 0.3:
                            g.powers.judge_self.symmetric_difference_update({actor})
                        want = _accepted(g, actor, power, alive)
                        assert POWERS[power].options(g, actor, alive) == want, (power, actor)
                        checked += 1
                g.powers.last_target, g.powers.judge_self = kept  # the series goes on as it was
            legal = [a for n in g.contestants() for a in g.legal_actions(n)]
            s.do(rng.choice(legal) if legal else TimerExpired(g.phase_seq))
    assert checked > 10_000


@pytest.mark.parametrize(
    ("power", "user", "nights_running"),
    [
        (Power.BARTENDER, "Sunny", True),
        (Power.SILENCER, "Makena", True),
        (Power.GUARDIAN, "Omar", False),
        (Power.JUDGE, "Lena", False),
    ],
)
def test_not_the_same_target_running(power: Power, user: str, nights_running: bool) -> None:
    """Rulebook §5: the Bartender and the Silencer not the same one two nights running (two nights ago is
    allowed again); the Judge and the Guardian not the same twice running (however long ago). Both ``validate``
    and ``options`` say so."""
    g = night_one().g
    spec = POWERS[power]
    for night, refused in ((g.day - 1, True), (g.day - 2, not nights_running)):
        g.powers.last_target[(user, power)] = (night, "Kai")
        listed = [t for t, _ in spec.options(g, user, g.living())]
        if refused:
            with pytest.raises(IllegalAction) as e:
                spec.validate(g, user, ("Kai",))
            assert e.value.reason == "illegal.power.repeat" and "Kai" not in listed
        else:
            spec.validate(g, user, ("Kai",))
            assert "Kai" in listed
        spec.validate(g, user, ("Alex",))


def test_night_zero_has_no_powers_by_default() -> None:
    s = Series()
    s.advance_to(Phase.BREAKFAST)
    assert s.g.day == 1 and not s.g.record.events[0].powers


# ---------------------------------------------------------------------------------------------- Faithful powers


class TestAnalyst:
    def test_ordinary(self) -> None:
        s = night_one()
        s.night(murder="Hana", visit={"Alex": ("Sunny", "Kai")})
        assert "Sunny and Kai have different allegiances." in s.told("Alex")

    @pytest.mark.rule("T2.1")
    def test_drunk_inverts(self) -> None:
        s = night_one(drunk="Alex")
        s.night(murder="Hana", visit={"Alex": ("Sunny", "Kai")})
        assert "Sunny and Kai have the same allegiance." in s.told("Alex")

    def test_falsifier_flips_what_the_analyst_sees(self) -> None:
        s = night_one()
        s.night(murder="Hana", traitor={"Efe": "Sunny"}, visit={"Alex": ("Sunny", "Kai")})
        assert "Sunny and Kai have the same allegiance." in s.told("Alex")

    def test_bartender_intoxication_inverts_and_cleanser_blocks_it(self) -> None:
        s = night_one()
        s.night(murder="Hana", traitor={"Sunny": "Alex"}, visit={"Alex": ("Sunny", "Kai")})
        assert "Sunny and Kai have the same allegiance." in s.told("Alex")
        s = night_one()
        s.night(murder="Hana", traitor={"Sunny": "Alex"}, visit={"Alex": ("Sunny", "Kai"), "Steve": ("Alex",)})
        assert "Sunny and Kai have different allegiances." in s.told("Alex")

    def test_needs_two_different_living_others(self) -> None:
        s = night_one()
        for t in s.g.night.traitors:
            s.do(ChooseEvent(t, NightEvent.MURDER, "Hana"))
        s.advance_to(Phase.HOST_VISIT)
        before = copy.deepcopy(s.g.record.to_dict())
        for bad in (
            UsePower("Alex", "Sunny"),
            UsePower("Alex", "Sunny", "Sunny"),
            UsePower("Alex", "Alex", "Kai"),
            UsePower("Alex", "Vic", "Kai"),
        ):
            with pytest.raises(IllegalAction):
                s.g.handle(bad, now=s.now)
        assert s.g.record.to_dict() == before and "Alex" in s.g.night.pending


class TestResearcher:
    def test_ordinary_one_name_is_true(self) -> None:
        s = night_one()
        s.night(murder="Hana", visit={"Rex": ("Sunny",)})
        (text,) = [t for t in s.told("Rex") if t.startswith("Sunny holds")]
        assert "The Bartender" in text and text.count(" or ") == 1

    @pytest.mark.rule("T2.1")
    def test_drunk_both_names_wrong(self) -> None:
        s = night_one(drunk="Rex")
        s.night(murder="Hana", visit={"Rex": ("Sunny",)})
        (text,) = [t for t in s.told("Rex") if t.startswith("Sunny holds")]
        assert "The Bartender" not in text


class TestSheriff:
    @pytest.mark.rule("T4.11")
    def test_registered_traitor_banished_at_once_without_vote(self) -> None:
        s = night_one()
        s.night(murder="Hana", visit={"Zuri": ("Sunny",)})
        s.do(Advance(HOST))  # breakfast → discussion
        s.do(Advance(HOST))  # discussion → round table: the accusation
        table = s.g.record.events[-2] if s.g.phase in (Phase.OATH, Phase.TURRET) else None
        assert not s.g.players["Sunny"].alive
        assert table is not None and table.accusation == "banished" and table.revealed == "traitor" and not table.rounds
        assert s.g.powers.used[("Zuri", Power.SHERIFF)] == 1
        assert not visit.choosable(s.g, "Zuri", "visit")

    @pytest.mark.rule("T4.11")
    def test_falsified_traitor_makes_the_accusation_fail(self) -> None:
        s = night_one()
        s.night(murder="Hana", traitor={"Efe": "Sunny"}, visit={"Zuri": ("Sunny",)})
        s.do(Advance(HOST))
        s.do(Advance(HOST))
        assert s.g.players["Sunny"].alive and s.g.table.accusation == "failed"
        assert s.g.phase is Phase.ROUND_TABLE  # the vote goes on

    @pytest.mark.rule("T2.1")
    def test_drunk_sheriff_fails(self) -> None:
        s = night_one(drunk="Zuri")
        s.night(murder="Hana", visit={"Zuri": ("Sunny",)})
        s.do(Advance(HOST))
        s.do(Advance(HOST))
        assert s.g.players["Sunny"].alive and s.g.table.accusation == "failed"

    @pytest.mark.rule("T7.11")
    def test_murdered_sheriff_accuses_nobody(self) -> None:
        s = night_one()
        s.night(murder="Zuri", visit={"Zuri": ("Sunny",)})
        s.do(Advance(HOST))
        s.do(Advance(HOST))
        assert s.g.table.accused is None and s.g.players["Sunny"].alive


class TestCleanser:
    def test_cleansed_contestant_is_not_silenced(self) -> None:
        s = night_one()
        s.night(murder="Hana", traitor={"Makena": "Kai"}, visit={"Steve": ("Kai",)})
        to_day_two_vote(s)
        assert "Kai" in s.g.ballot.voters

    @pytest.mark.rule("T2.1")
    def test_drunk_cleanser_cleanses_nothing(self) -> None:
        s = night_one(drunk="Steve")
        s.night(murder="Hana", traitor={"Makena": "Kai"}, visit={"Steve": ("Kai",)})
        to_day_two_vote(s)
        assert "Kai" not in s.g.ballot.voters

    def test_guessed_cleanser_keeps_power_by_cleansing_self(self) -> None:
        s = night_one()
        s.g.powers.guessed.add("Steve")  # the Guess twist (a later issue) fills this hook
        s.night(murder="Hana", visit={"Steve": ("Steve",)})
        assert s.g.players["Steve"].power is Power.CLEANSER and not s.key_told("Steve", "guess.lost")
        s = night_one()
        s.g.powers.guessed.add("Steve")
        s.night(murder="Hana", visit={"Steve": ("Kai",)})
        assert s.g.players["Steve"].power is None and s.key_told("Steve", "guess.lost")

    @pytest.mark.rule("T7.13")
    def test_guessed_faithful_learns_it_before_the_visit(self) -> None:
        s = night_one()
        s.g.powers.guessed.add("Alex")
        for t in s.g.night.traitors:
            s.do(ChooseEvent(t, NightEvent.MURDER, "Hana"))
        s.advance_to(Phase.HOST_VISIT)
        assert s.key_told("Alex", "guess.lost") and "Alex" not in s.g.night.pending


class TestDetective:
    def test_counts_traitor_actions(self) -> None:
        s = night_one()
        s.night(murder="Alex", traitor={"Sunny": "Alex", "Efe": "Alex"}, visit={"Kai": ("Alex",)})
        assert "Alex was targeted by 3 Traitor actions tonight." in s.told("Kai")

    @pytest.mark.rule("T2.1")
    def test_drunk_gets_a_wrong_count(self) -> None:
        s = night_one(drunk="Kai")
        s.night(murder="Alex", traitor={"Sunny": "Alex", "Efe": "Alex"}, visit={"Kai": ("Alex",)})
        (text,) = [t for t in s.told("Kai") if t.startswith("Alex was targeted")]
        assert "by 3 " not in text


class TestHistorian:
    def test_true_power_of_the_most_recently_removed(self) -> None:
        s = night_one(banish="Alex")
        s.night(murder="Kai")
        assert "Alex held The Analyst." in s.told("Hana")

    def test_drunk_is_told_a_wrong_power(self) -> None:
        s = night_one(banish="Alex", drunk="Hana")
        s.night(murder="Kai")
        (text,) = [t for t in s.told("Hana") if t.startswith("Alex held")]
        assert text != "Alex held The Analyst."


class TestMimic:
    def test_copy_works_from_the_next_night(self) -> None:
        s = night_one()
        s.night(murder="Hana", visit={"Bob": ("Kai",)})
        assert "You copied The Detective from Kai. You hold it from the next night on." in s.told("Bob")
        to_day_two_vote(s)
        s.vote("Omar")
        s.night(murder="Rex", visit={"Bob": ("Alex",)})
        assert any(t.startswith("Alex was targeted by") for t in s.told("Bob"))

    def test_copy_of_a_traitor_is_the_false_power_and_behaves_drunk(self) -> None:
        s = night_one()
        s.g.players["Sunny"].false_power = Power.JUDGE
        s.night(murder="Hana", visit={"Bob": ("Sunny",)})
        assert "You copied The Judge from Sunny. You hold it from the next night on." in s.told("Bob")
        to_day_two_vote(s)
        s.vote("Omar")
        assert s.g.active_power("Bob") is Power.JUDGE and s.g.impaired("Bob")

    def test_drunk_mimic_is_told_a_wrong_name(self) -> None:
        s = night_one(drunk="Bob")
        s.night(murder="Hana", visit={"Bob": ("Kai",)})
        (text,) = [t for t in s.told("Bob") if t.startswith("You copied")]
        assert "The Detective" not in text


class TestSober:
    def test_finds_the_drunk_and_sobers_them(self) -> None:
        s = night_one(drunk="Alex")
        s.night(murder="Hana", visit={"Ari": ("Alex",), "Alex": ("Sunny", "Kai")})
        assert "Alex is drunk. They are sober until the next night." in s.told("Ari")
        assert "Sunny and Kai have different allegiances." in s.told("Alex"), "sobered before the Analyst"

    def test_bartender_vs_sober(self) -> None:
        s = night_one()
        s.night(murder="Hana", traitor={"Sunny": "Kai"}, visit={"Ari": ("Kai",)})
        assert "Kai is drunk. They are sober until the next night." in s.told("Ari")
        assert not s.g.impaired("Kai")

    def test_sober_is_immune_to_the_bartender_and_limited_to_two_uses(self) -> None:
        s = night_one()
        s.night(murder="Hana", traitor={"Sunny": "Ari"}, visit={"Ari": ("Alex",)})
        assert not s.g.impaired("Ari") and "Alex is sober." in s.told("Ari")
        s.g.powers.used[("Ari", Power.SOBER)] = 2
        assert not visit.choosable(s.g, "Ari", "visit")


class TestSpy:
    def test_learns_an_action_never_who(self) -> None:
        s = night_one()
        s.night(murder="Hana", traitor={"Makena": "Kai"})
        (text,) = [t for t in s.told("Noor") if "targeted" in t]
        assert text in ("Hana was targeted tonight: murder.", "Kai was targeted tonight: The Silencer.")
        assert not any(t in text for t in TRAITORS)

    def test_drunk_spy_learns_something_false(self) -> None:
        s = night_one(drunk="Noor")
        s.night(murder="Hana", traitor={"Makena": "Kai"})
        (text,) = [t for t in s.told("Noor") if "targeted" in t]
        assert text not in ("Hana was targeted tonight: murder.", "Kai was targeted tonight: The Silencer.")


class TestSurvivor:
    @pytest.mark.rule("T5.3", "T5.4")
    def test_alerted_then_murdered_after_a_faithful_banishment(self) -> None:
        s = night_one()
        s.night(murder="Rhea")
        assert s.g.players["Rhea"].alive and s.key_told("Rhea", "survivor.alerted")
        to_day_two_vote(s)
        s.vote("Omar")
        assert not s.g.players["Rhea"].alive and s.g.record.events[-2].survivor_murdered == "Rhea"

    @pytest.mark.rule("T5.4")
    def test_traitor_banished_saves_the_survivor(self) -> None:
        s = night_one()
        s.night(murder="Rhea")
        to_day_two_vote(s)
        s.vote("Sunny")
        assert s.g.players["Rhea"].alive

    @pytest.mark.rule("T5.3", "T2.1")
    def test_drunk_survivor_is_murdered(self) -> None:
        s = night_one(drunk="Rhea")
        s.night(murder="Rhea")
        assert not s.g.players["Rhea"].alive

    def test_murder_shield_is_used_before_the_alert(self) -> None:
        s = night_one()
        s.g.powers.shields.add("Rhea")  # the Confession twist (a later issue) fills this
        s.night(murder="Rhea")
        assert s.g.players["Rhea"].alive and s.key_told("Rhea", "shield.used")
        assert not s.key_told("Rhea", "survivor.alerted") and s.g.powers.used[("Rhea", Power.SURVIVOR)] == 0


class TestJudge:
    @pytest.mark.rule("T4.10")
    def test_protection_moves_the_banishment_to_the_next_most_votes(self) -> None:
        """T4.10: "The Judge's protection" is a round-table event. [house] The protected contestant stays and the
        one with the next most votes is banished."""
        s = night_one()
        s.night(murder="Hana", visit={"Lena": ("Omar",)})
        to_day_two_vote(s)
        s.vote("Omar", {"Omar": "Kai", "Alex": "Kai", "Rex": "Kai"})
        assert s.g.players["Omar"].alive and not s.g.players["Kai"].alive
        assert s.g.record.events[-2].protection_used

    @pytest.mark.rule("T4.10")
    def test_tie_for_next_most_goes_to_a_second_vote(self) -> None:
        s = night_one()
        s.night(murder="Hana", visit={"Lena": ("Omar",)})
        to_day_two_vote(s)
        s.vote("Omar", {"Omar": "Kai", "Alex": "Kai", "Rex": "Bob", "Steve": "Bob"})
        assert s.g.phase is Phase.VOTE and s.g.ballot.kind == "second" and set(s.g.ballot.candidates) == {"Kai", "Bob"}

    @pytest.mark.rule("T2.1")
    def test_drunk_judge_protects_nobody(self) -> None:
        s = night_one(drunk="Lena")
        s.night(murder="Hana", visit={"Lena": ("Omar",)})
        to_day_two_vote(s)
        s.vote("Omar", {"Omar": "Kai"})
        assert not s.g.players["Omar"].alive

    def test_self_at_most_once_and_not_twice_running(self) -> None:
        s = night_one()
        s.night(murder="Hana", visit={"Lena": ("Lena",)})
        to_day_two_vote(s)
        s.vote("Omar")
        for t in s.g.night.traitors:
            s.do(ChooseEvent(t, NightEvent.MURDER, "Rex"))
        s.do(Advance(HOST))
        with pytest.raises(IllegalAction):
            s.g.handle(UsePower("Lena", "Lena"), now=s.now)


class TestGuardian:
    def test_protects_from_murder(self) -> None:
        s = night_one()
        s.night(murder="Alex", visit={"Omar": ("Alex",)})
        assert s.g.players["Alex"].alive and s.g.record.events[-2].result == "guarded"

    def test_drunk_guardian_fails(self) -> None:
        s = night_one(drunk="Omar")
        s.night(murder="Alex", visit={"Omar": ("Alex",)})
        assert not s.g.players["Alex"].alive

    @pytest.mark.rule("T7.9")
    def test_ultimatum_ignores_the_guardian(self) -> None:
        s = night_one()
        for t in ("Efe", "Makena"):
            s.g.players[t].alive = False  # leave one Traitor: the ultimatum night
        s.g.night.traitors = ("Sunny",)
        s.g.night.events = frozenset({NightEvent.ULTIMATUM})
        s.do(ChooseEvent("Sunny", NightEvent.ULTIMATUM, "Alex"))
        s.advance_to(Phase.TRAITOR_POWERS)  # each night stage runs its whole clock (phases house rule 9)
        s.do(SkipPower("Sunny"))
        s.advance_to(Phase.OFFER)
        from engine.actions import AnswerOffer

        s.do(AnswerOffer("Alex", False))
        s.advance_to(Phase.HOST_VISIT)
        s.do(UsePower("Omar", "Alex"))
        s.do(Advance(HOST))
        assert not s.g.players["Alex"].alive


# ---------------------------------------------------------------------------------------------- Traitor powers


class TestBartender:
    def test_not_the_same_two_nights_running_and_never_a_traitor(self) -> None:
        s = night_one()
        s.night(murder="Hana", traitor={"Sunny": "Kai"})
        assert s.g.powers.intoxicated == {"Kai"}
        to_day_two_vote(s)
        s.vote("Omar")
        assert "Kai" not in s.g.powers.intoxicated  # until the next night
        for t in s.g.night.traitors:
            s.do(ChooseEvent(t, NightEvent.MURDER, "Rex"))
        for bad in ("Kai", "Efe"):
            with pytest.raises(IllegalAction):
                s.g.handle(UsePower("Sunny", bad), now=s.now)

    def test_no_feedback(self) -> None:
        s = night_one()
        s.night(murder="Hana", traitor={"Sunny": "Kai"})
        assert "Kai" in s.g.powers.intoxicated
        assert not any("intoxicat" in t for t in s.told("Kai"))


class TestSilencer:
    @pytest.mark.rule("T4.9")
    def test_silenced_gets_no_paper_and_is_announced(self) -> None:
        s = night_one()
        s.night(murder="Hana", traitor={"Makena": "Kai"})
        to_day_two_vote(s)
        assert "Kai" not in s.g.ballot.voters and "Kai" in s.g.ballot.candidates
        assert s.g.record.events[-1].silenced == ["Kai"]


# ---------------------------------------------------------------------------------------------- the Joker


class TestJoker:
    def _offer(self, outcome: str = "joker_wins", drunk: str | None = None) -> tuple[Series, str]:
        s = night_one(joker_night=1, joker_outcome=outcome, drunk=drunk)
        for t in s.g.night.traitors:
            s.do(ChooseEvent(t, NightEvent.MURDER, "Hana"))
        s.advance_to(Phase.HOST_VISIT)
        holder = s.g.night.joker
        assert holder is not None
        with pytest.raises(IllegalAction):
            s.g.handle(SkipPower(holder), now=s.now)  # decides first
        s.do(AnswerJoker(holder, True))
        assert holder not in s.g.night.pending
        s.do(Advance(HOST))
        return s, holder

    @pytest.mark.rule("T6.1", "T6.2")
    def test_banished_joker_wins_alone(self) -> None:
        s, holder = self._offer()
        to_day_two_vote(s)
        s.vote(holder)
        assert s.g.outcome.termination is Termination.JOKER_BANISHED
        assert s.g.outcome.winner is Winner.JOKER and s.g.outcome.winners == (holder,)

    def test_traitors_win_setting(self) -> None:
        s, holder = self._offer("traitors_win")
        to_day_two_vote(s)
        s.vote(holder)
        assert s.g.outcome.winner is Winner.TRAITORS and set(s.g.outcome.winners) == set(TRAITORS)

    @pytest.mark.rule("T6.2", "T2.1")
    def test_drunk_joker_does_not_end_the_series(self) -> None:
        s = night_one(joker_night=1)
        s.g.players["Alex"].drunk = True
        s.g.powers.jokers.add("Alex")
        s.g.powers.joker_offered = True
        s.night(murder="Hana")
        to_day_two_vote(s)
        s.vote("Alex")
        assert not s.g.is_over


def test_absent_contestant_is_skipped_at_host_visiting() -> None:
    from engine.actions import ContestantLeft
    from engine.effects import Prompt

    s = night_one()
    s.do(ContestantLeft("Kai"))  # the Detective's player left the server
    for t in s.g.night.traitors:
        s.do(ChooseEvent(t, NightEvent.MURDER, "Hana"))
    mark = len(s.fx)
    s.advance_to(Phase.HOST_VISIT)
    assert "Kai" not in s.g.night.pending
    assert "Alex" in s.g.night.pending  # a present Faithful with a power is still visited
    prompted = {n for e in s.fx[mark:] if isinstance(e, Prompt) for n in e.to}
    assert "Alex" in prompted and "Kai" not in prompted
