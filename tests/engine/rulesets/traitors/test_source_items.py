"""Three items of the rulebook played through the engine, each checked by what every contestant and the host were
told and given: the seer book (T8.5), the finale torches (T9.3) and the player heads of the breakfast room
(T10.2). The Minecraft side of each is in ``tests/bridge/minecraft/test_source_items.py`` and
``tests/bridge/sandbox/test_source_items.py``.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import actions
from engine.actions import (
    Advance,
    CastVote,
    ChooseEvent,
    ChooseTorch,
    ReplaceContestant,
    SkipPower,
    StartSeries,
    SwearOath,
    TimerExpired,
    UndoHostAction,
    UsePower,
)
from engine.effects import Announce, Effect, GiveItem, Message, Prompt, TakeItem, Whisper
from engine.errors import IllegalAction
from engine.ids import Allegiance, Item, NightEvent, Place, Power, Torch, Twist
from engine.record import BreakfastRecord, TorchRound
from engine.rulesets.traitors.game import Game
from engine.rulesets.traitors.phases import Phase
from engine.rulesets.traitors.settings import DealEntry, Settings
from engine.rulesets.traitors.twists.guess import AskSeer, VoteNominee

HOST = "Host"
T, F = Allegiance.TRAITOR, Allegiance.FAITHFUL


class Series:
    """A scripted series with an explicit deal; ``do`` applies an input one second after the last."""

    def __init__(self, hands: tuple[tuple[str, Allegiance, Power | None], ...], **kw: Any) -> None:
        kw.setdefault("joker_night", None)
        deal = tuple(DealEntry(n, a, p) for n, a, p in hands)
        settings = Settings(contestants=tuple(h[0] for h in hands), hosts=(HOST,), deal=deal, **kw)
        self.g = Game(settings, seed=11)
        self.now = 0.0
        self.fx: list[Effect] = []
        self.do(StartSeries())

    def do(self, action: Any) -> list[Effect]:
        self.now += 1
        fx = self.g.handle(action, now=self.now)
        self.fx += fx
        return fx

    def advance_to(self, phase: Phase) -> None:
        for _ in range(60):
            if self.g.phase is phase:
                return
            if self.g.phase is Phase.OATH and self.g.night.oath_taking:
                self.do(SwearOath(self.g.night.oath_queue[0]))
            elif self.g.phase in (Phase.TRAITOR_POWERS, Phase.HOST_VISIT) and self.g.night.pending:
                self.do(SkipPower(self.g.night.pending[0]))
            else:
                self.do(Advance(HOST))
        raise AssertionError(f"never reached {phase}; at {self.g.phase}")

    def banish(self, name: str) -> None:
        self.advance_to(Phase.VOTE)
        b = self.g.ballot
        for v in list(b.voters):
            self.do(CastVote(v, name if v != name else next(c for c in b.candidates if c != name)))
        if self.g.phase is Phase.OATH and not self.g.night.oath_taking:
            self.do(Advance(HOST))  # an Oath clock with nobody at the Oath (phases house rule 9)

    def since(self, mark: int) -> list[Effect]:
        return self.fx[mark:]

    def told(self, name: str, since: int = 0) -> list[Message]:
        """Every message ``name`` received (announcements, whispers and prompts to them)."""
        return [
            e.message
            for e in self.fx[since:]
            if isinstance(e, (Announce, Whisper, Prompt)) and (isinstance(e, Announce) or name in e.to)
        ]

    def public(self, since: int = 0) -> list[Message]:
        return [e.message for e in self.fx[since:] if isinstance(e, Announce)]

    def given(self, since: int = 0) -> list[GiveItem]:
        return [e for e in self.fx[since:] if isinstance(e, GiveItem)]


# ---------------------------------------------------------------------------------------------- T8.5 the seer book

SEER_HANDS = (
    ("Sunny", T, Power.BARTENDER),
    ("Efe", T, Power.FALSIFIER),
    ("Makena", T, Power.SILENCER),
    ("Alex", F, None),
    ("Kai", F, None),
    ("Zuri", F, None),
    ("Steve", F, None),
    ("Ari", F, None),
    ("Noor", F, None),
    ("Lena", F, None),
    ("Omar", F, None),
    ("Vic", F, None),
)


def seer_day(target: str) -> tuple[Series, int]:
    """Day two's Seer twist: Vic banished on day one, Omar murdered on night one, Sunny falsified by The
    Falsifier that night, Noor nominated by the Faithful; returns the series just before Noor chooses ``target``
    and the mark of the effects from there."""
    s = Series(SEER_HANDS, twists={2: (Twist.SEER,)})
    s.banish("Vic")
    for t in ("Sunny", "Efe", "Makena"):
        s.do(ChooseEvent(t, NightEvent.MURDER, "Omar"))
    s.do(Advance(HOST))  # the Turret's clock ends (phases house rule 9)
    s.do(UsePower("Efe", "Sunny"))  # Sunny registers as Faithful until the next night; twists see the truth
    s.advance_to(Phase.NOMINATION)
    for v in list(s.g.twist_state.nominators):
        s.do(VoteNominee(v, "Noor" if v != "Noor" else "Ari"))
    s.advance_to(Phase.NOMINEE)
    assert s.g.registers_as("Sunny") is F
    return s, len(s.fx)


@pytest.mark.rule("T8.5")
@pytest.mark.parametrize(
    ("target", "page"),
    [
        ("Sunny", "The Seer reveals:\n\nSunny is a Traitor."),
        ("Alex", "The Seer reveals:\n\nAlex is Faithful."),
    ],
)
def test_the_seer_books_page_states_the_chosen_contestants_true_allegiance(target: str, page: str) -> None:
    """Rulebook §10: "the seer book, which reveals whether a player is a Faithful or a Traitor during the Seer
    twist". The book itself states the truth (Sunny is falsified, yet the page says Traitor), and only the nominee
    receives it."""
    s, mark = seer_day(target)
    s.do(AskSeer("Noor", target))
    books = [g for g in s.given(mark) if g.item is Item.SEER_BOOK]
    assert [b.to for b in books] == [frozenset({"Noor"})]
    label = books[0].label
    assert isinstance(label, Message) and label.key == "seer.book.page"
    assert label.text == page  # the book's own page, not a pointer to chat
    assert any(item is Item.SEER_BOOK and lab == label for item, lab in s.g.items["Noor"])
    assert page.splitlines()[-1] in " ".join(s.g.view_for("Noor").items)
    for other in s.g.living():
        if other != "Noor":
            assert not any(item is Item.SEER_BOOK for item, _ in s.g.items.get(other, []))
            seen = " ".join(m.text for m in s.told(other, mark)) + " ".join(s.g.view_for(other).items)
            assert target not in seen and "Traitor" not in seen and "Faithful" not in seen
    assert [m.key for m in s.public(mark)] == ["seer.visited", "phase.round_table"]


# ---------------------------------------------------------------------------------------------- T9.3 the finale torches

FINALE_HANDS = (
    ("Alex", F, None),
    ("Kai", F, None),
    ("Zuri", F, None),
    ("Sunny", T, None),
    ("Efe", F, None),
    ("Noor", F, None),
)
FINALISTS = ("Alex", "Kai", "Zuri", "Sunny")


def finale() -> Series:
    """Six contestants, Sunny the Traitor: Efe banished on day one, Noor on day two; four finalists vote."""
    s = Series(FINALE_HANDS, powers=False)
    s.banish("Efe")
    s.banish("Noor")
    assert s.g.phase is Phase.TORCHES and tuple(s.g.torches) == FINALISTS
    return s


def torches_held(s: Series, name: str) -> list[tuple[Item, Any]]:
    return [(i, lab) for i, lab in s.g.items.get(name, []) if i in (Item.BANISH_TORCH, Item.END_TORCH)]


@pytest.mark.rule("T9.3")
def test_a_finale_vote_gives_the_host_a_torch_for_that_finalist() -> None:
    """Rulebook §10 "Finale Torches": "any player who is eligible to vote will run the vote command to decide
    whether to banish again, or end game. Doing so will give the host a torch, which will either turn red for
    banish again, or green for end game when placed." The host is told how the torches come; the finalist is
    told their vote; no finalist holds a torch."""
    s = finale()
    assert "finale.torch.host" in [m.key for m in s.told(HOST)]
    for n in FINALISTS:
        prompts = [e for e in s.fx if isinstance(e, Prompt) and e.to == frozenset({n})]
        assert [c.action for c in prompts[-1].choices] == [ChooseTorch(n, t) for t in Torch]
    mark = len(s.fx)
    s.do(ChooseTorch("Alex", Torch.BANISH_AGAIN))
    s.do(ChooseTorch("Kai", Torch.END_GAME))
    assert [(g.to, g.item, g.label) for g in s.given(mark)] == [
        (frozenset({HOST}), Item.BANISH_TORCH, "Alex"),
        (frozenset({HOST}), Item.END_TORCH, "Kai"),
    ]
    assert torches_held(s, HOST) == [(Item.BANISH_TORCH, "Alex"), (Item.END_TORCH, "Kai")]
    assert all(torches_held(s, n) == [] for n in FINALISTS)
    assert [m.text for m in s.told("Alex", mark) if m.key == "finale.torch.chosen"] == [
        "Your vote: Banish Again. You can change it until the vote is locked."
    ]
    assert "finale.torch.chosen" not in [m.key for m in s.told("Zuri", mark)]
    assert not s.public(mark)  # a vote is not announced before the lock


@pytest.mark.rule("T9.3")
def test_a_changed_vote_replaces_the_finalists_torch_and_the_same_vote_changes_nothing() -> None:
    """Rulebook §10: "Unlike vote papers, a finale vote can be changed until the vote is locked." The host holds
    one torch per finalist who voted, of their latest vote."""
    s = finale()
    s.do(ChooseTorch("Alex", Torch.BANISH_AGAIN))
    s.do(ChooseTorch("Zuri", Torch.BANISH_AGAIN))
    mark = len(s.fx)
    s.do(ChooseTorch("Alex", Torch.END_GAME))
    takes = [e for e in s.since(mark) if isinstance(e, TakeItem)]
    assert [(t.item, t.players) for t in takes] == [(Item.BANISH_TORCH, (HOST,))]
    assert sorted(torches_held(s, HOST), key=str) == sorted(
        [(Item.BANISH_TORCH, "Zuri"), (Item.END_TORCH, "Alex")], key=str
    )
    mark = len(s.fx)
    s.do(ChooseTorch("Alex", Torch.END_GAME))  # the same again: kept
    assert s.given(mark) == [] and not any(isinstance(e, TakeItem) for e in s.since(mark))
    assert s.g.torches["Alex"] is Torch.END_GAME


@pytest.mark.rule("T9.3")
def test_the_host_asks_whether_everybody_is_happy_then_locks_and_finalists_may_change_in_between() -> None:
    """Rulebook §10: "The host will ask whether everybody is happy with their decision before locking the
    vote." Everyone hears the question; every finalist is asked again and may still change; the host's lock then
    counts the changed vote. The host keeps the torches, to place them."""
    s = finale()
    for n, t in zip(FINALISTS, (Torch.END_GAME, Torch.END_GAME, Torch.BANISH_AGAIN, Torch.END_GAME), strict=True):
        s.do(ChooseTorch(n, t))
    mark = len(s.fx)
    s.do(actions.AskHappy(HOST))
    question = (
        "The host asks: is everybody happy with their decision? The vote can still be changed until it is locked."
    )
    assert [m.text for m in s.public(mark)] == [question]
    for n in FINALISTS:
        asked = [e for e in s.since(mark) if isinstance(e, Prompt) and e.to == frozenset({n})]
        assert [e.message.key for e in asked] == ["finale.happy.prompt"]
        assert {c.action for c in asked[0].choices} == {ChooseTorch(n, t) for t in Torch}
    assert s.g.phase is Phase.TORCHES and not any(isinstance(e, TorchRound) for e in s.g.record.events)
    s.do(ChooseTorch("Zuri", Torch.END_GAME))  # still open after the question
    mark = len(s.fx)
    s.do(Advance(HOST))  # the host locks
    said = [m.text for m in s.public(mark)]
    assert said[:5] == [
        "The finale vote is locked.",
        "Alex: End Game",
        "Kai: End Game",
        "Zuri: End Game",
        "Sunny: End Game",
    ]
    assert [e.count for e in s.g.record.events if isinstance(e, TorchRound)] == ["4-0"]
    assert s.g.is_over
    assert sorted(lab for _, lab in torches_held(s, HOST)) == sorted(FINALISTS)  # the host places them


@pytest.mark.rule("T9.3")
def test_the_lock_waits_for_the_question_from_the_host_or_the_clock() -> None:
    """Rulebook §10: the question comes "before locking the vote". Moving on (or the clock running out) before
    it was asked asks it, in the host's words, and gives the finalists the question's clock; the lock follows."""
    s = finale()
    s.do(ChooseTorch("Alex", Torch.BANISH_AGAIN))
    mark = len(s.fx)
    s.do(Advance(HOST))  # "Lock the vote" before asking: the question first
    assert [m.key for m in s.public(mark)] == ["finale.happy"]
    assert s.g.phase is Phase.TORCHES and s.g.torches_asked
    assert s.g.deadline == pytest.approx(s.now + 30.0)  # torch_question, 30 s by default
    s.do(ChooseTorch("Alex", Torch.END_GAME))
    mark = len(s.fx)
    s.do(TimerExpired(s.g.phase_seq))  # the clock locks
    assert "finale.locked" in [m.key for m in s.public(mark)]
    rounds = [e for e in s.g.record.events if isinstance(e, TorchRound)]
    assert rounds[-1].choices == {"Alex": "end_game", "Kai": None, "Zuri": None, "Sunny": None}


@pytest.mark.rule("T9.3")
def test_the_next_finale_vote_takes_the_hosts_last_torches_back() -> None:
    """House rule 2 of ``engine.rulesets.traitors.finale``: after a banish-again vote the host gets a fresh torch
    per finalist, never a stale one from the last vote."""
    s = finale()
    for n in FINALISTS:
        s.do(ChooseTorch(n, Torch.BANISH_AGAIN if n == "Alex" else Torch.END_GAME))
    s.do(actions.AskHappy(HOST))
    s.do(Advance(HOST))
    assert s.g.phase is Phase.VOTE and len(torches_held(s, HOST)) == 4
    for v, t in {"Alex": "Sunny", "Kai": "Sunny", "Zuri": "Sunny", "Sunny": "Alex"}.items():
        s.do(CastVote(v, t))
    assert s.g.phase is Phase.TORCHES
    assert torches_held(s, HOST) == []
    s.do(ChooseTorch("Kai", Torch.END_GAME))
    assert torches_held(s, HOST) == [(Item.END_TORCH, "Kai")]


@pytest.mark.rule("T9.3")
def test_only_a_host_asks_and_only_during_the_finale_vote() -> None:
    """Rulebook §10: *"The host will ask whether everybody is happy with their decision before locking the
    vote."* The question is the host's, in the finale vote only: a finalist asking, or a host before the finale,
    is refused with a clear reason and changes nothing."""
    s = finale()
    before = (list(s.g.log), s.g.phase_seq, s.g.torches_asked)
    with pytest.raises(IllegalAction) as info:
        s.g.handle(actions.AskHappy("Alex"), now=s.now + 1)  # a finalist
    assert info.value.reason == "illegal.not_host"
    assert (list(s.g.log), s.g.phase_seq, s.g.torches_asked) == before
    early = Series(FINALE_HANDS, powers=False)
    with pytest.raises(IllegalAction) as info:
        early.g.handle(actions.AskHappy(HOST), now=2.0)
    assert info.value.reason == "illegal.phase"


# ---------------------------------------------------------------------------------------------- T10.2 the heads

HEAD_HANDS = (
    ("Alex", F, None),
    ("Kai", F, None),
    ("Zuri", F, None),
    ("Sunny", T, None),
    ("Efe", T, None),
    ("Noor", F, None),
    ("Ari", F, None),
    ("Steve", F, None),
    ("Lena", F, None),
)


def heads_set(effects: list[Effect]) -> list[tuple[int, str | None]]:
    from engine.effects import PlaceItem

    return [(e.seat, e.label) for e in effects if isinstance(e, PlaceItem) and e.item is Item.PLAYER_HEAD]


def heads_cleared(effects: list[Effect]) -> list[int]:
    from engine.effects import ClearPlace

    return [s for e in effects if isinstance(e, ClearPlace) and e.item is Item.PLAYER_HEAD for s in e.seats]


def to_day_two_breakfast(**kw: Any) -> tuple[Series, int]:
    """Alex banished on day one, Kai murdered on night one; the series at day two's breakfast, and the mark of the
    night's end."""
    s = Series(HEAD_HANDS, powers=False, **kw)
    s.advance_to(Phase.BREAKFAST)
    s.banish("Alex")
    mark = len(s.fx)
    for t in ("Sunny", "Efe"):
        s.do(ChooseEvent(t, NightEvent.MURDER, "Kai"))
    s.advance_to(Phase.BREAKFAST)
    assert s.g.day == 2
    return s, mark


@pytest.mark.rule("T10.2")
def test_each_contestant_arriving_at_breakfast_has_their_head_set_at_their_place() -> None:
    """Rulebook §10 "Misc. Items": "the player heads used in the breakfast room"; §3: "players who survive the
    night will arrive at breakfast in a random order". Each arrival, as it is announced, sets that contestant's
    head (by name) at their seat's place; the murdered contestant does not arrive, the banished neither: their
    places stay empty. Everyone sees the heads (public)."""
    s, mark = to_day_two_breakfast()
    arrivals = [e for e in s.g.record.events if isinstance(e, BreakfastRecord)][-1].arrivals
    assert sorted(arrivals) == sorted(n for n, *_ in HEAD_HANDS if n not in ("Alex", "Kai"))
    seats = s.g.seats()
    assert heads_set(s.since(mark)) == [(seats[n], n) for n in arrivals]
    # each head right after its arrival is announced
    from engine.effects import PlaceItem

    order = [
        e.message.params if isinstance(e, Announce) else e.label
        for e in s.since(mark)
        if (isinstance(e, Announce) and e.message.key == "breakfast.arrives") or isinstance(e, PlaceItem)
    ]
    assert order == [x for n in arrivals for x in ((("player", n),), n)]
    assert all(e.recipients is None for e in s.since(mark) if isinstance(e, PlaceItem))
    placed = s.g.world_state().placed
    assert placed == {(Place.BREAKFAST_TABLE, seats[n]): (Item.PLAYER_HEAD, n) for n in arrivals}
    assert (Place.BREAKFAST_TABLE, seats["Kai"]) not in placed and (Place.BREAKFAST_TABLE, seats["Alex"]) not in placed


@pytest.mark.rule("T10.2")
def test_a_head_goes_when_its_contestant_leaves_and_every_head_when_the_night_begins() -> None:
    """[house] §10: a banished contestant's head is taken away at once; the rest when the next night begins."""
    s, _ = to_day_two_breakfast()
    seats = s.g.seats()
    mark = len(s.fx)
    s.banish("Noor")
    out = heads_cleared(s.since(mark))
    assert out[0] == seats["Noor"]
    assert sorted(out[1:]) == sorted(seats[n] for n in s.g.living())
    assert s.g.world_state().placed == {}


@pytest.mark.rule("T10.2")
def test_a_replaced_contestants_head_shows_the_player_who_plays_the_seat() -> None:
    """Rulebook §10: *"the player heads used in the breakfast room"*. The head names the player whose face it
    shows: after a replacement, the seat's new player."""
    s = Series(HEAD_HANDS, powers=False)
    s.do(ReplaceContestant(HOST, "Zuri", "Bob_2"))
    mark = len(s.fx)
    s.advance_to(Phase.BREAKFAST)  # day one's breakfast
    assert (s.g.seats()["Zuri"], "Bob_2") in heads_set(s.since(mark))
    assert (Place.BREAKFAST_TABLE, s.g.seats()["Zuri"]) in s.g.world_state().placed
    assert s.g.world_state().placed[(Place.BREAKFAST_TABLE, s.g.seats()["Zuri"])] == (Item.PLAYER_HEAD, "Bob_2")


@pytest.mark.rule("T10.2")
def test_undoing_the_move_into_breakfast_takes_the_heads_away_again() -> None:
    """Rulebook §10: *"the player heads used in the breakfast room"*, set as each contestant arrives. An undo puts
    the castle back (``engine.core.host`` house rule 4): the heads set by the undone step go."""
    s = Series(HEAD_HANDS, powers=False)
    s.banish("Alex")
    assert s.g.phase is Phase.TURRET
    s.advance_to(Phase.BREAKFAST)  # the host moves on out of the Turret: nobody chose, nobody is murdered
    assert s.g.log[-1]["action"] == "advance" and s.g.world_state().placed
    mark = len(s.fx)
    s.do(UndoHostAction(HOST))
    assert sorted(heads_cleared(s.since(mark))) == sorted(s.g.seats()[n] for n in s.g.living())
    assert s.g.world_state().placed == {}
