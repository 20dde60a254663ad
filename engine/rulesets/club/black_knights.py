"""Black Knights (ruleset ``black_knights``; ``docs/rules/black-knights.md``) as data for the club game.

A medieval mafia game run by a host (the monk). The White Order (Courtesan, Lord, Heir, Healer, White
Knights) against the Black Order (Grey Cardinal, Black Knights), with the Mad Knight alone.

Data here: the roles and teams ("Roles"), the wake order ("Night, in wake order" [rule]), who meets whom on
the introduction night ("Start"), the answers of the Grey Cardinal's and the Lord's checks, the default deal
([house] setting ``deal``), the win check ("End": BK12, with the [house] setting ``mad_knight_solo_win``). The
mechanics (block, team kill, attack, heal, check) are the shared core's (``engine.core.night``); the day
procedure (speeches with one nomination each, last word, repeat vote) is the club game's
(``engine.rulesets.club.game``).

[rule] BK5: the contestant the Courtesan chose does not act that night: a chosen Grey Cardinal or Black Knight
is not asked for the Black kill (the others decide it; it fails only if every living Black Order member was
chosen) and a chosen Grey Cardinal makes no check (``engine.rulesets.club.game`` house rule 2).

[house] resolution: a heal saves from every attack of the night; the Lord's check reads the Grey Cardinal as a
Black Knight and the Lord, Heir and Healer as "White Knight or Courtesan". The Healer may heal themself (not two
nights running); the Courtesan picks another contestant.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Mapping

from engine.core.knobs import BalanceKnobs, Knobs, on_off, swap_roles
from engine.core.night import BLOCK, CHECK, HEAL, SHOT
from engine.errors import ConfigError
from engine.outcome import Winner
from engine.rulesets.club.game import ClubGame
from engine.rulesets.club.settings import MEET, ClubRules, ClubSettings, Role, Step, faction_members
from engine.rulesets.club.spec import club_ruleset, role_messages

WHITE = "white_order"
BLACK = "black_order"
ALONE = "alone"

ROLES: dict[str, Role] = {
    r.code: r
    for r in (
        Role("courtesan", WHITE, "Courtesan"),
        Role("grey_cardinal", BLACK, "Grey Cardinal"),
        Role("black_knight", BLACK, "Black Knight"),
        Role("mad_knight", ALONE, "Mad Knight"),
        Role("lord", WHITE, "Lord"),
        Role("heir", WHITE, "Heir"),
        Role("healer", WHITE, "Healer"),
        Role("white_knight", WHITE, "White Knight"),
    )
}
"""Rulebook "Roles": code → role (Russian names in the ``ru_ru`` language file)."""

STEPS: tuple[Step, ...] = (
    Step("courtesan", ("courtesan",), BLOCK, no_repeat=True),
    Step("black_kill", ("grey_cardinal", "black_knight"), SHOT, team=BLACK),
    Step("cardinal_check", ("grey_cardinal",), CHECK),
    Step("mad_knight", ("mad_knight",), SHOT),
    Step("lord", ("lord",), CHECK, watchers=("heir",)),
    Step("healer", ("healer",), HEAL, self_ok=True, no_repeat=True),
)
"""Rulebook "Night, in wake order" 1–6."""

INTRO: tuple[Step, ...] = tuple(
    Step(f"meet_{roles[0]}", roles, MEET)
    for roles in (("courtesan",), ("grey_cardinal",), ("black_knight",), ("mad_knight",), ("lord", "heir"), ("healer",))
)
"""BK2 "The order of the introductions": 1. Courtesan 2. Grey Cardinal 3. Black Knights 4. Mad Knight 5. Lord and
Heir 6. Healer; each is met privately in its own step of the introduction night."""

KNOWS: tuple[frozenset[str], ...] = (frozenset({"grey_cardinal", "black_knight"}), frozenset({"lord", "heir"}))
"""Rulebook "Start": the Black Order meets together; the Lord and the Heir are met together."""

CARDINAL_ANSWER: dict[str, str] = {"lord": "crown", "healer": "syringe"}
"""Rulebook night step 3: crown = Lord, syringe = Healer, head shake = neither."""
LORD_BLACK = frozenset({"black_knight", "grey_cardinal"})
LORD_MAD = frozenset({"mad_knight"})
"""Rulebook night step 5 with [house]: thumbs up = Black Knight (the Grey Cardinal too), finger across the
throat = Mad Knight, thumbs down = everyone else ("White Knight or Courtesan")."""


def check_answer(step: str, _actor_role: str, role: str) -> str:
    """The message key of a check's answer (``step``: ``cardinal_check`` or ``lord``)."""
    if step == "cardinal_check":
        return "bk.check.cardinal." + CARDINAL_ANSWER.get(role, "neither")
    if role in LORD_BLACK:
        return "bk.check.lord.black"
    if role in LORD_MAD:
        return "bk.check.lord.mad"
    return "bk.check.lord.white"


def win(alive: Mapping[str, str], settings: ClubSettings) -> tuple[Winner, tuple[str, ...]] | None:
    """Rulebook "End" (BK12), checked in this order:

    1. [house] both orders gone at once (nobody of either is left): the Mad Knight wins if alive (the caller
       ends a series with nobody alive as nobody's win);
    2. [house] setting ``mad_knight_solo_win`` (default off): the Mad Knight wins alone when at most one other
       contestant is alive with him;
    3. [rule] the White Order wins when no Black Order member (Grey Cardinal, Black Knights) remains, whether or
       not the Mad Knight lives;
    4. [rule] the Black Order wins when no White Order member remains.

    Args:
        alive: living contestant → current role, seat order (not empty).
        settings: the series settings (``mad_knight_solo_win``).
    """
    mad = faction_members(alive, ROLES, ALONE)
    white = faction_members(alive, ROLES, WHITE)
    black = faction_members(alive, ROLES, BLACK)
    if not white and not black:
        return (Winner.MAD_KNIGHT, mad) if mad else None
    if settings.mad_knight_solo_win and mad and len(alive) <= 2:
        return Winner.MAD_KNIGHT, mad
    if not black:
        return Winner.WHITE_ORDER, white
    if not white:
        return Winner.BLACK_ORDER, black
    return None


def default_deal(n: int) -> tuple[str, ...]:
    """[house] setting ``deal``: 8 → one of each role (one Black Knight, one White Knight); each further 3
    contestants add a Black Knight and two White Knights; 1 or 2 left over are White Knights.

    Raises:
        ConfigError: fewer than 8 contestants.
    """
    if n < 8:
        raise ConfigError(f"contestants: {n}; Black Knights needs at least 8 (or a [deal] table for {n})")
    extra = n - 8
    black = 1 + extra // 3
    white = n - 6 - black
    return (
        ("grey_cardinal", "courtesan", "mad_knight", "lord", "heir", "healer")
        + ("black_knight",) * black
        + ("white_knight",) * white
    )


RULES = ClubRules(
    name="black_knights",
    prefix="bk",
    roles=ROLES,
    steps=STEPS,
    knows=KNOWS,
    check_answer=check_answer,
    win=win,
    default_deal=default_deal,
    sizes=(8, 16),
    intro=INTRO,
    first_night=0,
    reveal_role=True,
    nominations=True,
    keep_option=False,
    successors={"lord": "heir"},
)


class BlackKnightsGame(ClubGame):
    """One series of Black Knights (``RULES``)."""

    RULES = RULES


MESSAGES: dict[str, str] = {
    "bk.welcome": "Black Knights: {count:contestants}. Look at your card in secret.",
    "bk.team": "You know: {players}.",
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
    **role_messages(
        "bk",
        {code: role.title for code, role in ROLES.items()},
        {"deal": "Your card: {name}.", "reveal": "{{player}}'s card is turned: {name}."},
    ),
}
"""The English messages under the prefix ``bk`` (``engine.messages.CATALOG`` once registered): the welcome, the
Black Order's and the Lord's meeting, the prompts of the wake order, the check answers, the Heir's promotion, and
each role's name, card and turned card (the day's procedure is the club game's, ``engine.messages_club``)."""


def balance_setups(base: ClubSettings, n: int) -> list[tuple[Knobs, ClubSettings]]:
    """The balance lab's setups for ``n`` contestants: the number of Black Knights (1-3, in place of White
    Knights), the Mad Knight dealt or not (a White Knight in his place), the day's gallows on or off; ``base``
    with the deal (``deal_table``) and ``day_execution`` changed."""
    deal = default_deal(n)
    have = deal.count("black_knight")
    out: list[tuple[Knobs, ClubSettings]] = []
    for black, mad, gallows in itertools.product((1, 2, 3), (True, False), (True, False)):
        roles = deal
        if black < have:
            roles = swap_roles(roles, "black_knight", "white_knight", have - black)
        elif black > have:
            if roles.count("white_knight") < black - have + 1:
                continue
            roles = swap_roles(roles, "white_knight", "black_knight", black - have)
        if not mad:
            roles = swap_roles(roles, "mad_knight", "white_knight")
        s = dataclasses.replace(base, deal_table={n: roles}, day_execution=gallows)
        out.append(((("black_knights", str(black)), ("mad_knight", on_off(mad)), ("gallows", on_off(gallows))), s))
    return out


RULESET = club_ruleset(
    "black_knights",
    "Black Knights",
    BlackKnightsGame,
    "black-knights.md",
    columns=(
        ("Days", "days"),
        ("Put forward", "put_forward"),
        ("Votes cast", "votes_cast"),
        ("Votes for an opponent", "votes_for_opponents"),
        ("Votes received", "votes_received"),
    ),
    messages=MESSAGES,
    good_side=WHITE,
    rule_text="black-knights-rules.ru.txt",
    rule_id=r"BK\d+",
    balance=BalanceKnobs(balance_setups, "black_knights", "number of Black Knights"),
)
"""The registry entry (``engine.rulesets.RULESETS``); the summary columns are those of ``bridge.app.summary``."""


__all__ = [
    "BlackKnightsGame",
    "MESSAGES",
    "RULESET",
    "INTRO",
    "RULES",
    "ROLES",
    "STEPS",
    "check_answer",
    "default_deal",
    "win",
]
