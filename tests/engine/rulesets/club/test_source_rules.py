"""The club rulesets exactly as their source texts say: the Courtesan's chosen does not act (BK5), the end
(BK12), actions in turn (MY4) and the discussion in turn (MY9).

Each test names its rule id (``docs/rules/``), quotes the source fragment (Russian for Black Knights, Ukrainian
for Mafia & Yakuza, with an English gloss), plays the case through the engine and checks what each contestant
was told: their prompts, private messages and views, not only the outcome.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.actions import SkipPower, UsePower
from engine.core.night import BLOCK, MINE, SHOT, Visit, resolve
from engine.effects import Announce, ClockStarted, Prompt, ShowTitle, Whisper
from engine.errors import IllegalAction
from engine.outcome import Termination, Winner
from engine.rulesets.club.game import KEEP, ClubPhase

BK = "black_knights"
MY = "mafia_yakuza"


# ---------------------------------------------------------------------------------------------- what each was told


def prompts(d: Any, name: str, since: int = 0) -> list[tuple[str, list[Any]]]:
    """The questions ``name`` was shown from effect ``since`` on: (message key, the inputs of its buttons)."""
    return [
        (e.message.key, [c.action for c in e.choices])
        for e in d.effects[since:]
        if isinstance(e, Prompt) and name in e.to
    ]


def whispers(d: Any, name: str, since: int = 0) -> list[tuple[str, dict[str, str]]]:
    """The private messages ``name`` received from effect ``since`` on: (key, params)."""
    return [
        (e.message.key, dict(e.message.params)) for e in d.effects[since:] if isinstance(e, Whisper) and name in e.to
    ]


def public(d: Any, since: int = 0) -> list[tuple[str, Any]]:
    """What everyone saw from effect ``since`` on: announcements (key, params) and phase clocks (label, seconds)."""
    out: list[tuple[str, Any]] = []
    for e in d.effects[since:]:
        if isinstance(e, Announce):
            out.append((e.message.key, dict(e.message.params)))
        elif isinstance(e, ClockStarted):
            out.append((e.label.key, e.seconds))
    return out


def play_step(d: Any, picks: dict[str, str | None]) -> None:
    """Answer the open night step: ``picks[contestant]`` = target, else a pass (a blocked one goes back to sleep);
    then the step's clock runs out."""
    for a in list(d.game.pending):
        t = picks.get(a)
        d.do(UsePower(a, t) if t is not None else SkipPower(a))
    d.expire()


def bk_night_one(club: Any, deal: tuple[tuple[str, str], ...], **kw: Any) -> Any:
    """Black Knights after the introduction night and day 1 (nobody put forward): night 1, before the Courtesan."""
    d = club(BK, deal, **kw)
    d.to_day()
    d.speeches({})
    assert d.phase is ClubPhase.NIGHT and d.game.current_step().name == "courtesan"
    return d


# ---------------------------------------------------------------------------------------------- BK5


@pytest.mark.rule("BK5")
def test_bk5_a_chosen_grey_cardinal_is_not_asked_for_the_kill_and_makes_no_check(club: Any, bk8: Any) -> None:
    """ "Выбранный игрок не действует этой ночью (в случае, если имеет активную роль)" (the chosen contestant does
    not act this night, if they have an active role). The Courtesan chooses the Grey Cardinal: at the Black kill
    he is told he is not woken, with one button to go back to sleep, and is never asked for a victim; the Black
    Knight decides the kill alone and the Cardinal does not see his pick; at his check he is told again and
    makes none. [house] What he is told: "You are not woken tonight." at each of his steps, in place of the
    question, and "You go back to sleep." when he presses its one button; nothing else."""
    d = bk_night_one(club, bk8)
    play_step(d, {"Alex": "Kai"})
    assert d.game.current_step().name == "black_kill" and d.game.pending == ["Kai", "Zuri"]
    mark = len(d.effects)
    assert prompts(d, "Kai", 0)[-1] == ("club.blocked", [SkipPower("Kai")])
    assert prompts(d, "Zuri", 0)[-1][0] == "bk.prompt.black_kill"
    assert d.game.legal_actions("Kai") == [SkipPower("Kai")]
    assert d.game.view_for("Kai").can_act == ("skip_power",)
    record = d.game.record.to_dict()
    with pytest.raises(IllegalAction, match="not woken"):
        d.do(UsePower("Kai", "Efe"))
    assert d.game.record.to_dict() == record and d.game.pending == ["Kai", "Zuri"]
    d.do(UsePower("Zuri", "Sunny"))
    d.do(SkipPower("Kai"))
    assert whispers(d, "Kai", mark) == [("club.blocked.asleep", {})]  # not Zuri's pick, not "you pass"
    d.expire()
    assert d.game.current_step().name == "cardinal_check"
    assert prompts(d, "Kai", mark) == [("club.blocked", [SkipPower("Kai")])]
    d.do(SkipPower("Kai"))
    d.night({})
    assert d.game.night_record.deaths == {"Sunny": "shot"}
    assert d.game.night_record.blocked == ["Kai"]
    assert [a for a in d.game.night_record.acts if a["contestant"] == "Kai"] == []
    assert [k for k, _ in whispers(d, "Kai", mark)] == ["club.blocked.asleep", "club.blocked.asleep"]
    assert not any(k.startswith("bk.prompt.") for k, _ in prompts(d, "Kai", mark))


@pytest.mark.rule("BK5")
def test_bk5_with_the_cardinal_chosen_the_black_knights_decide_without_him(club: Any, bk8: Any) -> None:
    """ "В случае сомнений, итоговое решение принимает Серый Кардинал" (in doubt, the Grey Cardinal decides) and
    "Выбранный игрок не действует этой ночью" (the chosen does not act): with the Cardinal chosen he has no
    say; the Black Knights see each other's picks, and on a split [house] the first of them by seat decides."""
    d = bk_night_one(club, (*bk8, ("Lena", "black_knight")))
    play_step(d, {"Alex": "Kai"})
    mark = len(d.effects)
    d.do(UsePower("Zuri", "Efe"))
    d.do(UsePower("Lena", "Sunny"))
    assert ("club.team.pick", {"player": "Zuri", "target": "Efe"}) in whispers(d, "Lena", mark)
    assert ("club.team.pick", {"player": "Lena", "target": "Sunny"}) in whispers(d, "Zuri", mark)
    d.do(SkipPower("Kai"))
    assert not any(k == "club.team.pick" for k, _ in whispers(d, "Kai", mark))
    d.night({})
    assert d.game.night_record.deaths == {"Efe": "shot"}


@pytest.mark.rule("BK5")
def test_bk5_the_kill_fails_only_when_every_living_black_order_member_was_chosen(club: Any, bk8: Any) -> None:
    """ "Выбранный игрок не действует этой ночью": a chosen Black Knight has no say, the Grey Cardinal kills
    alone; when the Cardinal is the only Black Order member alive and is chosen, nobody is killed."""
    d = bk_night_one(club, bk8)
    play_step(d, {"Alex": "Zuri"})
    assert prompts(d, "Zuri")[-1] == ("club.blocked", [SkipPower("Zuri")])
    d.do(UsePower("Kai", "Efe"))
    assert d.game.pending == ["Zuri"]  # the step waits for Zuri to go back to sleep, as for any answer
    d.night({})
    assert d.game.night_record.deaths == {"Efe": "shot"}

    lone = (*bk8[:2], *bk8[3:])  # no Black Knight
    d = bk_night_one(club, lone)
    play_step(d, {"Alex": "Kai"})
    assert d.game.current_step().name == "black_kill" and prompts(d, "Kai")[-1][0] == "club.blocked"
    d.night({})
    assert d.game.night_record.deaths == {} and "black_kill" not in {a["step"] for a in d.game.night_record.acts}


@pytest.mark.rule("BK5")
def test_bk5_the_night_shows_nobody_else_whom_the_courtesan_chose(club: Any, bk8: Any) -> None:
    """Night actions are the host's secret: a night where the Courtesan chose the Grey Cardinal looks, to
    everyone else, exactly like one where she chose a White Knight (the same announcements and clocks, the same
    dialogs for everyone but the Cardinal, up to the morning), and a chosen White Knight, who has no active
    role, is told nothing."""

    def night_with(chosen: str) -> tuple[Any, int]:
        d = bk_night_one(club, bk8)
        mark = len(d.effects)
        play_step(d, {"Alex": chosen})
        play_step(d, {"Kai": None if chosen == "Kai" else "Sunny", "Zuri": "Sunny"})
        while d.phase is ClubPhase.NIGHT:
            play_step(d, {})
        assert d.phase is ClubPhase.MORNING
        return d, mark

    blocked, b0 = night_with("Kai")
    other, o0 = night_with("Efe")
    assert public(blocked, b0) == public(other, o0)
    assert ("club.died", {"player": "Sunny"}) in public(blocked, b0)
    for name in ("Alex", "Zuri", "Steve", "Ari", "Noor", "Sunny", "Efe"):
        shown_b = [(k, len(a)) for k, a in prompts(blocked, name, b0)]
        shown_o = [(k, len(a)) for k, a in prompts(other, name, o0)]
        assert shown_b == shown_o, name
    assert whispers(other, "Efe", o0) == [] and prompts(other, "Efe", o0) == []
    assert [k for k, _ in prompts(blocked, "Kai", b0)] == ["club.blocked", "club.blocked"]


# ---------------------------------------------------------------------------------------------- BK12


def series_over(d: Any) -> list[str]:
    """The end of the series as announced to everyone (the English text)."""
    return [e.message.text for e in d.effects if isinstance(e, Announce) and e.message.key.startswith("series.over")]


@pytest.mark.rule("BK12")
def test_bk12_the_white_order_wins_when_no_black_order_member_remains_mad_knight_alive(club: Any) -> None:
    """ "Игра продолжается до тех пор, пока Белые Рыцари не вычислят всех Черных Рыцарей" (the game goes on until
    the White Knights have found all the Black Knights): the last Black Order member leaves by day and the White
    Order wins at once, though the Mad Knight lives; he is not among the winners, and everyone is told so."""
    deal = (
        ("Alex", "courtesan"),
        ("Kai", "grey_cardinal"),
        ("Steve", "mad_knight"),
        ("Ari", "lord"),
        ("Sunny", "healer"),
        ("Efe", "white_knight"),
    )
    d = club(BK, deal)
    d.to_day()
    d.speeches({"Alex": "Kai"})
    d.vote({"Alex": "Kai", "Steve": "Kai", "Ari": "Kai", "Sunny": "Kai", "Efe": "Kai"})
    d.advance()  # the last word
    d.repeat(dict.fromkeys(("Alex", "Steve", "Ari", "Sunny", "Efe"), False))
    out = d.game.outcome
    assert out is not None and out.winner is Winner.WHITE_ORDER and out.termination is Termination.FACTION_WON
    assert out.winners == ("Alex", "Ari", "Sunny", "Efe") and "Steve" in d.alive()
    assert series_over(d) == ["The White Order wins! Winners: Alex, Ari, Sunny, Efe."]
    for name, _ in deal:
        view = d.game.view_for(name)
        assert view.public.winner == "white_order" and view.public.winners == ("Alex", "Ari", "Sunny", "Efe")
        assert "The White Order wins! Winners: Alex, Ari, Sunny, Efe." in view.messages
    assert any(isinstance(e, ShowTitle) and e.to is None and e.title.key == "title.series_over" for e in d.effects)


@pytest.mark.rule("BK12")
@pytest.mark.parametrize(
    ("attacked", "winner", "winners"),
    [("Efe", Winner.BLACK_ORDER, ("Kai",)), ("Kai", Winner.WHITE_ORDER, ("Efe",))],
)
def test_bk12_the_mad_knight_has_no_win_of_his_own_by_default(
    club: Any, attacked: str, winner: Winner, winners: tuple[str, ...]
) -> None:
    """ "…или наоборот, пока Черные Рыцари не отнимут власть, лишив Белый Орден всех своих рыцарей" (… or the Black
    Knights take power, leaving the White Order without knights): the rulebook gives the Mad Knight no win. Left
    alive with one other, he does not win (setting ``mad_knight_solo_win``, off by default): the order that
    remains does."""
    deal = (("Kai", "grey_cardinal"), ("Steve", "mad_knight"), ("Ari", "lord"), ("Efe", "white_knight"))
    d = club(BK, deal)
    d.to_day()
    d.speeches({"Kai": "Ari"})
    d.vote({"Kai": "Ari", "Steve": "Ari", "Efe": "Ari"})
    d.advance()
    d.repeat({})
    assert d.phase is ClubPhase.NIGHT
    d.night({"mad_knight": {"Steve": attacked}})
    assert d.game.outcome is not None and (d.game.outcome.winner, d.game.outcome.winners) == (winner, winners)
    assert "Steve" in d.alive() and series_over(d)[0].endswith(f"Winners: {', '.join(winners)}.")
    assert d.game.view_for("Steve").public.winner == winner.value


@pytest.mark.rule("BK12")
def test_bk12_the_mad_knights_own_win_is_a_setting(club: Any) -> None:
    """«…пока Белые Рыцари не вычислят всех Черных Рыцарей или наоборот, пока Черные Рыцари не отнимут власть»
    (until the White Knights find all the Black Knights or the Black Knights take power): the rulebook gives the
    Mad Knight no win. [house] Setting ``mad_knight_solo_win`` on: the Mad Knight also wins alone when at most
    one other contestant is alive with him, and everyone is told he won."""
    deal = (("Kai", "grey_cardinal"), ("Steve", "mad_knight"), ("Efe", "white_knight"))
    d = club(BK, deal, mad_knight_solo_win=True)
    d.to_day()
    d.speeches({})
    d.night({"mad_knight": {"Steve": "Efe"}})
    assert d.game.outcome is not None and d.game.outcome.winner is Winner.MAD_KNIGHT
    assert series_over(d) == ["The Mad Knight wins! Winners: Steve."]
    assert "The Mad Knight wins! Winners: Steve." in d.game.view_for("Kai").messages
    assert d.game.record.settings["mad_knight_solo_win"] is True


@pytest.mark.rule("BK12")
def test_bk12_both_orders_gone_at_once_the_mad_knight_wins_if_alive(club: Any) -> None:
    """[house] "White Order wins when no Black Order member remains" and "Black Order wins when no White Order
    member remains" can both come true in one night (the source does not say who wins then): the Mad Knight
    wins if alive, else nobody."""
    deal = (("Kai", "grey_cardinal"), ("Steve", "mad_knight"), ("Efe", "white_knight"))
    d = club(BK, deal)
    d.to_day()
    d.speeches({})
    d.night({"black_kill": {"Kai": "Efe"}, "mad_knight": {"Steve": "Kai"}})
    assert d.alive() == {"Steve"}
    out = d.game.outcome
    assert out is not None and (out.winner, out.winners) == (Winner.MAD_KNIGHT, ("Steve",))
    assert d.game.view_for("Steve").public.winner == "mad_knight"


# ---------------------------------------------------------------------------------------------- MY4


@pytest.mark.rule("MY4")
def test_my4_a_mistress_who_visits_before_the_sapper_does_not_set_off_his_mine(club: Any, my14: Any) -> None:
    """ "Гравці з активними нічними ролями виконують свої дії за чергою" (the active night roles act in turn): the
    Mistress wakes before the Sapper, so her visit comes before his mine and does not set it off; nobody dies,
    the mine stays, everyone is told in the morning who is mined, and the Mistress is still in the game."""
    d = club(MY, my14)
    mark = len(d.effects)
    d.night({"mistress": {"Omar": "Rhea"}, "sapper": {"Noor": "Rhea"}})
    assert d.game.night_record.deaths == {} and d.game.night_record.mines == []
    assert d.game.mines == {"Rhea"}
    said = public(d, mark)
    assert ("club.no_deaths", {}) in said and ("my.news.mined", {"player": "Rhea"}) in said
    assert not any(k == "club.died" for k, _ in said)
    assert d.game.view_for("Omar").in_series and d.game.view_for("Rhea").in_series
    assert "Everyone woke up this morning." in d.game.view_for("Omar").messages


@pytest.mark.rule("MY4")
def test_my4_a_mine_goes_off_on_a_visit_after_it_was_laid(club: Any, my14: Any) -> None:
    """ "…виконують свої дії за чергою": a mine laid tonight goes off on a later visit tonight (the Maniac wakes
    after the Sapper), and an old mine on any visit of a later night, the Mistress's first of all."""
    d = club(MY, my14)
    d.night({"sapper": {"Noor": "Rhea"}, "maniac": {"Tomas": "Rhea"}})
    assert d.game.night_record.deaths == {"Rhea": "mine", "Tomas": "mine"}

    d = club(MY, my14)
    d.night({"sapper": {"Noor": "Rhea"}})
    d.to_day()
    while d.phase is ClubPhase.DISCUSSION:
        d.advance()
    d.vote(dict.fromkeys(sorted(d.alive()), KEEP))
    mark = len(d.effects)
    d.night({"mistress": {"Omar": "Rhea"}})
    assert d.game.night_record.deaths == {"Rhea": "mine", "Omar": "mine"}
    assert ("club.died", {"player": "Omar"}) in public(d, mark)
    assert not d.game.view_for("Omar").in_series


@pytest.mark.rule("MY4")
def test_my4_the_core_orders_a_mine_after_the_visits_before_it() -> None:
    """«Гравці з активними нічними ролями виконують свої дії за чергою» (the active night roles act in turn).
    The night core (shared by both club rulesets): a visit earlier in the night order than the mine laid on
    its target tonight does not set it off; one later does; a mine laid on an earlier night is set off by any."""
    early = [Visit("Omar", BLOCK, "Rhea", 0, 11), Visit("Noor", MINE, "Rhea", 1, 6)]
    out = resolve(early, night=1)
    assert out.deaths == {} and out.mines == {"Rhea"} and out.mine_events == ()
    later = [*early, Visit("Tomas", SHOT, "Rhea", 4, 13)]
    assert resolve(later, night=1).deaths == {"Rhea": "mine", "Tomas": "mine"}
    old = resolve(early[:1], night=2, mines=["Rhea"])
    assert old.deaths == {"Rhea": "mine", "Omar": "mine"}


# ---------------------------------------------------------------------------------------------- MY9

MY8 = (
    ("Alex", "don"),
    ("Zuri", "poisoner"),
    ("Steve", "oyabun"),
    ("Omar", "mistress"),
    ("Lena", "shaman"),
    ("Rhea", "citizen"),
    ("Efe", "citizen"),
    ("Kai", "citizen"),
)


@pytest.mark.rule("MY9")
def test_my9_the_living_speak_in_turn_in_seat_order_each_on_their_own_clock(club: Any) -> None:
    """ "Під час денного обговорення гравці повинні дотримуватись порядку, надаючи кожному можливість
    висловитись" (during the day's discussion the players keep to an order, giving everyone the chance to
    speak): each living contestant has the floor in turn, in seat order (the dead are skipped), each on a
    clock of their own, announced to everyone; nobody has anything to press; then the vote opens as before."""
    d = club(MY, MY8)
    d.night({"mafia_shot": {"Alex": "Rhea"}})
    assert "Rhea" not in d.alive()
    mark = len(d.effects)
    d.to_day()
    speakers = []
    while d.phase is ClubPhase.DISCUSSION:
        speakers.append(d.game.speaker)
        for name in d.alive():
            assert d.game.legal_actions(name) == [] and d.game.view_for(name).public.phase == "discussion"
        d.advance()  # the host moves on early, as for any phase
    living = ["Alex", "Zuri", "Steve", "Omar", "Lena", "Efe", "Kai"]
    assert speakers == living
    said = public(d, mark)
    turns = [(k, p) for k, p in said if k == "my.turn" or k == "clock.speech"]
    expected: list[tuple[str, Any]] = []
    for name in living:
        expected += [("clock.speech", 60.0), ("my.turn", {"player": name, "seconds": "60"})]
    assert turns == expected
    assert said.index(("club.discussion", {"day": "1"})) < said.index(("my.turn", {"player": "Alex", "seconds": "60"}))
    assert d.phase is ClubPhase.VOTE and d.game.speaker is None
    for name in living:
        assert prompts(d, name, mark)[-1][0] == "club.vote.prompt"
        view = d.game.view_for(name)
        floor = [m for m in view.messages if m.endswith("has the floor (60 seconds).")]
        assert floor == [f"{n} has the floor (60 seconds)." for n in living]


@pytest.mark.rule("MY9")
def test_my9_a_turn_ends_on_its_clock_and_its_length_is_a_setting(club: Any) -> None:
    """ "…надаючи кожному можливість висловитись": a turn lasts ``durations.discussion`` seconds (one minute by
    default); when its clock runs out the next contestant speaks."""
    from engine.actions import TimerExpired

    d = club(MY, MY8, durations={"discussion": 45})
    d.night({})
    d.to_day()
    mark = len(d.effects)
    assert d.game.speaker == "Alex" and d.game.deadline == d.now + 45
    assert ("my.turn", {"player": "Alex", "seconds": "45"}) in public(d, mark - 2)
    d.now = d.game.deadline
    d.do(TimerExpired(d.game.phase_seq))
    assert d.game.speaker == "Zuri"
    assert public(d, mark)[:2] == [("clock.speech", 45.0), ("my.turn", {"player": "Zuri", "seconds": "45"})]
