"""The Traitors as the source text says it, on the points where Castle once played otherwise: the guessed
Cleanser's choice (T7.4), the table where everyone has exactly one vote (T4.5), no reveal at the table of five
and no false allegiance ever announced (T9.1, T4.7), the end of a series (T9.4), and the wording of what
contestants are told. Each case is played through the engine and checks what every contestant was told: the
public announcements (``Announce``) and each one's private messages (``Whisper``, ``Prompt``).
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.actions import (
    Advance,
    AnswerJoker,
    AskHappy,
    CastVote,
    ChooseEvent,
    ChooseTorch,
    SkipPower,
    StartSeries,
    SwearOath,
    UsePower,
)
from engine.effects import Announce, GiveItem, Prompt, Whisper
from engine.errors import IllegalAction
from engine.ids import Allegiance, Item, NightEvent, Power, Torch, Twist
from engine.outcome import Termination, Winner
from engine.record import NightRecord, RoundTableRecord
from engine.rulesets.club.settings import ClubPhase
from engine.rulesets.traitors.game import Game
from engine.rulesets.traitors.phases import Phase
from engine.rulesets.traitors.settings import DealEntry, Settings
from engine.rulesets.traitors.twists.guess import GuessPower, VoteNominee

HOST = "Host"
T, F = Allegiance.TRAITOR, Allegiance.FAITHFUL
Hand = tuple[str, Allegiance, Power | None]

GUESS_CAST: tuple[Hand, ...] = (
    ("Sunny", T, Power.BARTENDER),
    ("Efe", T, Power.FALSIFIER),
    ("Makena", T, Power.SILENCER),
    ("Alex", F, Power.CLEANSER),
    ("Kai", F, Power.GUARDIAN),
    ("Zuri", F, Power.SHERIFF),
    ("Steve", F, Power.ANALYST),
    ("Ari", F, None),
    ("Noor", F, None),
    ("Omar", F, None),
    ("Vic", F, None),
)
"""Three Traitors; Alex is The Cleanser. Vic is banished on day one."""

EIGHT: tuple[Hand, ...] = (
    ("Sunny", T, Power.BARTENDER),
    ("Efe", T, Power.FALSIFIER),
    ("Zuri", F, Power.SHERIFF),
    ("Kai", F, None),
    ("Alex", F, None),
    ("Ari", F, None),
    ("Noor", F, None),
    ("Vic", F, None),
)
"""Two Traitors and The Sheriff (Zuri)."""

SIX: tuple[Hand, ...] = (
    ("Sunny", T, Power.BARTENDER),
    ("Zuri", F, Power.SHERIFF),
    ("Kai", F, None),
    ("Alex", F, None),
    ("Ari", F, None),
    ("Noor", F, None),
)
"""One Traitor among six: after day one's banishment, five sit at the next round table."""

SEVEN: tuple[Hand, ...] = (*SIX, ("Vic", F, None))
"""One Traitor among seven: night one has an event (an ultimatum)."""


class Play:
    """One series of an explicit deal, played by inputs one second apart; keeps every effect."""

    def __init__(self, hands: tuple[Hand, ...], **kw: Any) -> None:
        kw.setdefault("joker_night", None)
        deal = tuple(DealEntry(n, a, p) for n, a, p in hands)
        self.g = Game(Settings(contestants=tuple(n for n, _, _ in hands), hosts=(HOST,), deal=deal, **kw), seed=5)
        self.now = 0.0
        self.fx: list[Any] = []
        self.do(StartSeries())

    def do(self, action: Any) -> None:
        self.now += 1
        self.fx += self.g.handle(action, now=self.now)

    def to(self, phase: Phase) -> None:
        """The host moves on (every Oath sworn, every power passed) until ``phase`` or the series' end."""
        for _ in range(80):
            if self.g.phase in (phase, Phase.OVER):
                return
            if self.g.phase is Phase.OATH and self.g.night.oath_taking:
                self.do(SwearOath(self.g.night.oath_queue[0]))
            elif self.g.phase in (Phase.TRAITOR_POWERS, Phase.HOST_VISIT) and self.g.night.pending:
                self.do(SkipPower(self.g.night.pending[0]))
            else:
                self.do(Advance(HOST))
        raise AssertionError(f"never reached {phase}; at {self.g.phase}")

    def banish(self, name: str) -> None:
        """Every paper of the round table's first vote names ``name`` (``name``'s own names someone else)."""
        self.to(Phase.VOTE)
        b = self.g.ballot
        for v in list(b.voters):
            self.do(CastVote(v, name if v != name else next(c for c in b.candidates if c not in (v, name))))
        if self.g.phase is Phase.OATH and not self.g.night.oath_taking:
            self.do(Advance(HOST))  # an Oath clock with nobody at the Oath (phases house rule 9)

    def murder(self, target: str) -> None:
        for t in self.g.night.traitors:
            self.do(ChooseEvent(t, NightEvent.MURDER, target))

    def use(self, uses: dict[str, str]) -> None:
        """The next phase of asking (Traitor powers or the host's visit; the Turret's clock ends first if it is
        still running): each asked contestant uses their power on ``uses[name]`` or passes; then the host moves
        the stage on, and the offer's clock after it on a night without an offer (phases house rule 9)."""
        if self.g.phase is Phase.TURRET:
            self.do(Advance(HOST))
        for n in list(self.g.night.pending):
            self.do(UsePower(n, uses[n]) if n in uses else SkipPower(n))
        if self.g.phase in (Phase.TRAITOR_POWERS, Phase.HOST_VISIT):
            self.do(Advance(HOST))
        if self.g.phase is Phase.OFFER and self.g.night is not None and self.g.night.offer is None:
            self.do(Advance(HOST))

    def public(self, since: int = 0) -> list[Announce]:
        return [e for e in self.fx[since:] if isinstance(e, Announce)]

    def said(self, since: int = 0) -> list[str]:
        """The texts announced to everyone."""
        return [e.message.text for e in self.public(since)]

    def keys(self, name: str | None = None, since: int = 0) -> list[str]:
        """The message keys told to ``name`` alone or among others (``None``: the public announcements)."""
        if name is None:
            return [e.message.key for e in self.public(since)]
        return [e.message.key for e in self.fx[since:] if isinstance(e, (Whisper, Prompt)) and name in e.to]

    def told(self, name: str, since: int = 0) -> list[str]:
        """The private texts told to ``name``."""
        return [e.message.text for e in self.fx[since:] if isinstance(e, (Whisper, Prompt)) and name in e.to]

    def table(self) -> RoundTableRecord:
        return [e for e in self.g.record.events if isinstance(e, RoundTableRecord)][-1]


# ---------------------------------------------------------------------------------------------- T7.4


def guessed_cleanser_night(cleanses: str) -> Play:
    """Night one of a Guess day two: the Traitors rightly guess that Alex is The Cleanser and murder Omar,
    Makena silences Kai, and Alex, not told of the guess, cleanses ``cleanses``; then breakfast."""
    s = Play(GUESS_CAST, twists={2: (Twist.GUESS,)})
    s.banish("Vic")
    assert s.g.phase is Phase.TURRET
    s.murder("Omar")
    for t in s.g.night.traitors:
        s.do(GuessPower(t, "Alex"))
        s.do(GuessPower(t, "Alex", Power.CLEANSER))
    s.use({"Makena": "Kai"})
    assert s.g.phase is Phase.NOMINATION
    for v in s.g.twist_state.nominators:
        s.do(VoteNominee(v, "Steve" if v != "Steve" else "Ari"))
    s.do(Advance(HOST))  # the nomination's clock ends (phases house rule 9)
    assert s.g.phase is Phase.HOST_VISIT
    assert "guess.lost" not in s.keys("Alex") and "Alex" in s.g.night.pending
    s.use({"Alex": cleanses})
    assert s.g.phase is Phase.BREAKFAST
    return s


def cleanser_lines(s: Play) -> list[dict[str, Any]]:
    """The night record's lines of The Cleanser's use."""
    nights = [e for e in s.g.record.events if isinstance(e, NightRecord)]
    return [p for n in nights for p in n.powers if p["power"] == Power.CLEANSER.value]


@pytest.mark.rule("T7.4")
def test_a_guessed_cleansers_choice_of_another_is_not_recorded_and_cleanses_nobody() -> None:
    """T7.4: *"with the exception of The Cleanser, who is unknowingly given an opportunity to protect themself -
    if they fail to do so, it will be revealed to them that they were guessed, and whatever decision they did make
    will not be recorded"*. Alex, guessed, cleanses Kai: Alex is told afterwards that the power is lost, the night's
    record has no line of the cleanse, and Kai is not cleansed: Makena's silence lands, the round table announces
    it and Kai gets no paper."""
    s = guessed_cleanser_night("Kai")
    assert "guess.lost" in s.keys("Alex")
    assert s.g.players["Alex"].power is None
    assert cleanser_lines(s) == []
    assert not any("Cleanser" in t or "guess" in t.lower() for t in s.said())
    mark = len(s.fx)
    s.to(Phase.VOTE)
    assert [dict(e.message.params)["player"] for e in s.public(mark) if e.message.key == "round_table.silenced"] == [
        "Kai"
    ]
    assert "Kai" not in s.g.ballot.voters
    assert not any(isinstance(e, GiveItem) and "Kai" in e.to and e.item is Item.VOTE_PAPER for e in s.fx[mark:])


@pytest.mark.rule("T7.4")
def test_a_guessed_cleanser_who_cleanses_themself_keeps_the_power_and_the_record_shows_it() -> None:
    """T7.4: *"who is unknowingly given an opportunity to protect themself"*. Alex, guessed, cleanses himself:
    he is never told of the guess, keeps The Cleanser, and the record shows the cleanse."""
    s = guessed_cleanser_night("Alex")
    assert "guess.lost" not in s.keys("Alex")
    assert s.g.players["Alex"].power is Power.CLEANSER
    assert [line["targets"] for line in cleanser_lines(s)] == [["Alex"]]


# ---------------------------------------------------------------------------------------------- T4.5

RING = ("Kai", "Alex", "Ari", "Noor", "Vic", "Zuri", "Efe", "Sunny")


def first_vote(ring: tuple[str, ...]) -> Play:
    """Day one's first vote: each contestant of ``ring`` names the next one (the last names the first); the
    others do not vote, and the host closes the vote."""
    s = Play(EIGHT, powers=False)
    s.to(Phase.VOTE)
    for voter, target in zip(ring, ring[1:] + ring[:1], strict=True):
        s.do(CastVote(voter, target))
    if s.g.ballot is not None and s.g.ballot.kind == "first":
        s.do(Advance(HOST))
    return s


@pytest.mark.rule("T4.5", "T4.4")
def test_one_contestant_on_no_vote_makes_an_ordinary_tie_not_extra_time() -> None:
    """T4.5: *"if all players tie with exactly one vote, players will be given a little extra time to come to a
    conclusion"*. T4.4: *"If the vote results in a tie, a second vote will be held between the tied players"*.
    Seven papers name seven contestants once each and Vic casts none, so nobody names him: not every contestant at
    the table has one vote. Seven are tied, and Vic alone votes between them; nobody is told of extra time."""
    ring = tuple(n for n in RING if n != "Vic")
    s = first_vote(ring)
    assert "vote.revote" not in s.keys(None)
    (second,) = [e for e in s.public() if e.message.key == "vote.second"]
    assert set(dict(second.message.params)["players"].split(", ")) == set(ring)
    assert s.g.ballot is not None and s.g.ballot.kind == "second"
    assert s.g.ballot.voters == ("Vic",) and set(s.g.ballot.candidates) == set(ring)
    mark = next(i for i, e in enumerate(s.fx) if e is second)
    papers = [e for e in s.fx[mark:] if isinstance(e, GiveItem) and e.item is Item.VOTE_PAPER]
    assert [set(e.to) for e in papers] == [{"Vic"}]
    assert all(not s.keys(n, mark) for n in ring)


@pytest.mark.rule("T4.5")
def test_everyone_on_exactly_one_vote_gets_extra_time_and_votes_again() -> None:
    """T4.5: *"if all players tie with exactly one vote, players will be given a little extra time to come to a
    conclusion"*. All eight papers name eight different contestants: everyone hears of the extra time, and all
    eight get a paper again, voting among all eight."""
    s = first_vote(RING)
    assert "vote.revote" in s.keys(None) and "vote.second" not in s.keys(None)
    assert s.g.ballot is not None and s.g.ballot.kind == "revote"
    assert set(s.g.ballot.voters) == set(s.g.ballot.candidates) == set(RING)
    mark = s.keys(None).index("vote.revote")
    mark = [i for i, e in enumerate(s.fx) if isinstance(e, Announce)][mark]
    papers = [e for e in s.fx[mark:] if isinstance(e, GiveItem) and e.item is Item.VOTE_PAPER]
    assert sorted(n for e in papers for n in e.to) == sorted(RING)


# ---------------------------------------------------------------------------------------------- T9.1, T4.7


def allegiance_said_of(s: Play, name: str, since: int = 0) -> list[str]:
    """Announcements that name ``name`` together with an allegiance."""
    return [t for t in s.said(since) if name in t and ("Traitor" in t or "Faithful" in t)]


@pytest.mark.rule("T9.1", "T4.7", "T4.11")
def test_at_the_table_of_five_the_sheriffs_accusation_banishes_without_a_word_of_allegiance() -> None:
    """T9.1: *"When five players remain, banished players will stop revealing whether they were a Faithful or a
    Traitor."* T4.7: *"Unless it is the final round table, the player who receives the most votes will reveal
    whether they were a Faithful or a Traitor"*. Five sit at day two's round table and the Sheriff's accusation
    banishes Sunny (a Traitor): the accusation is announced, Sunny is banished without revealing, and no message
    to anyone but Sunny says what Sunny was."""
    s = Play(SIX)
    s.banish("Noor")
    assert "Noor was Faithful." in s.said()
    s.to(Phase.HOST_VISIT)
    s.use({"Zuri": "Sunny"})
    mark = len(s.fx)
    s.to(Phase.TORCHES)
    assert len(s.table().present) == 5 and s.table().accusation == "banished"
    keys = s.keys(None, mark)
    assert keys.index("sheriff.accuses") < keys.index("sheriff.success") < keys.index("banish.no_reveal")
    assert "banish.reveal" not in keys and s.table().revealed is None
    assert allegiance_said_of(s, "Sunny", mark) == []
    for n in ("Zuri", "Kai", "Alex", "Ari"):
        assert not any("Sunny" in t and "Traitor" in t for t in s.told(n, mark))


@pytest.mark.rule("T4.7", "T4.11")
def test_a_falsified_faithful_banished_by_the_sheriff_is_never_announced_as_a_traitor() -> None:
    """T4.7: *"the player who receives the most votes will reveal whether they were a Faithful or a Traitor"*
    (page: no public message ever states an allegiance that is false). The Falsifier makes Kai, a Faithful,
    register as a Traitor, and the Sheriff accuses him: six sit at the round table, Kai is banished at once and
    revealed Faithful, and no announcement ever calls him a Traitor."""
    s = Play(EIGHT)
    s.banish("Vic")
    s.murder("Alex")
    s.use({"Efe": "Kai"})
    s.use({"Zuri": "Kai"})
    mark = len(s.fx)
    s.to(Phase.DISCUSSION)
    s.to(Phase.BREAKFAST)
    assert len(s.table().present) == 6 and s.table().accusation == "banished" and s.table().banished == "Kai"
    keys = s.keys(None, mark)
    assert keys.index("sheriff.success") < keys.index("banish.reveal") and "vote.open" not in keys
    assert allegiance_said_of(s, "Kai", mark) == ["Kai was Faithful."]
    assert "Kai" in s.said(mark)[keys.index("sheriff.success")]


# ---------------------------------------------------------------------------------------------- T9.2, T6.3

SURVIVOR_CAST: tuple[Hand, ...] = (
    ("Sunny", T, Power.BARTENDER),
    ("Efe", T, Power.FALSIFIER),
    ("Rhea", F, Power.SURVIVOR),
    *((n, F, None) for n in ("Zuri", "Kai", "Alex", "Ari", "Noor", "Omar", "Vic")),
)
"""Two Traitors among ten; Rhea is The Survivor."""


@pytest.mark.rule("T9.2", "T6.3", "T5.4")
def test_a_joker_who_reaches_the_finale_without_a_table_of_five_is_faithful_again() -> None:
    """T6.3: *"Upon arriving at the round table, The Joker will return to being their Faithful power"*; T9.2:
    *"a final banishment will take place, resulting in four finalists"*. The Joker accepted on night two is still
    held when an alerted Survivor's murder after a round table of six leaves four ([house] docs/house-rules.md §9
    Survivor before the finale): no round table of five is held, so the Joker returns to their Faithful power as
    the finale begins. The holder alone is told; a later finale banishment of them ends nothing and reveals
    nothing."""
    s = Play(SURVIVOR_CAST, joker_night=2)
    s.banish("Vic")
    s.banish("Zuri")
    s.murder("Kai")
    s.use({})
    joker = s.g.night.joker
    assert joker in ("Alex", "Ari", "Noor", "Omar")
    s.do(AnswerJoker(joker, True))
    assert s.g.powers.jokers == {joker}
    rest = [n for n in ("Alex", "Ari", "Noor", "Omar") if n != joker]
    s.banish(rest[0])
    s.murder("Rhea")
    s.to(Phase.BREAKFAST)
    assert s.g.players["Rhea"].alive and "survivor.alerted" in s.keys("Rhea")
    mark = len(s.fx)
    s.banish(rest[1])
    assert len(s.table().present) == 6 and s.table().survivor_murdered == "Rhea"
    assert s.g.phase is Phase.TORCHES and joker in s.g.living() and len(s.g.living()) == 4
    assert s.g.powers.jokers == set()
    assert [t for t in s.told(joker, mark) if "Joker" in t] == [
        "The finale: you return to your Faithful power; the Joker is gone."
    ]
    assert all("Joker" not in t for n in SURVIVOR_CAST if n[0] != joker for t in s.told(n[0], mark))
    assert not any("Joker" in t for t in s.said(mark))
    for n in s.g.living():
        s.do(ChooseTorch(n, Torch.BANISH_AGAIN))
    s.do(AskHappy(HOST))
    s.do(Advance(HOST))
    mark = len(s.fx)
    s.banish(joker)
    assert not s.g.players[joker].alive and s.g.outcome is None and s.g.phase is Phase.TORCHES
    assert "joker.banished" not in s.keys(None, mark) and "banish.no_reveal" in s.keys(None, mark)
    assert allegiance_said_of(s, joker, mark) == []


# ---------------------------------------------------------------------------------------------- T9.4


def last_traitor_banished(**kw: Any) -> Play:
    """Day one banishes Sunny, the only Traitor; the series moves on to day two's breakfast."""
    s = Play(SIX, powers=False, **kw)
    s.banish("Sunny")
    assert "Sunny was a Traitor." in s.said()
    s.to(Phase.BREAKFAST)
    return s


@pytest.mark.rule("T9.4", "T9.6")
def test_with_no_traitor_left_the_series_plays_on_to_the_finale() -> None:
    """T9.4: *"A series will end only when all players are in agreement, or when only two players remain."*
    T9.6: *"Otherwise, the surviving Faithful win."* No Traitor is left after day one, and the series does not end
    at breakfast: nobody is told it is over, day two's round table banishes Noor, and the four finalists all
    choose to end the game; then the Faithful win."""
    s = last_traitor_banished()
    assert "series.no_traitors" not in s.keys(None) and s.g.outcome is None
    s.banish("Noor")
    assert s.g.phase is Phase.TORCHES
    for f in s.g.living():
        s.do(ChooseTorch(f, Torch.END_GAME))
    s.to(Phase.OVER)
    assert s.g.outcome is not None and s.g.outcome.termination is Termination.FINALE_AGREED
    assert s.g.outcome.winner is Winner.FAITHFUL and set(s.g.outcome.winners) == {"Zuri", "Kai", "Alex", "Ari"}
    assert "series.no_traitors" not in s.keys(None)


@pytest.mark.rule("T9.4")
def test_the_early_end_with_no_traitor_left_is_a_setting() -> None:
    """T9.4 (page: the setting ``end_when_no_traitors``, off by default, may end the series at breakfast when no
    Traitor is left). Turned on, day two's breakfast tells everyone that no Traitor remains and the Faithful win."""
    s = last_traitor_banished(end_when_no_traitors=True)
    assert s.g.phase is Phase.OVER and "series.no_traitors" in s.keys(None)
    assert s.g.outcome is not None and s.g.outcome.termination is Termination.NO_TRAITORS
    assert s.g.outcome.winner is Winner.FAITHFUL
    assert s.g.record.to_dict()["settings"]["end_when_no_traitors"] is True


# ---------------------------------------------------------------------------------------------- wording


@pytest.mark.rule("T7.9")
def test_the_last_traitors_ultimatum_is_said_in_plain_words() -> None:
    """T7.9: *"if there is only one Traitor, they must instead choose a player to give an ultimatum"*. Sunny, the
    only Traitor, is told in whole sentences what he chose ("chooses to give an ultimatum to Kai"), and a murder he
    may not choose is refused in words that name it; Kai is told of the ultimatum, and nobody else hears of it."""
    s = Play(SEVEN)
    s.banish("Vic")
    assert s.g.phase is Phase.TURRET
    with pytest.raises(IllegalAction) as refused:
        s.g.handle(ChooseEvent("Sunny", NightEvent.MURDER, "Kai"), now=s.now + 1)
    assert str(refused.value) == "Not a choice tonight: murder."
    mark = len(s.fx)
    s.do(ChooseEvent("Sunny", NightEvent.ULTIMATUM, "Kai"))
    assert "Sunny chooses to give an ultimatum to Kai." in s.told("Sunny", mark)
    s.to(Phase.OFFER)  # the decision is told as the Turret's clock ends (phases house rule 9)
    assert "Tonight you give an ultimatum to Kai." in s.told("Sunny", mark)
    assert "offer.ultimatum" in s.keys("Kai", mark)
    assert not any("ultimatum" in t for n in ("Zuri", "Alex", "Ari", "Noor") for t in s.told(n, mark))
    assert not any("ultimatum" in t for t in s.said(mark))


@pytest.mark.rule("T4.7")
def test_a_banished_traitor_is_revealed_as_a_traitor_in_a_whole_sentence() -> None:
    """T4.7: *"the player who receives the most votes will reveal whether they were a Faithful or a Traitor"*.
    Above five at the table, everyone is told "Sunny was a Traitor." (with its article), as "Noor was Faithful.";
    the record keeps the allegiance."""
    s = Play(EIGHT, powers=False)
    s.banish("Sunny")
    assert "Sunny was a Traitor." in s.said() and s.table().revealed == "traitor"
    assert not any(t.endswith("was Traitor.") for t in s.said())


@pytest.mark.rule("BK19")
@pytest.mark.parametrize(("asks", "said"), [(0, "Nobody asked for a repeat"), (1, "Only 1 asked for a repeat")])
def test_bk_nobody_asking_for_a_repeat_is_said_so(club: Any, bk8: Any, asks: int, said: str) -> None:
    """BK19: «Если он/она сможет переубедить игроков, голосование повторяется.» (if he wins the players over,
    the vote is repeated). Ari is voted out and asks for a repeat: when nobody asks, everyone is told that nobody
    asked (never "Only 0 asked"); when one asks, how many did."""
    d = club("black_knights", bk8)
    others = [n for n, _ in bk8 if n != "Ari"]
    d.to_day()
    d.speeches({"Alex": "Ari"})
    d.vote(dict.fromkeys(others, "Ari"))
    d.advance()  # the last word
    d.repeat(dict.fromkeys(others[:asks], True))
    assert d.phase is not ClubPhase.REPEAT and "Ari" not in d.alive()
    texts = [e.message.text for e in d.effects if isinstance(e, Announce)]
    assert any(t.startswith(said) and t.endswith("the departure stands.") for t in texts)
    assert not any("Only 0" in t for t in texts)
