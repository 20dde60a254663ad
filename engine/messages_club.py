"""English messages of the club rulesets (Black Knights ``bk.*``, Mafia & Yakuza ``my.*``, shared ``club.*``).

Merged into ``engine.messages.CATALOG``. Role names are whole messages (``bk.role.lord``, ``bk.deal.lord``,
``bk.reveal.lord`` …), never parameters, so each client shows them in its own language: the Russian names of
Black Knights and the Ukrainian names of Mafia & Yakuza come from the rulebooks (``ru_ru`` / ``uk_ua``
language files).
"""

from __future__ import annotations

BK_ROLES: dict[str, str] = {
    "courtesan": "Courtesan",
    "grey_cardinal": "Grey Cardinal",
    "black_knight": "Black Knight",
    "mad_knight": "Mad Knight",
    "lord": "Lord",
    "heir": "Heir",
    "healer": "Healer",
    "white_knight": "White Knight",
}
MY_ROLES: dict[str, str] = {
    "don": "Don",
    "mafioso": "Mafioso",
    "poisoner": "Poisoner",
    "oyabun": "Oyabun",
    "yakuza": "Yakuza",
    "sapper": "Sapper",
    "commissar": "Commissar",
    "priest": "Priest",
    "doctor": "Doctor",
    "shaman": "Shaman",
    "mistress": "Mistress",
    "citizen": "Citizen",
    "maniac": "Maniac",
    "bomber": "Bomber",
}

CLUB_MESSAGES: dict[str, str] = {
    # shared by the club rulesets
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
    # Black Knights
    "bk.welcome": "Black Knights: {count:contestants}. Look at your card in secret.",
    "bk.day_execution.on": "In this game the day ends at the gallows.",
    "bk.day_execution.off": "In this game nobody is sent to the gallows by day.",
    "bk.introduction": "The introduction night: the monk meets every active role. Nobody dies tonight.",
    "bk.team": "You know: {players}.",
    "bk.intro.met": "The monk meets you: you are the {role}.",
    "bk.prompt.courtesan": "Courtesan: with whom do you spend the night?",
    "bk.prompt.black_kill": "Black Order: choose tonight's victim together.",
    "bk.prompt.cardinal_check": "Grey Cardinal: point at a contestant.",
    "bk.prompt.mad_knight": "Mad Knight: whom do you attack?",
    "bk.prompt.lord": "Lord: point at a contestant.",
    "bk.prompt.healer": "Healer: whom do you heal tonight?",
    "bk.check.cardinal.crown": "{player}: a crown. The Lord.",
    "bk.check.cardinal.syringe": "{player}: a syringe. The Healer.",
    "bk.check.cardinal.neither": "{player}: a shake of the head. Neither.",
    "bk.check.lord.black": "{player}: thumbs up. A Black Knight.",
    "bk.check.lord.white": "{player}: thumbs down. A White Knight or the Courtesan.",
    "bk.check.lord.mad": "{player}: a finger across the throat. The Mad Knight.",
    "bk.promoted.lord": "The Lord has left the game: you are the Lord now and check from tonight.",
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
    # Mafia & Yakuza
    "my.welcome": "Mafia & Yakuza: {count:contestants}. Keep your role secret.",
    "my.team": "Your family: {players}.",
    "my.prompt.mistress": "Mistress: whom do you visit tonight?",
    "my.prompt.sapper": "Sapper: whom do you mine?",
    "my.prompt.mafia_shot": "Mafia: choose the family's shot (the Don decides).",
    "my.prompt.yakuza_shot": "Yakuza: choose the family's shot (the Oyabun decides).",
    "my.prompt.maniac": "Maniac: whom do you shoot?",
    "my.prompt.poisoner": "Poisoner: whom do you poison?",
    "my.prompt.bomber": "Bomber: blow someone up tonight? (once per game)",
    "my.prompt.heal": "Whom do you heal tonight?",
    "my.prompt.check": "Whom do you check?",
    "my.check.commissar.mafia": "{player} is Mafia.",
    "my.check.commissar.yakuza": "{player} is Yakuza.",
    "my.check.commissar.town": "{player} is with the town.",
    "my.check.commissar.loner": "{player} is a Loner.",
    "my.check.priest.loner": "{player} is a Loner.",
    "my.check.priest.not_loner": "{player} is not a Loner.",
    "my.keep": "Keep everyone",
    "my.kept": "The town keeps everyone today.",
    "my.expelled": "{player} is expelled. Their role is not announced.",
    "my.turn": "{player} has the floor ({seconds:seconds}).",
    # the morning's news beyond the dead (setting morning_news, engine.rulesets.club.morning)
    "my.news.cured": "{player} is no longer poisoned.",
    "my.news.cured.unnamed": "A poison has been cured.",
    "my.news.poisoned": "{player} is poisoned: unless the poison is cured, they die at the end of night {night}.",
    "my.news.poisoned.unnamed": "A contestant is poisoned: unless the poison is cured, they die at the end of "
    "night {night}.",
    "my.news.demined": "The mine on {player} has been cleared.",
    "my.news.demined.unnamed": "A mine has been cleared.",
    "my.news.mined": "{player} is mined: the first to visit them at night sets it off, unless that visitor can "
    "clear it.",
    "my.news.mined.unnamed": "A contestant is mined: the first to visit them at night sets it off, unless that "
    "visitor can clear it.",
    "my.news.bomb_spent": "The bomb has gone off: there will be no more explosions.",
}

for _code, _name in BK_ROLES.items():
    CLUB_MESSAGES[f"bk.role.{_code}"] = _name
    CLUB_MESSAGES[f"bk.deal.{_code}"] = f"Your card: {_name}."
    CLUB_MESSAGES[f"bk.reveal.{_code}"] = f"{{player}}'s card is turned: {_name}."
for _code, _name in MY_ROLES.items():
    CLUB_MESSAGES[f"my.role.{_code}"] = _name
    CLUB_MESSAGES[f"my.deal.{_code}"] = f"Your role: {_name}."
    CLUB_MESSAGES[f"my.reveal.{_code}"] = f"{{player}} was: {_name}."
    CLUB_MESSAGES[f"my.setup.{_code}"] = f"In the game: {_name} × {{count}}."

__all__ = ["BK_ROLES", "CLUB_MESSAGES", "MY_ROLES"]
