"""The night (rulebook §7): the Oath, the Turret (the night's event and the double vote nomination), the
Traitors' equipment, the recruit's offer, the way home, and the end of the night; host visiting and the powers are
``engine.rulesets.traitors.visit``, the murder itself ``engine.rulesets.traitors.losses``.

Every function takes the series (``engine.rulesets.traitors.context.Table``). The ``check_*`` functions raise
``IllegalAction`` and change nothing; the ``apply_*`` functions apply an input they accepted
(``engine.rulesets.traitors.rules.INPUTS``). A step that leads on returns the next node of the phase graph
(``engine.rulesets.traitors.rules.PHASES``), ``None`` when the series waits for a clock or an input.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.actions import (
    Action,
    AnswerOffer,
    ChooseEvent,
    NominateDoubleVote,
    SwearOath,
)
from engine.effects import (
    Choice,
    GiveItem,
    MoveTo,
    Prompt,
    TakeItem,
    give,
    msg,
)
from engine.errors import IllegalAction
from engine.ids import TRAITOR_POWERS, Allegiance, Item, NightEvent, Place, Power, Twist
from engine.record import NightRecord
from engine.rulesets.traitors import heads, twists
from engine.rulesets.traitors.choices import (
    Offer,
    event_offer,
    most_picked,
    nomination_offer,
)
from engine.rulesets.traitors.context import Table
from engine.rulesets.traitors.losses import murder
from engine.rulesets.traitors.phases import Node, Phase, Stage
from engine.rulesets.traitors.state import NightState
from engine.rulesets.traitors.turret import check_turret
from engine.terms import power_term, term

OATH_QUESTIONS = 3
"""Rulebook §7.1: lie and deceive? murder every night? keep the identities secret?"""


def night_after_day(game: Table) -> Node | None:
    """The round table is over (``Stage.NIGHT``): today's breakfast heads are taken away (``heads``), then the
    night begins."""
    heads.clear(game)
    return begin_night(game)


def begin_night(game: Table) -> Node | None:
    """Rulebook §7: the night begins; the "until the next night" effects end, everyone goes home, the Oath or the Turret."""
    living = game.living()
    game.night = NightState(NightRecord(day=game.day))
    game.night.powers_on = game.settings.powers and (game.day > 0 or game.settings.first_night_murder)
    # "Until the next night" ends now (rulebook §5): intoxication, falsification, sobering, silence, and
    # the round-table powers chosen last night have been used.
    pw = game.powers
    pw.intoxicated.clear()
    pw.falsified.clear()
    pw.sobered.clear()
    pw.silenced.clear()
    pw.protected = None
    pw.accusation = None
    pw.accusation_fails = False
    pw.alerted = None
    twists.begin_night(game)  # TWIST HOOK: confession shields protect tonight
    game.record.events.append(game.night.record)
    game.announce("phase.night", day=game.day)
    game.move(living, Place.HOME)
    queue = [n for n in game.living_traitors() if not game.players[n].sworn]
    game.night.oath_queue = queue
    # Phases house rule 9: at most one recruit a night, so one Oath clock on every later night hides whether
    # there is one; night zero's takers are every Traitor dealt, a number told to everyone at the start.
    game.night.oath_clocks = max(len(queue), 1) if fixed_night(game) else len(queue)
    return next_oath(game)


def fixed_night(game: Table) -> bool:
    """Whether tonight's stages run their whole clocks whatever happens in them (``Settings.night_fixed_length``,
    phases house rule 9)."""
    return game.settings.night_fixed_length


def next_oath(game: Table) -> Node | None:
    """The next Oath clock, or the Turret once every Oath clock of tonight has run."""
    assert game.night
    if game.night.oath_clocks > 0:
        start_oath(game)
        return None
    return open_turret(game)


def start_oath(game: Table) -> None:
    """An Oath clock: the next unsworn Traitor goes to the Oath spot, alone (rulebook §7.1: "One Traitor at a
    time"), and the host opens with the rulebook's words before the first question. With nobody left to swear
    (phases house rule 9) the clock runs with nobody at the Oath."""
    night = game.night
    assert night
    night.oath_clocks -= 1
    if not night.oath_queue:
        game.start_clock(Phase.OATH, "oath", "clock.oath")
        return
    taker = night.oath_queue[0]
    night.oath_step = 0
    night.oath_taking = True
    game.move([taker], Place.OATH_SPOT)
    game.start_clock(Phase.OATH, "oath", "clock.oath")
    game.whisper([taker], "oath.opening")
    ask_oath(game)


def ask_oath(game: Table) -> None:
    """Ask the Traitor at the Oath its next question."""
    assert game.night
    taker = game.night.oath_queue[0]
    q = game.night.oath_step + 1
    game.emit(
        Prompt(
            frozenset({taker}),
            msg(f"oath.question.{q}"),
            (Choice(msg(f"oath.answer.{q}").text, SwearOath(taker)),),
        )
    )


def apply_oath_answer(game: Table) -> Node | None:
    """The Traitor answered: the next question, or they are sworn."""
    assert game.night
    game.night.oath_step += 1
    if game.night.oath_step < OATH_QUESTIONS:
        ask_oath(game)
    elif fixed_night(game):
        swear(game)  # phases house rule 9: the Oath's clock runs on
    else:
        return finish_oath(game)
    return None


def finish_oath(game: Table) -> Node | None:
    """The Oath's clock ran out or the host moved on (or, without ``night_fixed_length``, the third answer came):
    the Traitor at the Oath, if any, is sworn; then the next Oath clock or the Turret."""
    assert game.night
    if game.night.oath_taking:
        swear(game)
    return next_oath(game)


def swear(game: Table) -> None:
    """The Traitor at the Oath is sworn: the host's closing words, then the cloak, then their power (rulebook
    §7.1: "Before I give you this cloak…"; "A Traitor will only learn their power after taking the Traitors'
    Oath"). They wait at home: the Traitors enter the Turret together "once every Traitor has taken the Traitors'
    Oath" (§7)."""
    assert game.night
    game.night.oath_taking = False
    taker = game.night.oath_queue.pop(0)
    p = game.players[taker]
    p.sworn = True
    if p.recruited_day is not None and p.power is None and game.settings.powers:
        p.power = free_traitor_power(game)
    game.night.record.sworn.append(taker)
    game.whisper([taker], "oath.closing")
    give_cloak(game, [taker])
    if p.power is not None and p.false_power is not None:
        game.whisper([taker], "oath.sworn", power=power_term(p.power), false_power=power_term(p.false_power))
    elif p.false_power is not None:
        game.whisper([taker], "oath.sworn.no_power", false_power=power_term(p.false_power))
    elif p.power is not None:
        game.whisper([taker], "oath.sworn.no_false", power=power_term(p.power))
    else:
        game.whisper([taker], "oath.sworn.no_false", power=power_term("none"))
    game.move([taker], Place.HOME)
    if game.night.oath_queue:
        game.whisper([taker], "oath.wait")


EQUIPMENT = (Item.TRAITORS_CLOAK, Item.LANTERN)
"""The Traitors' equipment (rulebook §10 "Traitors' Equipment"): worn whenever the Traitors meet each other or a
Faithful at night, and slower while worn (the bridge makes the cloak slow its wearer)."""


def give_cloak(game: Table, traitors: Sequence[str]) -> None:
    """Give the cloak to those of ``traitors`` who do not wear it yet tonight (rulebook §7.1, §10)."""
    assert game.night
    for t in traitors:
        if t not in game.night.cloaked:
            game.night.cloaked.append(t)
            game.emit(give(t, Item.TRAITORS_CLOAK))


def equip(game: Table, traitors: Sequence[str]) -> None:
    """Rulebook §10 "Traitors' Equipment": "When The Traitors meet each other, or with a Faithful during the
    night, they will be equipped with their cloak and lantern." Each of ``traitors`` gets the cloak (unless the
    Oath gave it tonight) and the lantern."""
    assert game.night
    for t in traitors:
        give_cloak(game, [t])
        game.emit(give(t, Item.LANTERN))


def send_traitors_home(game: Table) -> None:
    """Rulebook §7.2 ("After making all of the necessary decisions, The Traitors will be sent to their individual
    homes") and §7.3 ("If the Trial twist is active, it will begin upon The Traitors being sent to their
    individual homes"): the Traitors hand back their cloak and lantern and go home; then the Trial begins."""
    night = game.night
    assert night
    traitors = list(night.traitors)
    if traitors:
        for item in EQUIPMENT:
            game.emit(TakeItem(item, tuple(traitors)))
        twists.leave_turret(game)  # TWIST HOOK: the response draft is taken back
        night.cloaked.clear()
        game.whisper(traitors, "turret.home")
        game.move(traitors, Place.HOME)
    twists.traitors_home(game)  # TWIST HOOK: the Trial begins


def free_traitor_power(game: Table) -> Power | None:
    """Rulebook §7.6 [house]: a recruit receives the Traitor power of a banished Traitor, if one is free."""
    held = {p.power for p in game.players.values() if p.alive and p.allegiance is Allegiance.TRAITOR}
    freed = [
        p.power
        for p in game.players.values()
        if not p.alive and p.allegiance is Allegiance.TRAITOR and p.power in TRAITOR_POWERS
    ]
    for pw in freed:
        if pw not in held:
            return pw
    return None


EVENTS_BY_TRAITORS: dict[int, frozenset[NightEvent]] = {
    1: frozenset({NightEvent.ULTIMATUM}),
    2: frozenset({NightEvent.MURDER, NightEvent.SEDUCE}),
}
"""Rulebook §7.2: the events a night allows by the number of sworn Traitors in the Turret (more: murder only)."""


def allowed_events(game: Table, traitors: int) -> frozenset[NightEvent]:
    """Tonight's events before the twists (rulebook §7.2; phases house rules 3 and 4): none on night zero
    without ``first_night_murder``, none with ``finalists + 1`` or fewer contestants or no Faithful left."""
    if not (game.day > 0 or game.settings.first_night_murder) or len(game.living()) <= game.settings.finalists + 1:
        return frozenset()
    if not game.living_faithful():
        return frozenset()
    return EVENTS_BY_TRAITORS.get(traitors, frozenset({NightEvent.MURDER}))


def open_turret(game: Table) -> Node | None:
    """Rulebook §7.2: the sworn Traitors meet in the Turret to choose the night's event and the twists' choices.

    On a Confession night (rule T8.4) they are sent to the confession room instead: they read the confessions and
    answer them first, and make the night's decisions there once the Confession is over (``end_confession``).
    """
    assert game.night
    night = game.night
    traitors = tuple(n for n in game.living_traitors() if game.players[n].sworn)
    night.traitors = traitors
    if not traitors:
        return Stage.AFTER_TURRET
    events = twists.turret_events(
        game, allowed_events(game, len(traitors))
    )  # TWIST HOOK: the Murder twist's quiet night, the Trial
    night.events = events
    night.nominate = game.twist_on(game.day + 1, Twist.DOUBLE_VOTE)
    night.confessing = twists.confession_first(game)  # TWIST HOOK: the Confession instead of the Turret
    game.move(traitors, Place.CONFESSION_ROOM if night.confessing else Place.TURRET)
    equip(game, traitors)
    twists.enter_turret(game)  # TWIST HOOK: the confessions
    game.whisper(traitors, "turret.traitors", players=", ".join(game.living_traitors()))
    if night.confessing:
        game.start_clock(Phase.TURRET, "turret", "clock.turret")
        twists.prompt_confession(game)  # TWIST HOOK: the response to the confessions
        return None
    return open_decisions(game)


def end_confession(game: Table) -> Node | None:
    """Rule T8.4: the Confession is over (the Traitors sent their response, or its clock ran out or the host moved
    on): the Traitors, still in the confession room, now make the night's decisions."""
    night = game.night
    assert night and night.confessing
    night.confessing = False
    game.whisper(night.traitors, "turret.after_confession")
    return open_decisions(game)


def turret_clock(game: Table) -> Node | None:
    """The Turret's clock ran out or the host moved on: the Confession ends (T8.4), or the Turret closes."""
    if game.night is not None and game.night.confessing:
        return end_confession(game)
    return close_turret(game)


def open_decisions(game: Table) -> Node | None:
    """Ask each Traitor for the night's event, the Double Vote nomination and the twists' choices (rulebook §7.2),
    with the Turret's clock; with nothing to decide, the night moves on."""
    night = game.night
    assert night
    traitors, events = night.traitors, night.events
    if not events and not twists.replaces_event(game):
        game.whisper(traitors, "turret.no_event")
    twist_work = twists.turret_work(game)  # TWIST HOOK
    if not events and not night.nominate and not twist_work:
        return Stage.AFTER_TURRET
    game.start_clock(Phase.TURRET, "turret", "clock.turret")
    for t in traitors:
        if events:
            key = (
                "turret.choose.ultimatum"
                if NightEvent.ULTIMATUM in events
                else "turret.choose.seduce_or_murder"
                if NightEvent.SEDUCE in events
                else "turret.choose.murder"
            )
            game.emit(
                Prompt(
                    frozenset({t}),
                    msg(key),
                    event_choices(game, t),
                )
            )
        if night.nominate:
            game.emit(
                Prompt(
                    frozenset({t}),
                    msg("turret.nominate.double_vote"),
                    nomination_choices(game, t),
                )
            )
    twists.prompt_turret(game)  # TWIST HOOK
    return None


def turret_offer(game: Table, traitor: str) -> Offer:
    """``traitor``'s choices of tonight's event and target, as offered in the Turret: every allowed event against
    every living Faithful."""
    assert game.night
    return event_offer(traitor, game.night.events, tuple(game.living_faithful()))


def event_choices(game: Table, traitor: str) -> tuple[Choice, ...]:
    """``_event_offer(traitor).choices``."""
    return turret_offer(game, traitor).choices


def nomination_choices(game: Table, traitor: str) -> tuple[Choice, ...]:
    """``traitor``'s choices of tomorrow's double vote holder: every living contestant."""
    return nomination_offer(traitor, tuple(game.living())).choices


def apply_event_pick(game: Table, action: ChooseEvent) -> Node | None:
    """Note a Traitor's event pick (told to the Traitors); the Turret may close."""
    assert game.night
    game.night.picks[action.actor] = (action.event, action.target)
    game.whisper(
        game.night.traitors,
        "turret.choice",
        traitor=action.actor,
        event=term(f"term.event.{action.event.value}"),
        target=action.target,
    )
    return turret_maybe_done(game)


def apply_nomination(game: Table, action: NominateDoubleVote) -> Node | None:
    """Note a Traitor's double vote nomination; the Turret may close."""
    assert game.night
    game.night.nominations[action.actor] = action.target
    return turret_maybe_done(game)


def turret_maybe_done(game: Table) -> Node | None:
    """Close the Turret when every Traitor has made every choice tonight (the twists' too), unless tonight's
    stages run their whole clocks (phases house rule 9)."""
    assert game.night
    n = game.night
    picked = not n.events or all(t in n.picks for t in n.traitors)
    named = not n.nominate or all(t in n.nominations for t in n.traitors)
    if picked and named and twists.turret_done(game) and not fixed_night(game):  # TWIST HOOK
        return close_turret(game)
    return None


def close_turret(game: Table) -> Node | None:
    """Rulebook §7.2 [house]: the most picks wins; a tie is broken by the seeded draw."""
    assert game.night
    night = game.night
    twists.close_turret(game)  # TWIST HOOK: sword bearer, guess, Trial
    if night.nominate and night.nominations:
        holder = most_picked(list(night.nominations.values()), game.draw)
        game.double_vote_next = holder
        night.record.double_vote = holder
        game.whisper(night.traitors, "turret.nominated", player=holder)
    if not night.picks:
        if night.events:
            game.whisper(night.traitors, "turret.no_event")
        return Stage.AFTER_TURRET
    keys = [f"{e.value}|{t}" for e, t in night.picks.values()]
    event_name, target = most_picked(keys, game.draw).split("|")
    event = NightEvent(event_name)
    night.record.event = event.value
    night.record.target = target
    game.whisper(night.traitors, "turret.decided", event=term(f"term.event.{event.value}"), target=target)
    if event is NightEvent.MURDER:
        night.attack = (target, False)
    else:
        night.offer = (event, target)
    return Stage.AFTER_TURRET


def open_offer(game: Table) -> None:
    """Rulebook §7.2 and §10 "Traitors' Equipment" ("When The Traitors meet each other, or with a Faithful during
    the night, they will be equipped with their cloak and lantern"): the Traitors, still in cloak and lantern,
    are brought to the home of the contestant they seduce (or give an ultimatum); the contestant sees who came,
    receives a diary-room book (§10) and answers there ([house]: the Turret is the Traitors' alone, so the
    Traitors go to the contestant)."""
    night = game.night
    assert night and night.offer
    event, target = night.offer
    traitors = night.traitors
    seat = game.players[target].seat
    game.emit(MoveTo(tuple(traitors), Place.HOME_VISIT, (seat,) * len(traitors)))
    game.whisper(traitors, "offer.visit", player=target)
    game.emit(GiveItem(frozenset({target}), Item.DIARY_BOOK, None))
    if event is NightEvent.SEDUCE:
        game.whisper([target], "offer.met.seduce", players=", ".join(traitors))
    else:
        game.whisper([target], "offer.met.ultimatum", player=", ".join(traitors))
    game.start_clock(Phase.OFFER, "offer", "clock.offer")
    prompt_offer(game)


def prompt_offer(game: Table) -> None:
    """Ask the seduced contestant (or the one given an ultimatum) to answer the offer."""
    assert game.night and game.night.offer
    event, target = game.night.offer
    game.emit(
        Prompt(
            frozenset({target}),
            msg("offer.seduce" if event is NightEvent.SEDUCE else "offer.ultimatum"),
            (
                Choice(msg("offer.accept").text, AnswerOffer(target, True)),
                Choice(msg("offer.decline").text, AnswerOffer(target, False)),
            ),
        )
    )


def apply_offer_answer(game: Table, accept: bool) -> Node | None:
    """Rulebook §7.2: accepting makes the contestant a Traitor (unsworn); declining an ultimatum means murder.
    The Traitors then go home (§7.2 "sent to their individual homes"), and the host visits."""
    assert game.night and game.night.offer
    event, target = game.night.offer
    game.night.offer = None
    game.emit(TakeItem(Item.DIARY_BOOK, (target,)))
    if accept:
        p = game.players[target]
        p.allegiance = Allegiance.TRAITOR
        p.false_power = p.power if p.power is not None and not p.power.is_traitor_power else p.false_power
        p.power = None
        p.drunk = False
        p.sworn = False
        p.recruited_day = game.day
        for c in game.record.contestants:
            if c.name == target:
                c.recruited_day = game.day
        game.night.record.result = "recruited"
        game.powers.jokers.discard(target)
        game.whisper(game.night.traitors, "offer.accepted", player=target)
        game.whisper([target], "recruit.welcome")
    else:
        game.whisper(game.night.traitors, "offer.declined", player=target)
        if event is NightEvent.ULTIMATUM:
            game.night.attack = (target, True)
        else:
            game.night.record.result = "declined"
    send_traitors_home(game)
    if not fixed_night(game):
        return Stage.HOST_VISIT  # phases house rule 9: else at the end of the offer's clock
    return None


def open_no_offer(game: Table) -> None:
    """Phases house rule 9: a night that may have an event has the offer's clock even without an offer; the
    Traitors go home as it starts."""
    send_traitors_home(game)
    game.start_clock(Phase.OFFER, "offer", "clock.offer")


def offer_clock(game: Table) -> Node | None:
    """The offer's clock ran out or the host moved on: no answer counts as a decline ([house]); with
    ``night_fixed_length`` the host's visit then opens (an answered offer, or none, waited for the clock)."""
    assert game.night
    after = apply_offer_answer(game, False) if game.night.offer is not None else None
    return Stage.HOST_VISIT if fixed_night(game) else after


def end_night(game: Table) -> Node:
    """Rulebook §7.5: a murdered Faithful is sent to the diary room and told; then day breaks."""
    assert game.night
    for victim in game.night.victims:
        murder(game, victim)
        game.news.append(victim)
    twists.end_night(game)  # TWIST HOOK: unused murder shields taken back
    game.powers.cleansed.clear()
    game.powers.shields.clear()
    game.powers.guessed.clear()
    game.guarded.clear()
    game.night = None
    return Stage.BREAKFAST


def check_oath(game: Table, action: SwearOath) -> None:
    """The Traitor taking the Oath answers its question (rulebook §7.1)."""
    if game.phase is not Phase.OATH or not game.night:
        raise IllegalAction("illegal.phase")
    if not game.night.oath_taking or game.night.oath_queue[:1] != [action.actor]:
        raise IllegalAction("illegal.oath.not_you")


def apply_oath(game: Table, _action: SwearOath) -> Node | None:
    """The answer is given: the next question, or the Traitor is sworn."""
    return apply_oath_answer(game)


def check_event(game: Table, action: ChooseEvent) -> None:
    """A sworn Traitor picks tonight's event against a living Faithful, once (rulebook §7.2)."""
    check_turret(game, action.actor)
    night = game.night
    assert night
    if not night.events:
        raise IllegalAction("illegal.turret.event", event=term(f"term.action.{action.event.value}"))
    if action.actor in night.picks:
        raise IllegalAction("illegal.turret.already")
    if action.event not in night.events:
        raise IllegalAction("illegal.turret.event", event=term(f"term.action.{action.event.value}"))
    target = game.players.get(action.target)  # not a name at all: house rule 5 of engine.core.step
    if target is None or not target.alive or target.allegiance is not Allegiance.FAITHFUL:
        raise IllegalAction("illegal.turret.target", target=action.target)


def check_nomination(game: Table, action: NominateDoubleVote) -> None:
    """A sworn Traitor names tomorrow's double vote holder, once, on a Double Vote night (rulebook §8)."""
    check_turret(game, action.actor)
    night = game.night
    assert night
    if not night.nominate:
        raise IllegalAction("illegal.turret.no_twist")
    if action.actor in night.nominations:
        raise IllegalAction("illegal.turret.already")
    if action.target not in game.living():
        raise IllegalAction("illegal.turret.target", target=action.target)


def check_offer(game: Table, action: AnswerOffer) -> None:
    """Only the contestant offered tonight answers, while the offer is open (rulebook §7.2)."""
    night = game.night
    if game.phase is not Phase.OFFER or not night or not night.offer or night.offer[1] != action.actor:
        raise IllegalAction("illegal.offer.none")


def apply_offer(game: Table, action: AnswerOffer) -> Node | None:
    """Accept or decline the offer."""
    return apply_offer_answer(game, action.accept)


def list_oath(game: Table, player: str) -> Sequence[Action]:
    """The Oath's answer, for the Traitor taking it."""
    night = game.night
    return [SwearOath(player)] if night and night.oath_taking and night.oath_queue[:1] == [player] else []


def list_events(game: Table, player: str) -> Sequence[Action]:
    """Tonight's event choices, for a Traitor in the Turret who has not picked."""
    night = game.night
    if night and player in night.traitors and night.events and player not in night.picks:
        return event_offer(player, night.events, tuple(game.living_faithful())).inputs
    return ()


def list_nominations(game: Table, player: str) -> Sequence[Action]:
    """Tomorrow's double vote holder, for a Traitor in the Turret who has not named one."""
    night = game.night
    if night and player in night.traitors and night.nominate and player not in night.nominations:
        return nomination_offer(player, tuple(game.living())).inputs
    return ()


def list_offer(game: Table, player: str) -> Sequence[Action]:
    """Accept or decline, for the contestant offered tonight."""
    night = game.night
    if night and night.offer and night.offer[1] == player:
        return (AnswerOffer(player, True), AnswerOffer(player, False))
    return ()
