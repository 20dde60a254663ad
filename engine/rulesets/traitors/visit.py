"""The Traitor-power phase, host visiting and the night's resolution (rulebook §5, §6, §7.4, §7.5): each
power use is chosen, then every use resolves in ``engine.rulesets.traitors.powers.NIGHT_ORDER`` and the murder
is settled.

Every function takes the series (``engine.rulesets.traitors.context.Table``). A step that leads on returns the next
node of the phase graph (``engine.rulesets.traitors.rules.PHASES``), ``None`` when the series waits for a clock or
an input.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.actions import (
    Action,
    AnswerJoker,
    SkipPower,
    UsePower,
)
from engine.core.night import settle_attack
from engine.effects import (
    Choice,
    Prompt,
    TakeItem,
    choice,
    msg,
    whisper,
)
from engine.errors import IllegalAction
from engine.ids import Allegiance, Item, Place, Power
from engine.rulesets.traitors import night as night_steps
from engine.rulesets.traitors import twists
from engine.rulesets.traitors.choices import (
    skip_power,
    use_choice,
)
from engine.rulesets.traitors.context import Table
from engine.rulesets.traitors.losses import lose_power
from engine.rulesets.traitors.phases import Node, Phase, Stage
from engine.rulesets.traitors.powers import GUESS, MURDER, NIGHT_ORDER, POWERS, TURRET, VISIT, VISIT_ORDER
from engine.rulesets.traitors.powers import survivor as survivor_power
from engine.rulesets.traitors.state import Use


def choosable(game: Table, name: str, stage: str) -> list[Choice]:
    """The uses ``name`` may choose at this stage tonight (``power_choices``); ``[]`` when their power does
    not act at this stage, names nobody, or is used up."""
    power = game.active_power(name)
    if power is None:
        return []
    spec = POWERS[power]
    if spec.stage != stage or spec.targets == 0:
        return []
    if spec.uses is not None and game.powers.used[(name, power)] >= spec.uses:
        return []
    return power_choices(game, name)


def power_choices(game: Table, name: str) -> list[Choice]:
    """Every ``UsePower`` ``name`` may send now, as offered (validated; the validators never look at secrets)."""
    power = game.active_power(name)
    if power is None:
        return []
    spec = POWERS[power]
    living = game.living()
    if (
        spec.options is not None
    ):  # the power's own list of what validate accepts (engine.rulesets.traitors.powers.base.Power)
        return [use_choice(name, t, second) for t, second in spec.options(game, name, living)]
    validate = spec.validate
    out: list[Choice] = []
    if spec.targets == 1:
        for t in living:
            try:
                validate(game, name, (t,))
            except IllegalAction:
                continue
            out.append(use_choice(name, t, None))
    elif spec.targets == 2:
        for i, a in enumerate(living):
            for b in living[i + 1 :]:
                try:
                    validate(game, name, (a, b))
                except IllegalAction:
                    continue
                out.append(use_choice(name, a, b))
    return out


def prompt_power(game: Table, name: str, options: list[Choice]) -> None:
    """Ask ``name`` to choose among ``options`` (their ``power_choices`` now) or to pass."""
    power = game.active_power(name)
    assert power is not None
    choices = (*options, choice(msg("power.skip").text, SkipPower, name))
    game.emit(Prompt(frozenset({name}), msg(f"prompt.{power.value}"), choices))


def after_turret(game: Table) -> Node | None:
    """Rulebook §5: the Traitor powers are used in the Turret after the night's event is chosen. Their clock runs
    on every night with powers when ``night_fixed_length`` is on (phases house rule 9), else only while a
    Traitor holds a usable power."""
    assert game.night
    night = game.night
    if night.powers_on:
        night.options = {t: choosable(game, t, TURRET) for t in night.traitors}
        night.pending = [t for t in night.traitors if night.options[t]]
    if night.pending or (night.powers_on and game.settings.night_fixed_length):  # phases house rule 9
        game.start_clock(Phase.TRAITOR_POWERS, "traitor_powers", "clock.traitor_powers")
        for t in night.pending:
            prompt_power(game, t, night.options[t])
        return None
    return after_traitor_powers(game)


def close_traitor_powers(game: Table) -> Node | None:
    """The Traitor-power clock ran out: unused powers pass."""
    assert game.night
    game.night.pending = []
    return after_traitor_powers(game)


def after_traitor_powers(game: Table) -> Node | None:
    """Every decision of the Turret is made: the Traitors meet the contestant of tonight's offer, else they go
    home (rulebook §7.2); then host visiting, after the offer's clock on a night that may have an event when
    ``night_fixed_length`` is on (phases house rule 9)."""
    assert game.night
    if game.night.offer:
        return Stage.OFFER
    if game.night.events and game.settings.night_fixed_length:
        return Stage.NO_OFFER  # phases house rule 9
    night_steps.send_traitors_home(game)
    return open_host_visit(game)


def open_host_visit(game: Table) -> Node | None:
    """Rulebook §7.4: each Faithful with something to do is visited, in the night order; a guessed
    Faithful learns it first (the Cleanser excepted); a Faithful offered the Joker decides first. On a night with
    powers the visit's clock runs even when nobody is visited if ``night_fixed_length`` is on (phases house
    rule 9)."""
    assert game.night
    night = game.night
    if twists.before_host_visit(game):  # TWIST HOOK: the Faithful's Guess/Seer nomination comes first
        return None
    if not night.powers_on:
        return resolve_night(game)
    faithful = game.living_faithful()
    # Absent contestants (their player left the server) are skipped at host visiting.
    here = [n for n in faithful if game.players[n].present]
    for g in sorted(game.powers.guessed):
        if g in faithful and game.players[g].power is not Power.CLEANSER:
            lose_power(game, g)
    jn = game.settings.joker_night
    if jn and game.day == jn and not game.powers.joker_offered and here:
        game.powers.joker_offered = True
        night.joker = game.draw(here)
    rank = {p: i for i, p in enumerate(VISIT_ORDER)}
    options = night.options = {n: choosable(game, n, VISIT) for n in here}
    visited = [n for n in here if options[n] or n == night.joker]
    visited.sort(key=lambda n: (rank.get(game.active_power(n), len(rank)), game.players[n].seat))  # type: ignore[arg-type]
    night.pending = [n for n in visited if options[n]]
    if not night.pending and night.joker is None and not game.settings.night_fixed_length:  # phases house rule 9
        return resolve_night(game)
    game.start_clock(Phase.HOST_VISIT, "host_visit", "clock.host_visit")
    for n in visited:  # phases.py house rule 7: told to each one visited, not to everyone
        game.whisper([n], "phase.host_visit", day=game.day)
    for n in visited:
        if n == night.joker:
            game.emit(
                Prompt(
                    frozenset({n}),
                    msg("joker.offer"),
                    (
                        Choice(msg("joker.accept").text, AnswerJoker(n, True)),
                        Choice(msg("joker.decline").text, AnswerJoker(n, False)),
                    ),
                )
            )
        else:
            prompt_power(game, n, options[n])
    return None


def apply_joker(game: Table, name: str, accept: bool) -> Node | None:
    """Rulebook §6: the offered Faithful takes or refuses the Joker; then their power, if any."""
    assert game.night
    game.night.joker = None
    game.night.record.joker = {"contestant": name, "accepted": accept}
    if accept:
        game.powers.jokers.add(name)
        if name in game.night.pending:
            game.night.pending.remove(name)
        game.whisper([name], "joker.accepted")
    else:
        game.whisper([name], "joker.declined")
        if name in game.night.pending:
            prompt_power(game, name, game.night.options[name])
    return visit_maybe_done(game)


def apply_power(game: Table, name: str, use: Use | None) -> Node | None:
    """Note a chosen use (or a pass); the phase ends when every prompted contestant has chosen, unless tonight's
    stages run their whole clocks (phases house rule 9)."""
    assert game.night
    game.night.pending.remove(name)
    if use is None:
        game.emit(whisper(name, "power.skipped"))
    else:
        game.night.uses.append(use)
        game.powers.used[(name, use.power)] += 1
        if use.targets:
            game.powers.last_target[(name, use.power)] = (game.day, use.targets[0])
        game.emit(whisper(name, "power.noted"))
    if game.phase is Phase.TRAITOR_POWERS:
        if not game.night.pending and not game.settings.night_fixed_length:  # phases house rule 9
            return after_traitor_powers(game)
        return None
    return visit_maybe_done(game)


def visit_maybe_done(game: Table) -> Node | None:
    """Resolve the night once every visited contestant has chosen and the Joker is answered (with
    ``night_fixed_length``, at the end of the visit's clock instead: phases house rule 9)."""
    assert game.night
    if not game.night.pending and game.night.joker is None and not game.settings.night_fixed_length:
        return resolve_night(game)
    return None


def close_host_visit(game: Table) -> Node:
    """The host visit's clock ran out: an unanswered Joker offer is declined; unused powers pass."""
    assert game.night
    if game.night.joker is not None:
        game.night.record.joker = {"contestant": game.night.joker, "accepted": False}
        game.night.joker = None
    game.night.pending = []
    return resolve_night(game)


def resolve_night(game: Table) -> Node:
    """Resolve every use of tonight in ``NIGHT_ORDER``, then end the night (rulebook §5, §7.4, §7.5)."""
    assert game.night
    night = game.night
    uses = list(night.uses)
    if night.powers_on:
        for n in game.living_faithful():
            power = game.active_power(n)
            if power is not None and POWERS[power].stage == VISIT and POWERS[power].targets == 0:
                uses.append(Use(n, power, ()))
    seat = {n: p.seat for n, p in game.players.items()}
    by_power: dict[Power | str, list[Use]] = {}
    for u in sorted(uses, key=lambda u: seat[u.actor]):
        by_power.setdefault(u.power, []).append(u)
    for step in NIGHT_ORDER:
        if step == MURDER:
            settle_murder(game)
            continue
        if step == GUESS:
            for g in sorted(game.powers.guessed):
                p = game.players[g]
                if p.alive and p.power is Power.CLEANSER and g not in game.powers.cleansed:
                    lose_power(game, g)
            continue
        for use in by_power.get(step, ()):
            if voided_by_guess(game, use):
                continue
            night.record.powers.append(
                {
                    "contestant": use.actor,
                    "power": use.power.value,
                    "drunk": game.impaired(use.actor),
                    "targets": list(use.targets),
                    "result": None,
                }
            )
            POWERS[use.power].resolve(game, use)
    if not night.settled:
        settle_murder(game)
    return Stage.END_NIGHT


def voided_by_guess(game: Table, use: Use) -> bool:
    """Rulebook §7.4: a Cleanser the Traitors rightly guessed tonight who did not cleanse themself loses the power,
    and "whatever decision they did make will not be recorded": the choice cleanses nobody and leaves no line in
    the night's record. ``use`` is one use of tonight; only such a Cleanser's use is voided."""
    return (
        use.power is Power.CLEANSER
        and use.actor in game.powers.guessed
        and game.players[use.actor].power is Power.CLEANSER
        and use.targets != (use.actor,)
    )


def settle_murder(game: Table) -> None:
    """Rulebook §7.5: murder is prevented by a murder shield, The Guardian, the Survivor's alert (in that
    order) — never for an ultimatum."""
    assert game.night
    night = game.night
    night.settled = True
    if night.attack is None:
        return
    target, ultimatum = night.attack
    p = game.players[target]
    if not p.alive or p.allegiance is Allegiance.TRAITOR:
        return
    # The shared night core settles the attack: the first protection that holds, unless an ultimatum.
    survivor = survivor_power.alert_holds(game, target)
    saved_by = settle_attack(
        ultimatum,
        (("shielded", target in game.powers.shields), ("guarded", target in game.guarded), ("alerted", survivor)),
    )
    if saved_by == "shielded":
        game.powers.shields.discard(target)
        game.emit(TakeItem(Item.MURDER_SHIELD, (target,)))
        game.whisper([target], "shield.used")
    elif saved_by == "alerted":
        game.move([target], Place.DIARY_ROOM)
        survivor_power.alert(game, target)
    if saved_by is not None:
        night.record.result = saved_by
        return
    night.victims.append(target)
    night.record.result = "murdered"


def check_turn(game: Table, name: str) -> None:
    """``name`` is to choose a power use (or pass) now (rulebook §5, §7.4); a Joker offer comes first."""
    night = game.night
    if game.phase not in (Phase.TRAITOR_POWERS, Phase.HOST_VISIT) or not night:
        raise IllegalAction("illegal.power.closed")
    if name == night.joker:
        raise IllegalAction("illegal.joker.first")
    if name not in night.pending:
        raise IllegalAction("illegal.power.none")


def _use(game: Table, action: UsePower) -> Use:
    power = game.active_power(action.actor)
    assert power is not None
    targets = tuple(t for t in (action.target, action.second) if t is not None)
    return Use(action.actor, power, targets)


def check_use(game: Table, action: UsePower) -> None:
    """A use the contestant's power allows now (the power's ``validate``)."""
    check_turn(game, action.actor)
    use = _use(game, action)
    POWERS[use.power].validate(game, use.actor, use.targets)


def apply_use(game: Table, action: UsePower) -> Node | None:
    """Note the use; it resolves with the night."""
    return apply_power(game, action.actor, _use(game, action))


def check_skip(game: Table, action: SkipPower) -> None:
    """The contestant may pass on their turn."""
    check_turn(game, action.actor)


def apply_skip(game: Table, action: SkipPower) -> Node | None:
    """Note the pass."""
    return apply_power(game, action.actor, None)


def check_joker(game: Table, action: AnswerJoker) -> None:
    """Only the Faithful offered the Joker tonight answers (rulebook §6)."""
    night = game.night
    if game.phase is not Phase.HOST_VISIT or not night or night.joker != action.actor:
        raise IllegalAction("illegal.joker.none")


def apply_joker_answer(game: Table, action: AnswerJoker) -> Node | None:
    """Take or refuse the Joker."""
    return apply_joker(game, action.actor, action.accept)


def list_joker(game: Table, player: str) -> Sequence[Action]:
    """Accept or decline the Joker, for the Faithful offered it."""
    night = game.night
    if night and night.joker == player:
        return (AnswerJoker(player, True), AnswerJoker(player, False))
    return ()


def list_uses(game: Table, player: str) -> Sequence[Action]:
    """The uses offered at ``player``'s power prompt and the pass, while it is their turn (a Joker offer first)."""
    night = game.night
    if night and player in night.pending and player != night.joker:
        return [*[c.action for c in night.options[player]], skip_power(player)]
    return ()
