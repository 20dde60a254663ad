"""Engine effects → Minecraft commands (pure; ``docs/design.md#the-bridge``). The only module that knows castle
coordinates.

House rules:

1. Secrets only ever go to one named player (``docs/design.md#hidden-information``): a ``Whisper``, ``Prompt``,
   ``GiveItem`` or private ``ShowTitle`` becomes one command per recipient, each naming that one player
   (``tellraw Alice …``), never ``@a``; nothing is written into team colours, sidebars, tags, or item names others
   can see.
2. Public effects (``Announce``, ``Revealed``, a public ``ShowTitle``, ``ClockStarted``) go to ``@a``; what is set
   down at a per-seat place (``PlaceItem``: a contestant's head at the breakfast table) is a block everyone in the
   room sees, and ``ClearPlace`` takes exactly that kind of block away again.
   ``SeriesOver`` renders nothing: the engine announces the end itself (an ``Announce`` and a ``ShowTitle``
   just before it), and saying it here too sent the announcement twice.
3. Every text is an engine ``Message`` rendered by ``commands.message_component`` (translate key
   ``traitors.<key>`` with the English fallback) or a name passed through ``commands.text_component``.
4. An effect type this module does not know raises ``TypeError``; it is never silently dropped.
5. The Traitors' cloak and lantern are worn, not carried (rulebook §10 "Traitors' Equipment"): a ``GiveItem`` of
   one puts it in its slot (``items.WORN``: the cloak on the chest, where its ``attribute_modifiers`` slow the
   wearer; the lantern in the off hand) when that slot is empty, and gives it into the inventory when not; a
   ``TakeItem`` clears it from wherever it is.
6. A ``MoveTo`` ``HOME_VISIT`` (the Traitors who bring an offer, rulebook §7.2) puts its players in the home of
   the seat it carries as visitors (``CastleConfig.visitor``): side by side in front of the home's resident,
   facing them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from bridge.config.castle import PER_SEAT_PLACES, CastleConfig
from bridge.minecraft.batch import ask, give_each
from bridge.minecraft.core import McCommand, player_name
from bridge.minecraft.display import tellraw
from bridge.minecraft.display import title as title_commands
from bridge.minecraft.items import WORN, clear, equip, give, give_once, give_unless_worn, item_stack
from bridge.minecraft.scoreboard import (
    bossbar_add,
    bossbar_set_max,
    bossbar_set_value,
    bossbar_set_visible,
    enable_trigger,
    objective_add_trigger,
)
from bridge.minecraft.snbt import SnbtValue
from bridge.minecraft.storage import UI_STORAGE, function_call, function_with_storage, storage_append, storage_set
from bridge.minecraft.text import Component, RunCommand, joined, message_component, text_component
from bridge.minecraft.triggers import (
    MURDER,
    NOMINATE,
    OATH,
    OFFER,
    SEDUCE,
    TORCH,
    TRIGGER_TITLES,
    TRIGGERS,
    TWIST,
    ULTIMATUM,
    VOTE,
    encode,
    input_dialog_title,
    input_labels,
    trigger_command,
)
from bridge.minecraft.ui_text import ui
from bridge.minecraft.world import PLAYER_HEAD, clear_block, gamerule, head_block, setblock, teleport
from engine.actions import (
    AnswerJoker,
    AnswerOffer,
    AskRepeat,
    CancelTwist,
    ChooseEvent,
    ChooseTorch,
    HoldBack,
    KeepEveryone,
    SkipPower,
    StartTwist,
    SwearOath,
)
from engine.effects import (
    Announce,
    Choice,
    ClearPlace,
    ClockChanged,
    ClockStarted,
    Effect,
    Eliminated,
    GiveItem,
    Message,
    MoveTo,
    PlaceItem,
    Prompt,
    Revealed,
    SeriesOver,
    ShowTitle,
    TakeItem,
    Whisper,
    msg,
)
from engine.ids import Allegiance, Item, Place, Power
from engine.terms import power_term, term, twist_term

CLOCK_BAR = "traitors:clock"
"""The bossbar that shows the phase clock."""

ANNOUNCE_PREFIX = "[Castle] "
WHISPER_PREFIX = "[Castle, to you] "


@dataclass(frozen=True, slots=True)
class RenderContext:
    """What rendering needs besides the effect.

    Args:
        castle: the castle's coordinates.
        seats: contestant name → seat number (1-based; public information).
    """

    castle: CastleConfig
    seats: Mapping[str, int]


def _sorted(names: Iterable[str]) -> list[str]:
    """Recipients in a stable order (validated one by one when commands are built)."""
    return sorted(names)


def _announce(component: Component) -> list[McCommand]:
    return tellraw("@a", joined(text_component(ANNOUNCE_PREFIX, color="gold", bold=True), component))


def _whisper(name: str, component: Component | list[Component]) -> list[McCommand]:
    parts = component if isinstance(component, list) else [component]
    prefix = text_component(WHISPER_PREFIX, color="light_purple", italic=True)
    return tellraw(player_name(name), joined(prefix, *parts))


def render(effect: Effect, ctx: RenderContext) -> list[McCommand]:
    """The commands that show one effect in the castle.

    Args:
        effect: an engine effect.
        ctx: castle coordinates and seating.

    Returns:
        Commands in the order to send them (possibly none).

    Raises:
        TypeError: an effect type this module does not render.
        ValueError: a bad player name, a seat the castle lacks, or an unsplittable over-long command.
    """
    if isinstance(effect, Announce):
        return _announce(message_component(effect.message, color="yellow", bold=False))
    if isinstance(effect, Whisper):
        component = message_component(effect.message, color="white", italic=False)
        return [c for name in _sorted(effect.to) for c in _whisper(name, component)]
    if isinstance(effect, Prompt):
        return _prompt(effect, ctx)
    if isinstance(effect, ShowTitle):
        t = message_component(effect.title, color="gold", bold=True)
        s = message_component(effect.subtitle, color="white") if effect.subtitle is not None else None
        audience = ["@a"] if effect.to is None else [player_name(n) for n in _sorted(effect.to)]
        return [c for a in audience for c in title_commands(a, title=t, subtitle=s)]
    if isinstance(effect, MoveTo):
        return _move(effect, ctx)
    if isinstance(effect, GiveItem):
        return _give(effect)
    if isinstance(effect, TakeItem):
        return _take(effect)
    if isinstance(effect, ClockStarted):
        seconds = max(1, math.ceil(effect.seconds))
        name = message_component(effect.label, color="white")
        return [function_call(CLOCK_FUNCTION, {"name": name.to_nbt(), "seconds": seconds})]
    if isinstance(effect, ClockChanged):
        # Paused, resumed or extended: the bar shows the seconds left; the service counts it down while it runs.
        left = max(1, math.ceil(effect.remaining))
        return [bossbar_set_max(CLOCK_BAR, left), bossbar_set_value(CLOCK_BAR, left)]
    if isinstance(effect, Revealed):
        return _revealed(effect)
    if isinstance(effect, PlaceItem):
        return [_set_down(effect, ctx)]
    if isinstance(effect, ClearPlace):
        block = PLACED_BLOCKS[effect.item]
        return [clear_block(*_xyz(ctx, effect.place, seat), block) for seat in effect.seats]
    # Eliminated: the engine announces a banishment itself (Announce + MoveTo GATE); a murder stays private until
    # breakfast. No game-mode change: a spectator could watch the Turret. SeriesOver: house rule 2.
    if isinstance(effect, (Eliminated, SeriesOver)):
        return []
    raise TypeError(f"render: unknown effect type {type(effect).__name__}")


def _give(effect: GiveItem) -> list[McCommand]:
    stack = item_stack(effect.item, label=effect.label)
    slot = WORN.get(effect.item)
    if slot is not None:  # worn (house rule 5): into its slot when free, else into the inventory
        return [
            c
            for name in _sorted(effect.to)
            for c in (equip(name, slot, stack), give_unless_worn(name, slot, effect.item, stack))
        ]
    return [give(name, stack) for name in _sorted(effect.to)]


def _take(effect: TakeItem) -> list[McCommand]:
    if effect.players is None or (len(effect.players) > 1 and effect.item in BALLOT_ITEMS):
        who = ["@a"]  # one command for everyone (ballot papers: only voters hold them)
    else:
        who = [player_name(name) for name in effect.players]
    return [clear(w, effect.item) for w in who]  # ``clear`` empties worn slots too


PLACED_BLOCKS: dict[Item, str] = {Item.PLAYER_HEAD: PLAYER_HEAD}
"""The castle items ``PlaceItem`` sets down, and the block each becomes (rulebook §10: the breakfast heads)."""


def _xyz(ctx: RenderContext, place: Place, seat: int) -> tuple[float, float, float]:
    loc = ctx.castle.location(place, seat)
    return loc.x, loc.y, loc.z


def _set_down(effect: PlaceItem, ctx: RenderContext) -> McCommand:
    """``setblock`` of the item's block at the seat's spot: a player head of ``label`` facing the spot's yaw.

    Raises:
        TypeError: an item ``PLACED_BLOCKS`` does not name. ValueError: a bad name, or a seat the castle lacks.
    """
    if effect.item is not Item.PLAYER_HEAD or effect.label is None:
        raise TypeError(f"render: cannot set down {effect.item.value} (label {effect.label!r})")
    loc = ctx.castle.location(effect.place, effect.seat)
    return setblock(loc.x, loc.y, loc.z, head_block(effect.label, loc.yaw))


BALLOT_ITEMS = frozenset({Item.VOTE_PAPER, Item.DOUBLE_VOTE_PAPER, Item.CAST_VOTE_PAPER})
"""Items only the voters of the ballot in progress hold. Taking one from several voters at once (the vote closes)
is one ``clear @a``: nobody else holds such an item, so the result is the same, the reply goes to RCON only, and
it saves one round trip per voter and kind (``docs/performance.md``)."""

CLOCK_FUNCTION = "traitors:ui/clock"
"""The data pack macro that starts the phase clock's bossbar (``datapack/data/traitors/function/ui/clock.mcfunction``):
one command per public clock instead of five."""

PROMPT_FUNCTION = "traitors:ui/prompt"
"""The data pack macro that shows a prompt dialog (``datapack/data/traitors/function/ui/prompt.mcfunction``)."""

CONSOLE_FUNCTION = "traitors:ui/console"
"""The data pack macro that shows the host's console dialog to one player."""

_DIALOG_TITLES: dict[str, str] = {
    VOTE: "traitors.dialog.title.vote",
    NOMINATE: "traitors.dialog.title.turret",
    MURDER: "traitors.dialog.title.turret",
    SEDUCE: "traitors.dialog.title.turret",
    ULTIMATUM: "traitors.dialog.title.turret",
    OATH: "traitors.dialog.title.oath",
    OFFER: "traitors.dialog.title.offer",
    TORCH: "traitors.dialog.title.torch",
    TWIST: "traitors.dialog.title.twist",
}
"""Trigger → the title of a dialog asking for it; a twist's inputs take theirs from the twist's spec
(``triggers.input_dialog_title``)."""


def choice_label(choice: Choice, prompt: Message | None = None) -> Component:
    """The label of one choice as a translatable component where the action has a fixed wording.

    Names stay names; a night event, a torch, the offer's and the Oath's answers, a power (the Guess), a twist
    (the host's twist prompt) and every fixed answer (pass, hold back, keep everyone, open a chest…) are
    translated; any other choice (e.g. a contestant's name) shows the engine's ``label`` text as it is.
    ``prompt`` is the question the choice answers, when known: an Oath answer is the answer to its own question
    (``oath.question.N`` → ``oath.answer.N``; the first and third read alike in English, not in every language).
    """
    action = choice.action
    if isinstance(action, SwearOath) and prompt is not None and prompt.key.startswith("oath.question."):
        return message_component(msg("oath.answer." + prompt.key.rsplit(".", 1)[1]))
    if isinstance(action, ChooseEvent):
        return ui(f"traitors.choice.{action.event.value}", target=action.target)
    if isinstance(action, ChooseTorch):
        return ui(f"traitors.torch.{action.torch.value}")
    if isinstance(action, AnswerOffer):
        return message_component(msg("offer.accept" if action.accept else "offer.decline"))
    if isinstance(action, SwearOath):
        for q in (1, 2, 3):
            if msg(f"oath.answer.{q}").text == choice.label:
                return message_component(msg(f"oath.answer.{q}"))
    power = getattr(action, "power", None)  # an input naming a power (a guess) is labelled with its name
    if isinstance(power, Power):
        label = power_term(power)
        return message_component(label) if isinstance(label, Message) else text_component(choice.label)
    if isinstance(action, (StartTwist, CancelTwist)):
        return message_component(twist_term(action.twist))
    if isinstance(action, AskRepeat):
        return message_component(msg("bk.repeat.yes" if action.ask else "bk.repeat.no"))
    if isinstance(action, AnswerJoker):
        return message_component(msg("joker.accept" if action.accept else "joker.decline"))
    for key in _FIXED_LABELS.get(type(action), ()) or input_labels(action):
        if msg(key).text == choice.label:
            return message_component(msg(key))
    return text_component(choice.label)


_FIXED_LABELS: dict[type, tuple[str, ...]] = {
    SkipPower: ("power.skip", "club.blocked.ok"),
    HoldBack: ("bk.hold_back",),
    KeepEveryone: ("my.keep",),
}
"""Inputs whose choice carries one of a few catalogue labels (the engine's ``Choice.label`` is its English): a
pass, or a blocked contestant going back to sleep (``engine.rulesets.club.night``); a twist's inputs take theirs
from the twist's spec (``triggers.input_labels``)."""


def render_give_once(effect: GiveItem, give_ids: Mapping[str, str]) -> list[McCommand]:
    """A ``GiveItem`` as crash-safe gives: each recipient's stack carries its hand-out id and is given only if
    the recipient does not hold it already (``commands.give_once``), so sending it twice gives one item.

    Args:
        effect: the effect.
        give_ids: recipient → hand-out id (``bridge.loop.recovery.Handouts``).

    Raises:
        KeyError: a recipient without an id.
        ValueError: a bad name or id.
    """
    out: list[McCommand] = []
    slot = WORN.get(effect.item)
    for name in _sorted(effect.to):
        gid = give_ids[name]
        stack = item_stack(effect.item, label=effect.label, give_id=gid)
        if slot is not None:  # worn (house rule 5): into its slot when free; give_once then finds it there
            out.append(equip(name, slot, stack))
        out.append(give_once(name, stack, gid))
    return out


def render_give_each(effect: GiveItem, give_ids: Mapping[str, str]) -> list[McCommand]:
    """A ``GiveItem`` as ``render_give_once`` gives it, in one ``traitors:item/give`` call for every recipient
    when it fits (``batch.give_each``); a worn item (house rule 5) goes as ``render_give_once`` sends it.

    Raises:
        KeyError: a recipient without an id.
        ValueError: a bad name or id.
    """
    if effect.item in WORN:
        return render_give_once(effect, give_ids)
    stacks = {n: item_stack(effect.item, label=effect.label, give_id=give_ids[n]) for n in effect.to}
    return give_each(stacks, give_ids)


def _prompt(effect: Prompt, ctx: RenderContext) -> list[McCommand]:
    """A dialog per recipient (``prompt_dialog``), then the chat fallback: the question and one clickable
    ``[label]`` per choice running ``/trigger traitors.<obj> set <n>``, for a player who closed the dialog."""
    out = [c for name in _sorted(effect.to) for c in prompt_dialog(name, effect, ctx)]
    parts: list[Component] = [message_component(effect.message, color="white", italic=False)]
    for choice in effect.choices:
        command = trigger_command(choice.action, ctx.seats)
        label = choice_label(choice, effect.message)
        parts.append(text_component(" "))
        style = {
            "color": "aqua",
            "bold": True,
            "italic": False,
            "click": RunCommand(command),
            "hover": ui("traitors.choice.hover", choice=label, color="gray"),
        }
        if label.translate is None:
            parts.append(text_component(f"[{choice.label}]", **style))  # type: ignore[arg-type]
        else:  # "[" + translated label + "]"; the children inherit the click event
            bracket = text_component("[", **style)  # type: ignore[arg-type]
            parts.append(replace(bracket, extra=(label, text_component("]"))))
    return out + [c for name in _sorted(effect.to) for c in _whisper(name, parts)]


def prompt_dialog(name: str, effect: Prompt, ctx: RenderContext) -> list[McCommand]:
    """The commands that show ``effect`` to ``name`` as a dialog (1.21.6+, ``docs/minecraft.md#commands-and-text``).

    When the dialog fits one command it is one call of the data pack macro ``traitors:ui/prompt`` with inline
    arguments ``{player, title, body, actions}``. A dialog with many buttons exceeds the 1446-byte RCON limit, so
    the bridge then writes it into storage ``traitors:ui prompt`` in commands that each fit (the first carries as
    many buttons as fit, the rest are appended one by one), then calls the macro with that storage; the macro's
    ``dialog show`` line has no size limit.

    Raises:
        ValueError: a bad name, or one button alone over the limit.
    """
    title, body, buttons = _dialog_parts(effect, ctx)
    return dialog_commands(name, title, body, buttons)


def _dialog_parts(effect: Prompt, ctx: RenderContext) -> tuple[Component, Component, list[tuple[Component, str]]]:
    """A prompt's dialog title, body and buttons ``(label, /trigger command)``."""
    first = effect.choices[0].action if effect.choices else None
    title_key = ""
    if first is not None:
        title_key = input_dialog_title(first) or _DIALOG_TITLES.get(encode(first, ctx.seats)[0], "")
    title = ui(title_key or "traitors.dialog.title.castle", color="gold", bold=True)
    buttons = [
        (choice_label(choice, effect.message), trigger_command(choice.action, ctx.seats)) for choice in effect.choices
    ]
    return title, message_component(effect.message), buttons


def render_prompt_asks(effect: Prompt, ctx: RenderContext) -> list[McCommand]:
    """A ``Prompt`` as one ``traitors:ui/ask`` call per recipient (``batch.ask``: the pack builds the dialog and
    the chat line from one list of choices); a recipient whose call would be over the RCON limit gets the dialog
    and the chat line apart, as ``render`` sends them.

    Raises:
        ValueError: a bad name, or one button alone over the limit.
    """
    title, body, buttons = _dialog_parts(effect, ctx)
    out: list[McCommand] = []
    for name in _sorted(effect.to):
        try:
            out.append(ask(name, title, body, buttons))
        except ValueError:
            out += _prompt(replace(effect, to=frozenset({name})), ctx)
    return out


def dialog_commands(
    name: str, title: Component, body: Component, buttons: Sequence[tuple[Component, str]]
) -> list[McCommand]:
    """The commands that show ``name`` a dialog with one button per ``(label, /trigger command)``
    (``prompt_dialog``'s form; the lobby's dialogs, ``bridge/loop/lobby_run.py``, too).

    Raises:
        ValueError: a bad name, or one button alone over the limit.
    """
    player = player_name(name)
    actions: list[SnbtValue] = [
        {"label": label.to_nbt(), "action": {"type": "run_command", "command": command}} for label, command in buttons
    ]
    head: dict[str, SnbtValue] = {"player": player, "title": title.to_nbt(), "body": body.to_nbt()}
    try:  # the usual case: the whole dialog fits one command, as the macro's inline arguments
        return [function_call(PROMPT_FUNCTION, {**head, "actions": actions})]
    except ValueError:
        pass
    k = len(actions)
    while k > 0:
        try:
            out = [storage_set(UI_STORAGE, "prompt", {**head, "actions": actions[:k]})]
            break
        except ValueError:
            k -= 1
    else:
        out = [storage_set(UI_STORAGE, "prompt", {**head, "actions": []})]
    out += [storage_append(UI_STORAGE, "prompt.actions", a) for a in actions[k:]]
    out.append(function_with_storage(PROMPT_FUNCTION, UI_STORAGE, "prompt"))
    return out


def show_console(name: str) -> McCommand:
    """``function traitors:ui/console {player:"<name>"}``: open the host's console dialog for one host."""
    return function_call(CONSOLE_FUNCTION, {"player": player_name(name)})


def _move(effect: MoveTo, ctx: RenderContext) -> list[McCommand]:
    out: list[McCommand] = []
    per_seat = effect.place in PER_SEAT_PLACES
    if per_seat and effect.seats and len(effect.seats) != len(effect.players):
        raise ValueError(f"MoveTo {effect.place.value}: {len(effect.players)} players but {len(effect.seats)} seats")
    visitors: dict[int, int] = {}
    for i, name in enumerate(effect.players):
        seat: int | None = None
        if per_seat:
            seat = effect.seats[i] if effect.seats else ctx.seats.get(name)
        if effect.place is Place.HOME_VISIT and seat is not None:  # house rule 6: side by side, facing the resident
            k = visitors[seat] = visitors.get(seat, -1) + 1
            loc = ctx.castle.visitor(seat, k)
        else:
            loc = ctx.castle.location(effect.place, seat)
        out.append(teleport(name, loc.x, loc.y, loc.z, loc.yaw, loc.pitch))
    return out


def _revealed(effect: Revealed) -> list[McCommand]:
    traitor = effect.allegiance is Allegiance.TRAITOR
    word = term("term.allegiance.a_traitor" if traitor else "term.allegiance.faithful")
    message = msg("banish.reveal", player=effect.player, allegiance=word)
    headline = message_component(
        msg(f"title.{effect.allegiance.value}"), color="dark_red" if traitor else "green", bold=True
    )
    # The title only: the engine announces the reveal in chat itself (its ``Announce`` beside this effect).
    return title_commands("@a", title=headline, subtitle=message_component(message, color="white"))


def clock_update(remaining_seconds: float) -> McCommand:
    """The clock bossbar's value, called by the service each second: ``bossbar set traitors:clock value <n>``.

    Args:
        remaining_seconds: seconds left; rounded up, never below 0.
    """
    return bossbar_set_value(CLOCK_BAR, max(0, math.ceil(remaining_seconds)))


def clock_hidden() -> McCommand:
    """Hide the clock bossbar: ``bossbar set traitors:clock visible false``."""
    return bossbar_set_visible(CLOCK_BAR, False)


SETUP_FUNCTION = "traitors:setup"
"""The data pack function that runs the set-up (``setup_function``, written by ``traitors install-datapack``)."""
LOAD_FUNCTION = "traitors:load"
"""The data pack's ``#minecraft:load`` function: the trigger objectives, the sequence counter and the queue."""


def setup_call() -> McCommand:
    """``function traitors:setup``: the set-up of ``setup_commands`` in one RCON command.

    The function runs the same gamerules, bossbar and ``enable`` commands, and creates the trigger objectives
    by calling the pack's own ``traitors:load`` (their display names are then the pack's translatable ones).
    Vanilla goes on with a function's next line when one fails, so objectives or a bossbar that exist already
    change nothing. A server whose pack has no such function replies "Unknown function …"; the service then
    sends ``setup_commands`` one by one.
    """
    return function_call(SETUP_FUNCTION)


def setup_commands(_ctx: RenderContext) -> list[McCommand]:
    """The commands that prepare the server for a series, one by one (safe to send again; ``setup_call`` does
    the same in one command when the data pack has ``traitors:setup``).

    * ``gamerule send_command_feedback false`` and ``gamerule log_admin_commands false``: trigger feedback
      would otherwise show every vote to op players (``docs/minecraft.md#player-input``);
    * one ``trigger`` objective per input (``bridge.minecraft.triggers.TRIGGERS``); a reply "An objective already exists"
      is harmless (``commands.is_already_exists``);
    * the clock bossbar (same for "A bossbar already exists");
    * every trigger enabled for ``@a`` (everyone online now; the engine decides who may do what). The data
      pack's tick function also enables every ``traitors.*`` trigger for every online player each tick
      (``traitors:input/player``, ``bridge.minecraft.trigger_pack.player_function``), which covers players who join
      later.
    """
    rules, objectives, rest = _setup_parts()
    return [*rules, *objectives, *rest]


def _setup_parts() -> tuple[list[McCommand], list[McCommand], list[McCommand]]:
    """The set-up in three parts: the two gamerules; the trigger objectives; the clock bossbar and every trigger
    enabled for ``@a``."""
    rules = [gamerule("send_command_feedback", False), gamerule("log_admin_commands", False)]
    objectives = [objective_add_trigger(obj, text_component(TRIGGER_TITLES[obj])) for obj in TRIGGERS]
    rest = [bossbar_add(CLOCK_BAR, text_component("Clock")), *(enable_trigger("@a", obj) for obj in TRIGGERS)]
    return rules, objectives, rest


SETUP_FUNCTION_FILE = "data/traitors/function/setup.mcfunction"
"""Where ``traitors:setup`` is in the data pack (written by ``traitors install-datapack``, ``setup_function``)."""

_SETUP_HEADER = """\
# Written by `traitors install-datapack` (bridge/minecraft/render.py setup_function): the service's set-up in one
# call (setup_call; the service sends setup_commands one by one instead when a server's pack has no such
# function). Safe to run again: an objective or bossbar that exists already just fails, and a failing command
# does not stop a function.
"""


def setup_function() -> str:
    """The text of the data pack's ``traitors:setup``: ``setup_commands`` with the trigger objectives made by
    ``function traitors:load`` (so their titles are the pack's translatable ones)."""
    rules, _objectives, rest = _setup_parts()
    lines = [c.text for c in rules] + [f"function {LOAD_FUNCTION}"] + [c.text for c in rest]
    return _SETUP_HEADER + "".join(line + "\n" for line in lines)
