"""The English message catalogue: every text a contestant or the host sees, by key.

Keys are stable: the bridge sends ``traitors.<key>`` as a client translation key with this English text as
the fallback (``datapack`` language files carry the other languages). Placeholders are ``{name}``, or
``{name:phrase}`` for a count shown with a counted phrase (``engine.messages_terms.PLURALS``). A value is plain
text (a contestant's name, a number: escaped by the bridge's text builder), a ``Message`` (a term such as a
power's name: the client translates it too) or a tuple of such values (a list, shown joined by ``", "``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from engine.messages_terms import PLURALS, TERMS, english_plural

_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)(?::([a-z_]+))?\}")

CATALOG: dict[str, str] = {
    # series start and the deal
    "series.welcome": "Welcome to the castle. {count:contestants}, {traitors:traitors} among you.",
    "series.drunk.none": "In this series nobody is drunk.",
    "series.drunk.possible": "In this series one Faithful may be drunk.",
    "series.drunk.always": "In this series one Faithful is drunk.",
    "deal.faithful": "You are Faithful. Your power: {power}.",
    "deal.faithful.no_power": "You are Faithful.",
    "deal.traitor": "You have been chosen as a Traitor. Take the Traitors' Oath tonight to learn your power.",
    "title.faithful": "Faithful",
    "title.traitor": "Traitor",
    "title.series_over": "{winner}",
    # phases
    "phase.day_zero": "Day 0: the contestants arrive at the castle.",
    "phase.breakfast": "Day {day}: breakfast.",
    "phase.discussion": "Day {day}: discussion. Talk freely.",
    "phase.round_table": "Day {day}: the round table. Speeches, then the vote.",
    "phase.night": "Night {day}: everyone goes home.",
    "phase.turret": "Night {day}: the Traitors' Turret.",
    "phase.finale": "The finale begins.",
    "clock.day_zero": "Arrival",
    "clock.breakfast": "Breakfast",
    "clock.discussion": "Discussion",
    "clock.round_table": "Round table",
    "clock.vote": "Vote",
    "clock.oath": "Traitors' Oath",
    "clock.turret": "Traitors' Turret",
    "clock.offer": "The offer",
    "clock.night": "Night",
    "clock.torches": "Finale torches",
    "clock.torch_question": "Finale torches: last changes",
    # breakfast
    "breakfast.arrives": "{player} arrives at breakfast.",
    "breakfast.murdered": "{player} was murdered in the night.",
    "breakfast.no_murder": "Nobody was murdered last night.",
    # round table and votes
    "vote.open": "The vote is open. Write a name on your vote paper.",
    "vote.open.double": "{player} holds the double vote at this round table.",
    "vote.revote": "Everyone is tied on one vote. A little extra time, then everyone votes again.",
    "vote.revote.none": "Nobody has voted. A little extra time, then everyone votes again.",
    "vote.second": "A tie between {players}. Second vote: the tied do not vote.",
    "vote.prompt": "Who do you banish?",
    "vote.cast": "You wrote {target} on your vote paper.",
    "vote.closed": "The vote is closed.",
    "vote.reveal": "{voter}: {target}",
    "vote.reveal.double": "{voter}: {target} (double vote)",
    "vote.reveal.none": "{voter}: no vote",
    "vote.count": "Vote count: {count}.",
    "deadlock.start": "Deadlock between {players}. Each draws from {count:chests}; one holds no shield.",
    "deadlock.shield": "{player} draws a deadlock shield.",
    "deadlock.empty": "{player} draws the empty chest.",
    "banish.result": "{player} is banished.",
    "banish.reveal": "{player} was {allegiance}.",
    "banish.no_reveal": "{player} leaves without revealing.",
    # night
    "night.home": "Go home. The Traitors meet in the Turret.",
    # the Traitors' Oath: the host's words, word for word (rulebook §7.1)
    "oath.opening": (
        "You stand before the Traitors' Turret. Before I give you this cloak, I'm going to need you to take the "
        "Traitors' Oath."
    ),
    "oath.question.1": "Do you commit to lie and deceive throughout this game?",
    "oath.question.2": "Are you willing to murder one of your fellow players every single night?",
    "oath.question.3": "And do you vow to keep your identity, and the identity of your fellow Traitors, a secret?",
    "oath.answer.1": "I do.",
    "oath.answer.2": "I am.",
    "oath.answer.3": "I do.",
    "oath.closing": "Then you are now, officially, a Traitor.",
    "oath.sworn": "You are a Traitor. Your power: {power}. Your false power: {false_power}.",
    "oath.sworn.no_power": "You are a Traitor. You hold no Traitor power. Your false power: {false_power}.",
    "oath.sworn.no_false": "You are a Traitor. Your power: {power}.",
    "oath.wait": "Go home and wait: the Traitors meet in the Turret once every Traitor has taken the Oath.",
    "turret.traitors": "The Traitors: {players}.",
    "turret.choose.murder": "Choose tonight's murder.",
    "turret.choose.seduce_or_murder": "Murder a Faithful, or seduce one to join you.",
    "turret.choose.ultimatum": "You are the last Traitor: give an ultimatum.",
    "turret.no_event": "No murder tonight.",
    "turret.choice": "{traitor} chooses to {event} {target}.",
    "turret.decided": "Tonight you {event} {target}.",
    "turret.nominate.double_vote": "Choose who holds the double vote at the next round table.",
    "turret.nominated": "{player} will hold the double vote.",
    "turret.after_confession": "The Confession is over. Now make tonight's decisions.",
    "turret.home": "All of tonight's decisions are made. Go home: your cloak and lantern are taken back.",
    "offer.visit": "In cloak and lantern, you go to {player}'s home to make the offer.",
    "offer.met.seduce": "The Traitors come to your home in cloak and lantern: {players}.",
    "offer.met.ultimatum": "The last Traitor comes to your home in cloak and lantern: {player}.",
    "offer.seduce": "The Traitors offer you a place among them. Join them?",
    "offer.ultimatum": "The last Traitor gives you an ultimatum: join them, or be murdered tonight.",
    "offer.accept": "Join the Traitors",
    "offer.decline": "Decline",
    "offer.accepted": "{player} accepted.",
    "offer.declined": "{player} declined.",
    "recruit.welcome": "You are now a Traitor. You will take the Oath tomorrow night.",
    "diary.murdered": "You have been murdered. Go to the diary room.",
    "diary.double_vote": "You will hold the double vote at the next round table.",
    # powers (rulebook §5, §6): prompts, answers, round-table events
    "clock.traitor_powers": "Traitor powers",
    "clock.host_visit": "The host's visit",
    "phase.host_visit": "Night {day}: the host visits you.",
    "power.skip": "Pass",
    "power.noted": "Your choice is noted.",
    "power.skipped": "You do not use your power tonight.",
    "prompt.bartender": "The Bartender: who do you intoxicate until the next night?",
    "prompt.falsifier": "The Falsifier: who registers as the other allegiance until the next night?",
    "prompt.silencer": "The Silencer: who is silenced at the next round table?",
    "prompt.analyst": "The Analyst: choose two contestants to compare.",
    "prompt.researcher": "The Researcher: whose power do you research?",
    "prompt.sheriff": "Would you like to accuse a player? Who would you like to accuse?",
    "prompt.cleanser": "The Cleanser: who do you cleanse tonight?",
    "prompt.detective": "The Detective: who do you investigate?",
    "prompt.mimic": "The Mimic: whose power do you copy?",
    "prompt.sober": "The Sober: who do you test?",
    "prompt.judge": "The Judge: who do you protect at the next round table?",
    "prompt.guardian": "The Guardian: who do you protect from murder tonight?",
    "result.analyst.same": "{first} and {second} have the same allegiance.",
    "result.analyst.different": "{first} and {second} have different allegiances.",
    "result.researcher": "{player} holds {first} or {second}.",
    "result.detective": "{player} was targeted by {count:traitor_actions} tonight.",
    "result.historian": "{player} held {power}.",
    "result.mimic": "You copied {power} from {player}. You hold it from the next night on.",
    "result.sober.drunk": "{player} is drunk. They are sober until the next night.",
    "result.sober.sober": "{player} is sober.",
    "result.spy": "{player} was targeted tonight: {action}.",
    "result.spy.nothing": "Nobody was targeted by the Traitors tonight.",
    "joker.offer": "The host offers you the Joker. Accept it before using your power?",
    "joker.accept": "Accept the Joker",
    "joker.decline": "Decline",
    "joker.accepted": "You hold the Joker. Your power is now a false power. If you are banished, the series ends.",
    "joker.declined": "You declined the Joker.",
    "joker.returned": "The final round table: you return to your Faithful power; the Joker is gone.",
    "joker.returned.finale": "The finale: you return to your Faithful power; the Joker is gone.",
    "joker.banished": "{player} was the Joker. The series ends at once.",
    "guess.lost": "The Traitors guessed your power. You have lost it for the rest of the series.",
    "shield.used": "Your murder shield saved you tonight.",
    "survivor.alerted": "The Traitors came for you, but you survived. If the next round table does not banish a Traitor, you will be murdered.",
    "survivor.murdered": "{player} has been murdered after the round table.",
    "round_table.silenced": "{player} is silenced at this round table: no vote paper.",
    "sheriff.accuses": "The Sheriff accuses {player}.",
    "sheriff.success": "The accusation of {player} holds: banished at once. There is no vote today.",
    "sheriff.failed": "The accusation of {player} fails. The vote goes on.",
    "judge.protects": "The Judge protects {player}: the contestant with the next most votes is banished.",
    "judge.protects.accused": "The Judge protects {player}: the accusation does not banish them. The vote goes on.",
    # twists (rulebook §8) and the bar (§10)
    "clock.nomination": "Nomination",
    "clock.nominee": "The nominee",
    "twist.started": "{twist} is scheduled for day {day}.",
    "twist.cancelled": "{twist} on day {day} is cancelled.",
    "twist.lapsed": "{twist} on day {day} does not happen:",
    "illegal.twist.day": "{twist} cannot be scheduled before day 1.",
    "illegal.twist.finale": "{twist}: the finale has begun.",
    "illegal.twist.conflict": "{twist} cannot share day {day} with a twist that decides the same thing.",
    "illegal.twist.scheduled": "{twist} is already scheduled for day {day}.",
    "illegal.twist.none": "No {twist} is scheduled that has not begun yet.",
    "illegal.twist.too_few": "{twist} on day {day}: too few contestants remain.",
    "illegal.twist.no_powers": "{twist}: this series deals no powers.",
    "illegal.twist.guess_night0": "{twist} on day {day}: the Traitors guess on the night before, and that night has no powers.",
    "illegal.twist.trial_one_traitor": "{twist} on day {day}: with one Traitor left they must give an ultimatum.",
    "illegal.twist.trial_faithful": "{twist} on day {day}: fewer than {count:faithful} remain.",
    "illegal.text.empty": "Write something in the book first.",
    "illegal.text.long": "That is too long: at most {limit:characters}.",
    "illegal.text.chars": "The book holds characters the castle cannot print.",
    # finale
    "finale.torch.prompt": "Banish again or end game? Your vote gives the host a torch; you can change it until the "
    "vote is locked.",
    "finale.torch.chosen": "Your vote: {torch}. You can change it until the vote is locked.",
    "finale.torch.host": "Each finalist's vote gives you a torch in their name: it turns red (banish again) or green "
    "(end game) when placed. Ask whether everybody is happy with their decision, then lock the vote.",
    "finale.happy": "The host asks: is everybody happy with their decision? The vote can still be changed until it "
    "is locked.",
    "finale.happy.prompt": "Is everybody happy with their decision? Vote again to change it, or keep it.",
    "finale.locked": "The finale vote is locked.",
    "finale.torch.reveal": "{player}: {torch}",
    "finale.torch.none": "{player}: no torch",
    "finale.banish_again": "Not everyone agrees to end the game: another banishment.",
    "finale.agreed": "Everyone agrees to end the game.",
    "finale.two_left": "Only two finalists remain.",
    # end
    "series.over": "{winner}! Winners: {winners}.",
    "series.over.nobody": "{winner}!",
    "series.over.host": "The series has ended without a winner.",
    "series.no_traitors": "No Traitor remains in the castle.",
    # illegal inputs (private replies)
    "illegal.phase": "You can't do that now.",
    "illegal.not_contestant": "{player} is not a contestant in this series.",
    "illegal.spectator": "Only contestants can do that.",
    "illegal.not_host": "Only the host can do that.",
    "illegal.out": "You are out of the series.",
    "illegal.vote.not_open": "The vote is not open.",
    "illegal.vote.not_eligible": "You have no vote paper in this vote.",
    "illegal.vote.twice": "You have already cast your vote; a cast vote cannot be changed.",
    "illegal.vote.self": "You cannot vote for yourself.",
    "illegal.vote.target": "{target} is not someone you can vote for.",
    "illegal.not_traitor": "Only the Traitors can do that.",
    "illegal.oath.not_you": "It is not your turn to take the Oath.",
    "illegal.turret.closed": "The Turret is not open.",
    "illegal.turret.unsworn": "Take the Traitors' Oath first.",
    "illegal.turret.already": "You have already made that choice tonight.",
    "illegal.turret.event": "Not a choice tonight: {event}.",
    "illegal.turret.target": "{target} cannot be chosen for that.",
    "illegal.turret.no_twist": "There is no double vote to give tonight.",
    "illegal.offer.none": "You have no offer to answer.",
    "illegal.power.closed": "There is no power to use now.",
    "illegal.power.none": "You have no power to use now.",
    "illegal.power.self": "You cannot choose yourself.",
    "illegal.power.self_once": "You can protect yourself only once.",
    "illegal.power.target": "{target} cannot be chosen.",
    "illegal.power.targets": "Choose {count:contestants}.",
    "illegal.power.same_twice": "Choose two different contestants.",
    "illegal.power.repeat": "You cannot choose {target} twice running.",
    "illegal.joker.first": "Answer the Joker offer first.",
    "illegal.joker.none": "You have no Joker offer to answer.",
    "illegal.torch.closed": "The torches are not open.",
    "illegal.torch.not_finalist": "Only finalists hold torches.",
    "illegal.presence.away": "{player} has already left the castle.",
    "illegal.presence.here": "{player} is already in the castle.",
    "presence.left": "{player} has left the castle (disconnected).",
    "presence.returned": "{player} is back in the castle.",
    "presence.welcome_back": "Welcome back to the castle.",
    "illegal.unknown_player": "There is no contestant called {player}.",
    # malformed input
    "invalid.action.kind": "Unknown input {kind}.",
    "invalid.action.fields": "Input {kind} needs the fields: {fields}.",
    "invalid.action.value": "Bad value {value} for {field}.",
    # host controls (private replies to the host)
    "host.unavailable": "{control}: not available yet.",
    "host.twist.start": "Start which twist? It is scheduled for the soonest day it can still happen.",
    "host.twist.cancel": "Cancel the next occurrence of which twist?",
    "host.book.missing": "Hold your castle book (written) and send it again.",
    # replacing a contestant (what each host control announces is in its spec: engine.core.host)
    "host.choose_seat": "Replace which contestant? Then the new player types /trigger traitors.console to take the seat.",
    "replace.hand.faithful": "You now play for {contestant} (seat {seat}). You are Faithful. Power: {power}.",
    "replace.hand.traitor": "You now play for {contestant} (seat {seat}). You are a Traitor. Power: {power}; "
    "false power: {false_power}. The Traitors: {traitors}.",
    "replace.hand.traitor.unsworn": "You now play for {contestant} (seat {seat}). You are a Traitor. Take the "
    "Traitors' Oath tonight to learn your power.",
    "replace.hand.out": "You now play for {contestant} (seat {seat}).",
    "illegal.clock.not_running": "No phase clock is running.",
    "illegal.clock.not_paused": "The clock is not paused.",
    "illegal.clock.seconds": "Extend by 1 to 3600 seconds, not {seconds}.",
    "illegal.replace.out": "{contestant} is no longer in the series.",
    "illegal.replace.player": "{player} cannot take a seat: already in this series or not a Minecraft name.",
    "illegal.replace.case": "{player} cannot take a seat: Minecraft takes {player} and {other} for one player.",
    "illegal.replace.none": "No seat is waiting for a new player.",
    "illegal.replaced": "Your seat is now played by someone else.",
    "illegal.undo.nothing": "There is no host action to take back: only the last input, if it was a host's move "
    "on, pause, resume or extension.",
}

from engine.messages_club import CLUB_MESSAGES  # noqa: E402 - the club rulesets' keys
from engine.messages_lobby import LOBBY_MESSAGES  # noqa: E402 - the lobby's keys (between series)

CATALOG.update(CLUB_MESSAGES)
CATALOG.update(LOBBY_MESSAGES)
CATALOG.update(TERMS)

LIST_SEPARATOR = ", "
"""Between the items of a list value (every shipped language writes lists this way)."""


def placeholders(key: str) -> tuple[str, ...]:
    """The placeholders of a catalogue text in order of first appearance (``()`` for an unknown key).

    The bridge passes message parameters to the client in this order (translate ``with``), so language files can
    refer to them as ``%1$s``, ``%2$s``….
    """
    return template_placeholders(CATALOG.get(key, ""))


def template_placeholders(template: str) -> tuple[str, ...]:
    """The placeholder names of a text (``{name}`` or ``{name:phrase}``), in order of first appearance."""
    out: list[str] = []
    for name, _phrase in _PLACEHOLDER.findall(template):
        if name not in out:
            out.append(name)
    return tuple(out)


def counted(key: str) -> dict[str, str]:
    """Placeholder name → counted phrase (``PLURALS`` key) for the ``{name:phrase}`` placeholders of a text."""
    return {name: phrase for name, phrase in _PLACEHOLDER.findall(CATALOG.get(key, "")) if phrase}


def value_text(value: Any) -> str:
    """The English text of one message value: a string as it is, a ``Message`` rendered, a tuple as a list."""
    if isinstance(value, str):
        return value
    if isinstance(value, tuple):
        return LIST_SEPARATOR.join(value_text(v) for v in value)
    key, params = getattr(value, "key", None), getattr(value, "params", None)
    if isinstance(key, str) and isinstance(params, tuple):
        return render(key, dict(params))
    return str(value)


def render(key: str, params: Mapping[str, Any] | None = None) -> str:
    """The English text of a message.

    Args:
        key: a ``CATALOG`` key.
        params: placeholder values (see the module docstring); a counted placeholder's value is the count.

    Returns:
        The filled text; an unknown key or a missing placeholder renders as the key or the unfilled text (never
        raises), so a missing catalogue entry can never stop the service.
    """
    template = CATALOG.get(key)
    if template is None:
        return key
    values = dict(params or {})

    def fill(m: re.Match[str]) -> str:
        name, phrase = m.group(1), m.group(2)
        if name not in values:
            raise KeyError(name)
        text = value_text(values[name])
        return english_plural(phrase, text) if phrase in PLURALS else text

    try:
        return _PLACEHOLDER.sub(fill, template)
    except KeyError:
        return template
