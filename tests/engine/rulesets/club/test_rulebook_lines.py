"""Rule lines of ``docs/rules/black-knights.md`` and ``docs/rules/mafia-yakuza.md`` that no other test pins, each
played through the engine from the rulebook's own words (``docs/rules/source/``), checking what each contestant
was told."""

from __future__ import annotations

import pytest

from engine.actions import SkipPower, UsePower
from engine.effects import Announce, Prompt, Whisper
from engine.errors import IllegalAction
from engine.rulesets.club.game import ClubPhase

BK = "black_knights"
MY = "mafia_yakuza"


def prompts(effects: list[object]) -> list[tuple[str, frozenset[str]]]:
    """(message key, recipients) of every prompt among ``effects``."""
    return [(e.message.key, e.to) for e in effects if isinstance(e, Prompt)]


@pytest.mark.rule("BK2")
def test_the_introduction_night_the_host_meets_the_active_roles_and_nobody_acts(club, bk8) -> None:
    """BK2: «Ведущий (монах) знакомится с каждым игроком, который имеет активную роль.» (the host meets each
    player with an active role). The first night is the introduction: everyone hears that the monk meets every
    active role; nobody is asked anything and nobody dies; the morning of day one follows. [house] Castle's
    introduction has no actions (the rulebook names none for it)."""
    d = club(BK, bk8)
    said = [e.message.key for e in d.effects if isinstance(e, Announce)]
    assert said.index("club.night") < said.index("bk.introduction") < said.index("club.morning")
    assert prompts(d.effects) == []
    assert d.phase is ClubPhase.MORNING and d.alive() == {n for n, _ in bk8}
    for name, _role in bk8:
        assert "bk.introduction" in d.told(name)


@pytest.mark.rule("MY2", "MY12")
def test_each_role_acts_only_at_its_own_step_and_everyone_else_sleeps(club, my14) -> None:
    """MY2: «Гравці виконують свої активні дії лише в умовах, передбачених їхньою роллю.» (players act only as
    their role provides). MY12: «Всі інші сплять (очікують).» (everyone else sleeps). Night one of Mafia &
    Yakuza: at every step only the roles of that step are asked, each privately; the Citizen is never asked; an
    action out of one's step, or on a target the role does not allow, is refused and changes nothing."""
    d = club(MY, my14)
    roles = dict(my14)
    seen: list[tuple[str, set[str]]] = []
    batch = d.effects[
        max(i for i, e in enumerate(d.effects) if isinstance(e, Whisper) and e.message.key == "my.team") + 1 :
    ]
    before: set[str] = set()
    while d.phase is ClubPhase.NIGHT:
        step = d.game.current_step()
        asked = set(d.game.pending)
        assert asked and all(roles[n] in step.roles for n in asked), (step.name, asked)
        assert {n for e in batch if isinstance(e, Prompt) for n in e.to} == asked, step.name
        told = {n for e in batch if isinstance(e, (Prompt, Whisper)) for n in e.to}
        assert told <= asked | before, (step.name, told - asked - before)  # the step before hears "passed"
        seen.append((step.name, asked))
        mark = len(d.effects)
        for sleeping in ("Rhea", next(n for n in ("Makena", "Alex") if n not in asked)):  # the Citizen; out of turn
            with pytest.raises(IllegalAction):
                d.do(UsePower(sleeping, "Omar"))
        if step.name == "mafia_shot":  # a family never shoots one of its own
            with pytest.raises(IllegalAction):
                d.do(UsePower("Alex", "Kai"))
        assert len(d.effects) == mark
        batch = [e for a in list(d.game.pending) for e in d.do(SkipPower(a))] + d.expire()
        before = asked
    assert "Rhea" not in {n for _, asked in seen for n in asked}
    assert [name for name, _ in seen] == [
        "mistress",
        "sapper",
        "mafia_shot",
        "yakuza_shot",
        "maniac",
        "poisoner",
        "bomber",
        "heal",
        "check",
    ]
    assert not any(key.startswith("my.prompt") for key in d.told("Rhea"))
