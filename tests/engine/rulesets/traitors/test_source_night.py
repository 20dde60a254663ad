"""The Traitors' night as the source text says it ("Night Cycle", "Traitors' Oath", "Traitors' Turret",
"Traitors' Equipment"): each case is played through the engine, and each test checks what every contestant was
told, where each was moved and what each was given or had taken away.

One cast of eight: the Traitors are Sunny and Efe (The Bartender and The Falsifier), or Sunny alone; Kai is The
Guardian; the others hold no power. Zuri is banished on day one so that night one has an event.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.actions import Action, Advance, AnswerOffer, CastVote, ChooseEvent, SkipPower, StartSeries, SwearOath
from engine.effects import Announce, GiveItem, MoveTo, Prompt, TakeItem, Whisper
from engine.errors import IllegalAction
from engine.ids import Allegiance, Item, NightEvent, Place, Power, Twist
from engine.rulesets.traitors.game import Game
from engine.rulesets.traitors.phases import Phase
from engine.rulesets.traitors.settings import DealEntry, Settings
from engine.rulesets.traitors.twists.trial import PutOnTrial
from engine.rulesets.traitors.views import view_for

HOST = "Host"
NAMES = ("Alex", "Kai", "Zuri", "Steve", "Ari", "Noor", "Sunny", "Efe")
HANDS: dict[str, tuple[Power | None, Power | None]] = {
    "Sunny": (Power.BARTENDER, Power.ANALYST),
    "Efe": (Power.FALSIFIER, Power.RESEARCHER),
    "Kai": (Power.GUARDIAN, None),
}
EQUIPMENT = (Item.TRAITORS_CLOAK, Item.LANTERN)

OPENING = "You stand before the Traitors' Turret. Before I give you this cloak, I'm going to need you to take the Traitors' Oath."
OATH = (
    ("Do you commit to lie and deceive throughout this game?", "I do."),
    ("Are you willing to murder one of your fellow players every single night?", "I am."),
    ("And do you vow to keep your identity, and the identity of your fellow Traitors, a secret?", "I do."),
)
CLOSING = "Then you are now, officially, a Traitor."
WAIT = "Go home and wait: the Traitors meet in the Turret once every Traitor has taken the Oath."


class Night:
    """A series with the cast above; ``do`` applies an input one second after the last and keeps its effects."""

    def __init__(self, traitors: tuple[str, ...], twists: dict[int, tuple[Twist, ...]] | None = None) -> None:
        deal = tuple(
            DealEntry(n, Allegiance.TRAITOR, *HANDS[n])
            if n in traitors
            else DealEntry(n, Allegiance.FAITHFUL, *HANDS.get(n, (None, None)) if n == "Kai" else (None, None))
            for n in NAMES
        )
        settings = Settings(contestants=NAMES, hosts=(HOST,), deal=deal, joker_night=None, twists=twists or {})
        self.g = Game(settings, seed=3)
        self.now = 0.0
        self.do(StartSeries())

    def do(self, action: Action) -> list[Any]:
        self.now += 1
        return self.g.handle(action, now=self.now)

    def swear_all(self) -> list[Any]:
        """Every unsworn Traitor answers the Oath's three questions; the effects of the last answer."""
        fx: list[Any] = []
        while self.g.phase is Phase.OATH:
            if self.g.night.oath_taking:  # type: ignore[union-attr]
                fx = self.do(SwearOath(self.g.night.oath_queue[0]))  # type: ignore[union-attr]
            else:
                fx += self.do(Advance(HOST))  # the Oath's clock runs out (phases house rule 9)
        return fx

    def to_night_one(self) -> None:
        """Day zero, night zero (the Oath; no event), day one: Zuri is banished; night one's Turret opens."""
        self.do(Advance(HOST))
        self.swear_all()
        while self.g.phase is not Phase.VOTE:
            self.do(Advance(HOST))
        for voter in list(self.g.ballot.voters):  # type: ignore[union-attr]
            self.do(CastVote(voter, "Zuri" if voter != "Zuri" else "Alex"))
        self.do(Advance(HOST))  # night one's Oath clock, with nobody to swear (phases house rule 9)
        assert self.g.phase is Phase.TURRET and not self.g.players["Zuri"].alive

    def seat(self, name: str) -> int:
        return self.g.players[name].seat


def told(effects: list[Any], name: str) -> list[str]:
    """The texts ``name`` alone received from ``effects``, in order: private messages, prompts with their choices'
    labels (``public`` has what everyone heard)."""
    out: list[str] = []
    for e in effects:
        if isinstance(e, Whisper) and name in e.to:
            out.append(e.message.text)
        elif isinstance(e, Prompt) and name in e.to:
            out.append(e.message.text)
            out += [f"[{c.label}]" for c in e.choices]
    return out


def public(effects: list[Any]) -> list[str]:
    """What everyone heard from ``effects``."""
    return [e.message.text for e in effects if isinstance(e, Announce)]


def moves(effects: list[Any]) -> list[tuple[tuple[str, ...], Place, tuple[int, ...]]]:
    return [(e.players, e.place, e.seats) for e in effects if isinstance(e, MoveTo)]


def handed(effects: list[Any]) -> list[tuple[str, str, tuple[str, ...]]]:
    """("give"|"take", item, contestants) for every item given or taken, in order."""
    out: list[tuple[str, str, tuple[str, ...]]] = []
    for e in effects:
        if isinstance(e, GiveItem):
            out.append(("give", e.item.value, tuple(sorted(e.to))))
        elif isinstance(e, TakeItem):
            out.append(("take", e.item.value, tuple(e.players or ())))
    return out


def holds(n: Night, name: str) -> list[Item]:
    return [item for item, _ in n.g.items.get(name, [])]


# ---------------------------------------------------------------------------------------------- T7.1 the Oath


@pytest.mark.rule("T7.1")
def test_the_oath_is_the_hosts_words_then_the_cloak_then_the_power() -> None:
    """ "Host: You stand before the Traitors' Turret. Before I give you this cloak, I'm going to need you to take
    the Traitors' Oath." … "Then you are now, officially, a Traitor." / "A Traitor will only learn their power
    after taking the Traitors' Oath."""
    n = Night(("Sunny", "Efe"))
    fx = n.do(Advance(HOST))  # day zero ends: everyone home, Sunny (first in seat order) to the Oath
    assert moves(fx) == [(NAMES, Place.HOME, tuple(range(1, 9))), (("Sunny",), Place.OATH_SPOT, ())]
    assert told(fx, "Sunny")[-3:] == [OPENING, OATH[0][0], f"[{OATH[0][1]}]"]
    assert all(OPENING not in told(fx, other) for other in NAMES if other != "Sunny")
    assert view_for(n.g, "Sunny").power is None and view_for(n.g, "Sunny").false_power is None
    for q in (1, 2):
        fx = n.do(SwearOath("Sunny"))
        assert told(fx, "Sunny") == [OATH[q][0], f"[{OATH[q][1]}]"]
        assert view_for(n.g, "Sunny").power is None  # not before the Oath is taken
        assert not handed(fx)
    fx = n.do(SwearOath("Sunny"))
    sunny = told(fx, "Sunny")
    assert sunny[:2] == [CLOSING, "You are a Traitor. Your power: The Bartender. Your false power: The Analyst."]
    closing = next(i for i, e in enumerate(fx) if isinstance(e, Whisper) and e.message.key == "oath.closing")
    cloak = next(i for i, e in enumerate(fx) if isinstance(e, GiveItem) and e.item is Item.TRAITORS_CLOAK)
    power = next(i for i, e in enumerate(fx) if isinstance(e, Whisper) and e.message.key == "oath.sworn")
    assert closing < cloak < power  # the cloak is given after the Oath, the power learned after it
    assert handed(fx)[0] == ("give", "traitors_cloak", ("Sunny",))
    assert view_for(n.g, "Sunny").power == "The Bartender"
    assert all(
        CLOSING not in told(fx, other) and OPENING not in told(fx, other)
        for other in NAMES
        if other not in ("Sunny", "Efe")
    )
    assert moves(fx)[0] == (("Sunny",), Place.HOME, (n.seat("Sunny"),))  # to wait: the Turret once all have sworn


@pytest.mark.rule("T7.1")
def test_one_traitor_at_a_time_takes_the_oath() -> None:
    """ "One Traitor at a time will take the Traitors' Oath before entering the Traitors' Turret for the first
    time." """
    n = Night(("Sunny", "Efe"))
    fx = n.do(Advance(HOST))
    assert not told(fx, "Efe")[1:] and (("Efe",), Place.OATH_SPOT, ()) not in moves(fx)
    before = (n.g.phase_seq, n.g.night.oath_step, list(n.g.night.oath_queue))  # type: ignore[union-attr]
    with pytest.raises(IllegalAction) as refused:
        n.do(SwearOath("Efe"))
    assert refused.value.reason == "illegal.oath.not_you"
    assert (n.g.phase_seq, n.g.night.oath_step, list(n.g.night.oath_queue)) == before  # type: ignore[union-attr]
    n.do(SwearOath("Sunny"))
    n.do(SwearOath("Sunny"))
    fx = n.do(SwearOath("Sunny"))
    fx += n.do(Advance(HOST))  # the Oath's clock ends (phases house rule 9)
    # Sunny, sworn, waits at home in the cloak; only then is Efe taken to the Oath, and asked alone
    assert moves(fx) == [(("Sunny",), Place.HOME, (n.seat("Sunny"),)), (("Efe",), Place.OATH_SPOT, ())]
    assert told(fx, "Sunny")[-1] == WAIT
    assert not any("Efe" in t for t in told(fx, "Sunny"))  # no Traitor is named before all have sworn
    assert told(fx, "Efe") == [OPENING, OATH[0][0], f"[{OATH[0][1]}]"]
    assert [p.to for p in fx if isinstance(p, Prompt)] == [frozenset({"Efe"})]
    n.do(SwearOath("Efe"))
    n.do(SwearOath("Efe"))
    fx = n.do(SwearOath("Efe"))
    fx += n.do(Advance(HOST))
    # both sworn: they enter the Turret together ("once every Traitor has taken the Traitors' Oath"), each given
    # the cloak once and the lantern, and learn each other
    assert handed(fx)[:3] == [
        ("give", "traitors_cloak", ("Efe",)),
        ("give", "lantern", ("Sunny",)),
        ("give", "lantern", ("Efe",)),
    ]
    assert "The Traitors: Sunny, Efe." in told(fx, "Sunny") and "The Traitors: Sunny, Efe." in told(fx, "Efe")
    assert moves(fx)[:2] == [(("Efe",), Place.HOME, (n.seat("Efe"),)), (("Sunny", "Efe"), Place.TURRET, ())]


# ---------------------------------------------------------------------------------------------- T7.3 home


@pytest.mark.rule("T7.3")
def test_the_traitors_go_home_when_the_turrets_decisions_are_made() -> None:
    """ "After making all of the necessary decisions, The Traitors will be sent to their individual homes." """
    n = Night(("Sunny", "Efe"))
    n.to_night_one()
    n.do(ChooseEvent("Sunny", NightEvent.MURDER, "Alex"))
    fx = n.do(ChooseEvent("Efe", NightEvent.MURDER, "Alex"))
    fx += n.do(Advance(HOST))  # the Turret's clock ends (phases house rule 9)
    assert n.g.phase is Phase.TRAITOR_POWERS and not moves(fx) and not handed(fx)  # powers: still in the Turret
    n.do(SkipPower("Sunny"))
    fx = n.do(SkipPower("Efe"))
    fx += n.do(Advance(HOST))  # the Traitor powers' clock, then the offer's (no offer tonight), end
    fx += n.do(Advance(HOST))
    assert handed(fx) == [("take", "traitors_cloak", ("Sunny", "Efe")), ("take", "lantern", ("Sunny", "Efe"))]
    assert moves(fx) == [(("Sunny", "Efe"), Place.HOME, (n.seat("Sunny"), n.seat("Efe")))]
    home = "All of tonight's decisions are made. Go home: your cloak and lantern are taken back."
    assert told(fx, "Sunny") == [home] and told(fx, "Efe") == ["You do not use your power tonight.", home]
    assert all(home not in told(fx, f) for f in NAMES if f not in ("Sunny", "Efe"))
    assert public(fx) == []  # the visit is told to each one visited, not announced (the night's shape is secret)
    assert n.g.phase is Phase.HOST_VISIT  # the host visits the Faithful with the Traitors at home
    visited = [f for f in NAMES if "Night 1: the host visits you." in told(fx, f)]
    assert visited and set(visited) == {f for f in NAMES if n.g.night.options.get(f)}
    assert n.g.places["Sunny"] == (Place.HOME, n.seat("Sunny")) and n.g.places["Efe"] == (Place.HOME, n.seat("Efe"))
    assert not any(i in holds(n, t) for t in ("Sunny", "Efe") for i in EQUIPMENT)


@pytest.mark.rule("T7.3")
def test_after_the_oath_night_the_traitors_meet_then_go_home() -> None:
    """Night zero has no event; the Traitors meet in the Turret, then are "sent to their individual homes"."""
    n = Night(("Sunny", "Efe"))
    n.do(Advance(HOST))
    fx = n.swear_all()
    turret = moves(fx).index((("Sunny", "Efe"), Place.TURRET, ()))
    assert moves(fx)[turret + 1] == (("Sunny", "Efe"), Place.HOME, (n.seat("Sunny"), n.seat("Efe")))
    assert handed(fx)[-2:] == [("take", "traitors_cloak", ("Sunny", "Efe")), ("take", "lantern", ("Sunny", "Efe"))]
    efe = told(fx, "Efe")
    assert efe[efe.index("The Traitors: Sunny, Efe.") :][:3] == [
        "The Traitors: Sunny, Efe.",
        "No murder tonight.",
        "All of tonight's decisions are made. Go home: your cloak and lantern are taken back.",
    ]
    assert n.g.phase is Phase.BREAKFAST


@pytest.mark.rule("T7.3")
def test_the_trial_begins_when_the_traitors_go_home() -> None:
    """ "If the Trial twist is active, it will begin upon The Traitors being sent to their individual homes." """
    n = Night(("Sunny", "Efe"), {1: (Twist.TRIAL,)})
    n.to_night_one()
    for t in ("Sunny", "Efe"):
        for f in ("Alex", "Steve", "Ari"):
            fx = n.do(PutOnTrial(t, f))
    fx += n.do(Advance(HOST))  # the Turret's clock ends (phases house rule 9)
    assert n.g.phase is Phase.TRAITOR_POWERS  # the decision is made; the Traitor powers come first
    assert not any(k.startswith("You are on trial") for f in ("Alex", "Steve", "Ari") for k in told(fx, f))
    n.do(SkipPower("Sunny"))
    fx = n.do(SkipPower("Efe"))
    fx += n.do(Advance(HOST))
    home = next(i for i, e in enumerate(fx) if isinstance(e, MoveTo) and e.place is Place.HOME)
    cards = [i for i, e in enumerate(fx) if isinstance(e, Whisper) and e.message.key.startswith("trial.card.")]
    assert len(cards) == 3 and home < min(cards)
    drawn = {f: told(fx, f) for f in ("Alex", "Steve", "Ari")}
    death = [f for f, texts in drawn.items() if "You are on trial tonight. You drew the death card." in texts]
    assert len(death) == 1 and n.g.night.attack == (death[0], False)  # type: ignore[union-attr]
    assert told(fx, "Sunny")[-1] == f"On trial: Alex, Steve, Ari. {death[0]} drew the death card."
    assert all(not any("trial" in t for t in told(fx, f)) for f in ("Kai", "Noor"))


# ---------------------------------------------------------------------------------------------- T7.6 meeting


@pytest.mark.rule("T7.6")
def test_a_seduction_the_traitors_meet_the_contestant_in_cloak_and_lantern() -> None:
    """ "When The Traitors meet each other, or with a Faithful during the night, they will be equipped with their
    cloak and lantern." The two Traitors come to Alex's home; he sees who they are and declines."""
    n = Night(("Sunny", "Efe"))
    n.to_night_one()
    n.do(ChooseEvent("Sunny", NightEvent.SEDUCE, "Alex"))
    n.do(ChooseEvent("Efe", NightEvent.SEDUCE, "Alex"))
    n.do(Advance(HOST))  # the Turret's clock ends (phases house rule 9)
    n.do(SkipPower("Sunny"))
    fx = n.do(SkipPower("Efe"))
    fx += n.do(Advance(HOST))
    assert n.g.phase is Phase.OFFER
    # the Traitors are brought to Alex, still equipped; Alex stays home and receives the diary-room book
    assert moves(fx) == [(("Sunny", "Efe"), Place.HOME_VISIT, (n.seat("Alex"), n.seat("Alex")))]
    assert handed(fx) == [("give", "diary_book", ("Alex",))]
    assert all(i in holds(n, t) for t in ("Sunny", "Efe") for i in EQUIPMENT)
    assert n.g.places["Alex"] == (Place.HOME, n.seat("Alex"))
    assert n.g.places["Sunny"] == n.g.places["Efe"] == (Place.HOME_VISIT, n.seat("Alex"))
    assert told(fx, "Alex") == [
        "The Traitors come to your home in cloak and lantern: Sunny, Efe.",
        "The Traitors offer you a place among them. Join them?",
        "[Join the Traitors]",
        "[Decline]",
    ]
    visit = "In cloak and lantern, you go to Alex's home to make the offer."
    assert told(fx, "Sunny") == [visit] and told(fx, "Efe") == ["You do not use your power tonight.", visit]
    assert all(told(fx, f) == [] for f in NAMES if f not in ("Alex", "Sunny", "Efe")) and public(fx) == []
    fx = n.do(AnswerOffer("Alex", False))
    assert handed(fx) == [
        ("take", "diary_book", ("Alex",)),
        ("take", "traitors_cloak", ("Sunny", "Efe")),
        ("take", "lantern", ("Sunny", "Efe")),
    ]
    assert moves(fx) == [(("Sunny", "Efe"), Place.HOME, (n.seat("Sunny"), n.seat("Efe")))]  # Alex stays home
    assert told(fx, "Sunny")[0] == "Alex declined."
    assert told(fx, "Alex") == []
    # Alex met them: it stays among what he knows, and nobody else was told
    assert "The Traitors come to your home in cloak and lantern: Sunny, Efe." in view_for(n.g, "Alex").messages
    assert all("cloak and lantern: Sunny" not in m for f in NAMES if f != "Alex" for m in view_for(n.g, f).messages)
    assert n.g.players["Alex"].allegiance is Allegiance.FAITHFUL and n.g.night.record.result == "declined"  # type: ignore[union-attr]


@pytest.mark.rule("T7.6")
def test_an_ultimatum_the_last_traitor_meets_the_contestant_in_cloak_and_lantern() -> None:
    """ "… if there is only one Traitor, they must instead choose a player to give an ultimatum" and "When The
    Traitors meet … with a Faithful during the night, they will be equipped with their cloak and lantern." """
    n = Night(("Sunny",))
    n.to_night_one()
    n.do(ChooseEvent("Sunny", NightEvent.ULTIMATUM, "Noor"))
    n.do(Advance(HOST))  # the Turret's clock ends (phases house rule 9)
    fx = n.do(SkipPower("Sunny"))
    fx += n.do(Advance(HOST))
    assert not any(h[0] == "take" for h in handed(fx))  # the lone Traitor keeps cloak and lantern for the meeting
    assert moves(fx) == [(("Sunny",), Place.HOME_VISIT, (n.seat("Noor"),))]
    assert told(fx, "Noor")[:2] == [
        "The last Traitor comes to your home in cloak and lantern: Sunny.",
        "The last Traitor gives you an ultimatum: join them, or be murdered tonight.",
    ]
    assert all(told(fx, f) == [] for f in NAMES if f not in ("Noor", "Sunny")) and public(fx) == []
    fx = n.do(AnswerOffer("Noor", True))
    assert n.g.players["Noor"].allegiance is Allegiance.TRAITOR
    assert told(fx, "Noor") == ["You are now a Traitor. You will take the Oath tomorrow night."]
    assert told(fx, "Sunny")[0] == "Noor accepted."
    assert moves(fx) == [(("Sunny",), Place.HOME, (n.seat("Sunny"),))]
    assert handed(fx)[1:] == [("take", "traitors_cloak", ("Sunny",)), ("take", "lantern", ("Sunny",))]


@pytest.mark.rule("T7.6")
def test_a_declined_ultimatum_is_a_murder_after_the_meeting() -> None:
    """ "… either recruiting them as a Traitor, or murdering them, even if they are protected": Noor met Sunny,
    declines and is murdered; Sunny went home first, without the equipment."""
    n = Night(("Sunny",))
    n.to_night_one()
    n.do(ChooseEvent("Sunny", NightEvent.ULTIMATUM, "Noor"))
    n.do(Advance(HOST))  # the Turret's and the Traitor powers' clocks end (phases house rule 9)
    n.do(SkipPower("Sunny"))
    n.do(Advance(HOST))
    fx = n.do(AnswerOffer("Noor", False))
    assert moves(fx)[0] == (("Sunny",), Place.HOME, (n.seat("Sunny"),))
    assert not any(i in holds(n, "Sunny") for i in EQUIPMENT)
    while n.g.phase is not Phase.BREAKFAST:
        n.do(Advance(HOST))
    assert not n.g.players["Noor"].alive and n.g.places["Noor"] == (Place.DIARY_ROOM, None)
