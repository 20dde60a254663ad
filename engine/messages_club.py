"""English messages of the club game, shared by every club ruleset: ``club.*``, the clock and refusal keys, and the
procedures a ruleset switches on (``ClubRules``), keyed ``bk.*`` and ``my.*`` after the ruleset that brought them.

Merged into ``engine.messages.CATALOG``. Each club ruleset declares its own messages under its prefix in its
module (``MESSAGES`` in ``engine/rulesets/club/black_knights.py``: ``bk.*``, ``mafia_yakuza.py``: ``my.*``),
merged into the catalogue when the ruleset is registered (``engine.rulesets.register``). Role names are whole
messages (``bk.role.lord``, ``bk.deal.lord``, ``bk.reveal.lord`` …), never parameters, so each client shows them
in its own language: the Russian names of Black Knights and the Ukrainian names of Mafia & Yakuza come from the
rulebooks (``ru_ru`` / ``uk_ua`` language files).
"""

from __future__ import annotations

CLUB_MESSAGES: dict[str, str] = {
    "club.night": "Night {night}: everyone sleeps.",
    "club.blocked": "You are not woken tonight.",
    "club.blocked.ok": "Back to sleep",
    "club.blocked.asleep": "You go back to sleep.",
    "club.team.pick": "{player} points at {target}.",
    "club.member": "{player} ({role})",
    "club.replace.hand": "You now play for {contestant} (seat {seat}). Your role: {role}.",
    "club.morning": "Day {day}: the host sums up the night.",
    "club.died": "{player} did not wake up.",
    "club.no_deaths": "Everyone woke up this morning.",
    "club.discussion": "Day {day}: discuss in public, in turn; then the vote.",
    "club.vote.open": "The vote is open: {options}.",
    "club.vote.revote": "A tie. Revote between: {options}.",
    "club.vote.prompt": "Your vote:",
    "club.vote.cast": "You voted: {target}.",
    "club.nobody_leaves": "Nobody leaves today.",
    "club.second_tie": "A second tie: nobody leaves today.",
    "club.day_limit": "{days:days} without a winner: the series ends.",
    "clock.morning": "Morning",
    "clock.speech": "Speech",
    "clock.last_word": "Last word",
    "clock.repeat": "Repeat the vote?",
    "illegal.club.not_your_turn": "It is not your turn to speak.",
    "illegal.club.nominee": "{target} cannot be put forward.",
    "illegal.club.no_keep": "Keeping everyone is not an option in this vote.",
    "illegal.club.no_repeat": "There is no repeat vote to ask for now.",
    "illegal.club.blocked": "You are not woken tonight: you cannot act.",
    # the club game's procedures, keyed by the ruleset that brought them: Black Knights' introduction night, day
    # without gallows, speeches, nominations, last word and repeat vote; Mafia & Yakuza's turns to speak and vote
    # that may keep everyone (``ClubRules.intro``, ``nominations``, ``keep_option``)
    "bk.day_execution.on": "In this game the day ends at the gallows.",
    "bk.day_execution.off": "In this game nobody is sent to the gallows by day.",
    "bk.introduction": "The introduction night: the monk meets every active role. Nobody dies tonight.",
    "bk.intro.met": "The monk meets you: you are the {role}.",
    "bk.speech": "{player} speaks (one minute).",
    "bk.prompt.nominate": "Put forward one candidate for the vote, or hold back.",
    "bk.hold_back": "Hold back",
    "bk.held_back": "{player} holds back.",
    "bk.nominated": "{player} puts forward {target}.",
    "bk.no_candidates": "Nobody was put forward: nobody leaves today.",
    "bk.no_execution": "Nobody goes to the gallows by day in this game.",
    "bk.leaves": "{player} leaves the game.",
    "bk.last_word": "{player}: your last word (one minute).",
    "bk.prompt.repeat": "Did {player} win you over? Ask for the vote to be repeated?",
    "bk.repeat.yes": "Repeat the vote",
    "bk.repeat.no": "No repeat",
    "bk.repeat.noted": "Your answer is noted.",
    "bk.repeat": "{count:ask} for a repeat: {player} is back among the candidates; the vote is repeated.",
    "bk.no_repeat": "Only {count:asked} for a repeat: the departure stands.",
    "bk.no_repeat.none": "Nobody asked for a repeat: the departure stands.",
    "my.keep": "Keep everyone",
    "my.kept": "The town keeps everyone today.",
    "my.expelled": "{player} is expelled. Their role is not announced.",
    "my.turn": "{player} has the floor ({seconds:seconds}).",
}

__all__ = ["CLUB_MESSAGES"]
