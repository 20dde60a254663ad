"""Mafia & Yakuza (ruleset ``mafia_yakuza``; ``docs/rules/mafia-yakuza.md``) as data for the club game.

Two criminal families (Mafia, Yakuza), the town (commissars K, doctors D, the Mistress, citizens) and the
Loners (Maniac, Bomber). The role list is [house], built from the rulebook's mechanics.

Data here: roles and factions, the night order ([house] "Night order"), which roles de-mine (the Commissar),
resist mines (K) and cure poison (the Doctor, not the Shaman), the check answers, the default deal, the win
check. The mechanics (shot, poison with its two-night delay, explosion, mine and its first visitor, heal,
block, check) are the shared core's (``engine.core.night``).

[house] decisions (``docs/house-rules.md``): a heal saves its target from every shot of that night (two shots
against one heal: saved) and, for the Doctor, from a poison; never from an explosion or a mine. The family
shot is decided by the Don (Oyabun); if he is out or blocked, by the next member in the step's order. The
Commissar's check names the faction (Mafia, Yakuza, town, Loner); the Priest's says Loner or not. The
Bomber's goal, like the Maniac's: be alive when at most one other contestant is.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Mapping

from engine.core.knobs import BalanceKnobs, Knobs, on_off, swap_roles
from engine.core.night import BLOCK, CHECK, EXPLODE, HEAL, MINE, POISON, SHOT
from engine.errors import ConfigError
from engine.outcome import Winner
from engine.rulesets.club.game import ClubGame
from engine.rulesets.club.settings import ClubRules, ClubSettings, Role, Step, faction_members
from engine.rulesets.club.spec import club_ruleset, role_messages

MAFIA = "mafia"
YAKUZA = "yakuza"
TOWN = "town"
LONER = "loner"

ROLES: dict[str, Role] = {
    r.code: r
    for r in (
        Role("don", MAFIA, "Don"),
        Role("mafioso", MAFIA, "Mafioso"),
        Role("poisoner", MAFIA, "Poisoner"),
        Role("oyabun", YAKUZA, "Oyabun"),
        Role("yakuza", YAKUZA, "Yakuza"),
        Role("sapper", YAKUZA, "Sapper"),
        Role("commissar", TOWN, "Commissar", demines=True, mine_immune=True),
        Role("priest", TOWN, "Priest", mine_immune=True),
        Role("doctor", TOWN, "Doctor", cures_poison=True),
        Role("shaman", TOWN, "Shaman"),
        Role("mistress", TOWN, "Mistress"),
        Role("citizen", TOWN, "Citizen"),
        Role("maniac", LONER, "Maniac"),
        Role("bomber", LONER, "Bomber"),
    )
}
"""Rulebook "Roles" [house] (Ukrainian names in the ``uk_ua`` language file)."""

STEPS: tuple[Step, ...] = (
    Step("mistress", ("mistress",), BLOCK),
    Step("sapper", ("sapper",), MINE),
    Step("mafia_shot", ("don", "mafioso"), SHOT, team=MAFIA),
    Step("yakuza_shot", ("oyabun", "yakuza"), SHOT, team=YAKUZA),
    Step("maniac", ("maniac",), SHOT),
    Step("poisoner", ("poisoner",), POISON),
    Step("bomber", ("bomber",), EXPLODE, once=True),
    Step("heal", ("doctor", "shaman"), HEAL, self_ok=True),
    Step("check", ("commissar", "priest"), CHECK),
)
"""Rulebook "Night order" [house]: mistress → sapper → Mafia shot → Yakuza shot → maniac → poisoner → bomber →
doctor, shaman → commissar, priest."""

KNOWS: tuple[frozenset[str], ...] = (
    frozenset({"don", "mafioso", "poisoner"}),
    frozenset({"oyabun", "yakuza", "sapper"}),
)
"""Each family knows its members (they choose their shot together)."""


def check_answer(_step: str, actor_role: str, role: str) -> str:
    """The message key of a check's answer: the Commissar learns the faction, the Priest "Loner or not"."""
    team = ROLES[role].team
    if actor_role == "priest":
        return "my.check.priest." + ("loner" if team == LONER else "not_loner")
    return "my.check.commissar." + team


def win(alive: Mapping[str, str], _settings: ClubSettings) -> tuple[Winner, tuple[str, ...]] | None:
    """Rulebook "Factions and victory", in this order: the Loners whose goal is reached (alive with at most
    one other contestant) win; a family wins when it is the only faction left; the town wins when no Mafia,
    no Yakuza and no Loner remain.

    Args:
        alive: living contestant → role, seat order.
        settings: the series settings (no setting changes this ruleset's win).
    """
    loners = faction_members(alive, ROLES, LONER)
    if loners and len(alive) <= 2:
        return Winner.LONERS, loners
    teams = {ROLES[r].team for r in alive.values()}
    if teams == {MAFIA}:
        return Winner.MAFIA, tuple(alive)
    if teams == {YAKUZA}:
        return Winner.YAKUZA, tuple(alive)
    if teams == {TOWN}:
        return Winner.TOWN, tuple(alive)
    return None


def default_deal(n: int) -> tuple[str, ...]:
    """[house] setting ``deal``: 10 → don, mafioso, oyabun, yakuza, commissar, doctor, mistress, maniac,
    2 citizens; 12 adds poisoner and shaman; 14 adds sapper and priest; 16 adds bomber and a citizen; an odd
    count adds a citizen; 8 or 9 drop the mafioso and the yakuza.

    Raises:
        ConfigError: outside 8–16.
    """
    if not 8 <= n <= 16:
        raise ConfigError(f"contestants: {n}; Mafia & Yakuza allows 8-16")
    even = n - n % 2
    roles = ["don", "mafioso", "oyabun", "yakuza", "commissar", "doctor", "mistress", "maniac", "citizen", "citizen"]
    if even >= 12:
        roles += ["poisoner", "shaman"]
    if even >= 14:
        roles += ["sapper", "priest"]
    if even >= 16:
        roles += ["bomber", "citizen"]
    if even == 8:
        roles.remove("mafioso")
        roles.remove("yakuza")
    if n % 2:
        roles.append("citizen")
    return tuple(roles)


RULES = ClubRules(
    name="mafia_yakuza",
    prefix="my",
    roles=ROLES,
    steps=STEPS,
    knows=KNOWS,
    check_answer=check_answer,
    win=win,
    default_deal=default_deal,
    sizes=(8, 16),
    intro=(),
    first_night=1,
    reveal_role=False,
    nominations=False,
    keep_option=True,
)


class MafiaYakuzaGame(ClubGame):
    """One series of Mafia & Yakuza (``RULES``)."""

    RULES = RULES


MESSAGES: dict[str, str] = {
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
    **role_messages(
        "my", {code: role.title for code, role in ROLES.items()}, {"setup": "In the game: {name} × {{count}}."}
    ),
}
"""The English messages under the prefix ``my`` (``engine.messages.CATALOG`` once registered): the welcome, the
families' meeting, the prompts of the night order, the check answers, the morning's news, and each role's name,
dealt role, shown role and line in the first night's list of roles (the day's procedure is the club game's,
``engine.messages_club``)."""


def balance_setups(base: ClubSettings, n: int) -> list[tuple[Knobs, ClubSettings]]:
    """The balance lab's setups for ``n`` contestants: the Mafioso, the Yakuza and the Maniac dealt or not (each
    replaced by a Citizen); ``base`` with the deal (``deal_table``) changed. No day-vote knob: the day always
    ends in the vote (``day_execution`` acts only on Black Knights' nominations)."""
    deal = default_deal(n)
    out: list[tuple[Knobs, ClubSettings]] = []
    for mafioso, yakuza, maniac in itertools.product((True, False), repeat=3):
        roles = deal
        for role, on in (("mafioso", mafioso), ("yakuza", yakuza), ("maniac", maniac)):
            if not on and role in roles:
                roles = swap_roles(roles, role, "citizen")
        s = dataclasses.replace(base, deal_table={n: roles})
        out.append(((("mafioso", on_off(mafioso)), ("yakuza", on_off(yakuza)), ("maniac", on_off(maniac))), s))
    return out


RULESET = club_ruleset(
    "mafia_yakuza",
    "Mafia & Yakuza",
    MafiaYakuzaGame,
    "mafia-yakuza.md",
    columns=(
        ("Days", "days"),
        ("Votes cast", "votes_cast"),
        ("Votes to keep everyone", "votes_to_keep"),
        ("Votes for an opponent", "votes_for_opponents"),
        ("Votes received", "votes_received"),
    ),
    messages=MESSAGES,
    good_side=TOWN,
    rule_text="mafia-yakuza-rules.uk.txt",
    rule_id=r"MY\d+",
    balance=BalanceKnobs(balance_setups, "mafioso", "the Mafioso dealt"),
)
"""The registry entry (``engine.rulesets.RULESETS``); the summary columns are those of ``bridge.app.summary``."""


__all__ = ["MafiaYakuzaGame", "MESSAGES", "RULESET", "RULES", "ROLES", "STEPS", "check_answer", "default_deal", "win"]
