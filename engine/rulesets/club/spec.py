"""What every club ruleset's registry entry shares (``engine.core.ruleset.Ruleset``): the club game's family, its
settings class, the record's headings for a club hand, the contestant range and rules table of the ruleset's game,
and the English messages every club ruleset has for each role."""

from __future__ import annotations

from collections.abc import Mapping

from engine.core.knobs import BalanceKnobs
from engine.core.ruleset import Ruleset
from engine.rulesets.club.game import ClubGame
from engine.rulesets.club.settings import ClubSettings
from engine.rulesets.club.settings_form import club_form

ROLE_TEXTS: dict[str, str] = {"role": "{name}", "deal": "Your role: {name}.", "reveal": "{{player}} was: {name}."}
"""The per-role messages (``<prefix>.<kind>.<role code>``) every club ruleset sends, kind → English template
(``{name}``: the role's display name): the role's name, the deal's whisper, the announcement when the role is
shown at a departure. A ruleset passes its own wording for any of them to ``role_messages``."""


def role_messages(prefix: str, names: Mapping[str, str], texts: Mapping[str, str] | None = None) -> dict[str, str]:
    """The English per-role messages of a club ruleset: ``<prefix>.<kind>.<code>`` for every role and every kind
    of ``ROLE_TEXTS`` updated with ``texts``.

    Args:
        prefix: the ruleset's message prefix (``ClubRules.prefix``: ``bk``, ``my``).
        names: role code → display name (English), in the rules table's order.
        texts: kind → template (``{name}`` the display name, ``{{player}}`` a message placeholder), replacing or
            adding to ``ROLE_TEXTS`` (Mafia & Yakuza's ``setup`` line of the first night).
    """
    kinds = {**ROLE_TEXTS, **(texts or {})}
    return {
        f"{prefix}.{kind}.{code}": text.format(name=name)
        for code, name in names.items()
        for kind, text in kinds.items()
    }


def club_ruleset(
    name: str,
    title: str,
    game: type[ClubGame],
    rulebook: str,
    columns: tuple[tuple[str, str], ...],
    *,
    messages: Mapping[str, str],
    good_side: str,
    rule_text: str,
    rule_id: str,
    balance: BalanceKnobs | None = None,
) -> Ruleset:
    """The registry entry of the club ruleset ``name`` played by ``game`` (a ``ClubGame`` subclass with its
    ``RULES``): ``ClubSettings``, family ``"club"``, the contestant range and rules table ``RULES``, the hand's
    headings "Team" and "Role", "Alive at the end" for a contestant still in at the end, the summary ``columns``
    (``(heading, summary key)`` in table order), the club settings' keys checked against ``RULES`` (``form``), its
    English ``messages`` (catalogue key → text, under ``RULES.prefix``), ``good_side``, the team that finds the
    hidden enemies (a ``Role.team``), the rule text its rules page restates and the pattern of its rule ids, and
    the balance lab's setups (``None``: the lab does not offer it)."""
    return Ruleset(
        name=name,
        title=title,
        game=game,
        settings=ClubSettings,
        rulebook=rulebook,
        family="club",
        sizes=game.RULES.sizes,
        hand=("Team", "Role"),
        survivor="Alive at the end",
        columns=columns,
        form=club_form(game.RULES),
        rules=game.RULES,
        messages=messages,
        good_side=good_side,
        rule_text=rule_text,
        rule_id=rule_id,
        balance=balance,
    )


__all__ = ["ROLE_TEXTS", "club_ruleset", "role_messages"]
