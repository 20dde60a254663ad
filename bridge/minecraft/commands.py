"""Pure builders for Minecraft Java 1.21.11 commands: the ONLY place that knows command syntax and quoting.

House rules for this file (``docs/design.md#the-bridge``):

1. Every builder returns ``McCommand`` values (or a list of them); nothing here sends anything.
2. Every free text (names, labels, messages, item names) goes through ONE text-component builder
   (``text_component`` / ``translated`` / ``message_component``) and ONE SNBT serializer (``snbt``). Nothing is
   ever concatenated into a command without passing through ``snbt`` (strings) or a validator (names, ids,
   numbers).
3. Text components are SNBT (1.21.5+ format, ``docs/minecraft.md#commands-and-text``). Click and hover events use
   the 1.21.5+ keys ``click_event``/``hover_event`` with ``run_command`` → ``command`` and ``show_text`` →
   ``value``; the old ``clickEvent``/``hoverEvent`` keys are never produced.
4. Player names are validated as ``[A-Za-z0-9_]{3,16}``; the only selector a builder accepts is ``@a``.
5. Every command is measured in UTF-8 bytes against vanilla's 1446-byte RCON limit (``docs/minecraft.md#rcon``).
   ``tellraw`` splits a long text into several commands; every other builder raises ``ValueError``.

String escaping (checked against the decompiled 1.21.5+ ``SnbtGrammar``: escapes ``\\b \\s \\t \\n \\f \\r \\\\
\\' \\" \\xHH \\uHHHH \\UHHHHHHHH \\N{name}``; mecha 0.101.0 accepts the same set minus ``\\x``/``\\N``):
strings are always double-quoted; ``\\`` and ``"`` are backslash-escaped; newline, tab, carriage return,
backspace and form feed use their letter escapes; every other control character, DEL, the C1 controls, lone
surrogates and ``§`` are written as ``\\uHHHH``; all other characters are sent literally (UTF-8).

The section sign ``§`` (U+00A7): SNBT parsing turns ``\\u00a7`` back into a real ``§``, and the vanilla client
treats ``§`` inside ANY text component string as a legacy formatting code (``StringDecomposer.iterateFormatted``
consumes ``§`` plus the next character, per string part; a ``§`` at the very end of a part is dropped). A
literal ``§`` therefore cannot be drawn by a vanilla client. What we guarantee instead: the component's data is
exactly the input text, and every ``§`` ends its own string part (the text is split after each ``§`` into
sibling parts in ``extra``), so it can never recolour, obfuscate or otherwise restyle the text after it: the
client shows the text with the ``§`` itself invisible. Translate components never carry a ``§`` in their
``fallback`` (``message_component`` falls back to plain text parts when the text contains one).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import NewType, TypeAlias, Union

from bridge.minecraft.plurals import count_class
from engine.effects import Message
from engine.ids import Item, Torch

MAX_COMMAND_BYTES = 1446
"""Vanilla's largest RCON command payload in UTF-8 bytes (``docs/minecraft.md#rcon``)."""

ALREADY_EXISTS_REPLIES: tuple[str, ...] = (
    "An objective already exists by that name",
    "A bossbar already exists with the ID",
)
"""Reply texts (prefixes) of set-up commands that mean "already there"; the service may ignore them."""


# --------------------------------------------------------------------------------------------------------------
# Values


@dataclass(frozen=True, slots=True)
class McCommand:
    """One complete Minecraft command, no leading slash, at most ``MAX_COMMAND_BYTES`` UTF-8 bytes."""

    text: str

    def __post_init__(self) -> None:
        if self.text.startswith("/"):
            raise ValueError(f"McCommand must not start with '/': {self.text[:60]!r}")
        size = utf8_size(self.text)
        if size > MAX_COMMAND_BYTES:
            raise ValueError(
                f"command is {size} bytes of UTF-8, over the {MAX_COMMAND_BYTES}-byte RCON limit: {self.text[:60]!r}..."
            )


McName = NewType("McName", str)
"""A validated Java Edition player name (``[A-Za-z0-9_]{3,16}``)."""

_NAME_RE = re.compile(r"[A-Za-z0-9_]{3,16}")
_RESOURCE_RE = re.compile(r"[a-z0-9_.-]+:[a-z0-9_./-]+")
_OBJECTIVE_RE = re.compile(r"[A-Za-z0-9_.+-]{1,64}")
_GAMERULE_RE = re.compile(r"[a-z][a-z0-9_]*")
_TRANSLATE_KEY_RE = re.compile(r"[A-Za-z0-9_.-]+")
_SAFE_KEY_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_HEX_COLOR_RE = re.compile(r"#[0-9A-Fa-f]{6}")

NAMED_COLORS: frozenset[str] = frozenset(
    {
        "black", "dark_blue", "dark_green", "dark_aqua", "dark_red", "dark_purple", "gold", "gray",
        "dark_gray", "blue", "green", "aqua", "red", "light_purple", "yellow", "white",
    }
)  # fmt: skip
"""Text colours a component may name (or ``#RRGGBB``)."""

BOSSBAR_COLORS: frozenset[str] = frozenset({"blue", "green", "pink", "purple", "red", "white", "yellow"})

GAMEMODES: frozenset[str] = frozenset({"survival", "creative", "adventure", "spectator"})


def player_name(s: str) -> McName:
    """Validate a player name at the edge.

    Args:
        s: a current Java Edition username.

    Returns:
        The same string, typed as ``McName``.

    Raises:
        ValueError: unless ``s`` matches ``[A-Za-z0-9_]{3,16}``.
    """
    if not isinstance(s, str) or not _NAME_RE.fullmatch(s):
        raise ValueError(f"not a valid Minecraft player name: {s!r}")
    return McName(s)


def targets(t: str) -> str:
    """Validate a command target: ``@a`` (everyone online) or one player name.

    Raises:
        ValueError: anything else (other selectors are never built here).
    """
    if t == "@a":
        return t
    return player_name(t)


def utf8_size(text: str) -> int:
    """The size of ``text`` in UTF-8 bytes (the unit of the 1446-byte RCON limit)."""
    return len(text.encode("utf-8", "surrogatepass"))


def _command(text: str) -> McCommand:
    """Wrap a finished command, refusing it when it is over the RCON limit (with a clear message)."""
    size = utf8_size(text)
    if size > MAX_COMMAND_BYTES:
        head = text.split(" ", 1)[0]
        raise ValueError(
            f"{head} command would be {size} bytes of UTF-8, over the {MAX_COMMAND_BYTES}-byte RCON limit; "
            "it cannot be split"
        )
    return McCommand(text)


# --------------------------------------------------------------------------------------------------------------
# SNBT


SnbtValue: TypeAlias = Union[str, bool, int, "Mapping[str, SnbtValue]", "Sequence[SnbtValue]"]
"""A value ``snbt`` can write: strings, booleans, ints, compounds (mappings) and lists."""

_LETTER_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r", "\b": "\\b", "\f": "\\f"}


def _escape_char(c: str) -> str:
    esc = _LETTER_ESCAPES.get(c)
    if esc is not None:
        return esc
    o = ord(c)
    if o < 0x20 or 0x7F <= o <= 0x9F or o == 0xA7 or 0xD800 <= o <= 0xDFFF:
        return f"\\u{o:04x}"
    return c


_NEEDS_ESCAPE_RE = re.compile('[\\\\"\x00-\x1f\x7f-\x9f\u00a7\ud800-\udfff]')


def snbt_string(s: str) -> str:
    """Quote a string as an SNBT string literal (always double quotes; see the module docstring)."""
    if not _NEEDS_ESCAPE_RE.search(s):
        return '"' + s + '"'
    return '"' + "".join(_escape_char(c) for c in s) + '"'


def snbt(value: SnbtValue) -> str:
    """Serialize a value to SNBT: the one place that writes SNBT (strings via ``snbt_string``).

    Raises:
        TypeError: for a value of another type (floats are not needed and not supported).
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(int(value))
    if isinstance(value, str):
        return snbt_string(value)
    if isinstance(value, Mapping):
        entries = []
        for k, v in value.items():
            key = k if _SAFE_KEY_RE.fullmatch(k) else snbt_string(k)
            entries.append(f"{key}:{snbt(v)}")
        return "{" + ",".join(entries) + "}"
    if isinstance(value, Sequence):
        return "[" + ",".join(snbt(v) for v in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} as SNBT")


# --------------------------------------------------------------------------------------------------------------
# Text components (docs/minecraft.md#commands-and-text)


@dataclass(frozen=True, slots=True)
class RunCommand:
    """A ``click_event`` that runs a command as the clicking player (``/trigger …`` for contestants)."""

    command: str


@dataclass(frozen=True, slots=True)
class Component:
    """A text component value. Build it with ``text_component``/``translated``/``message_component``/``joined``.

    Exactly one of ``text`` and ``translate`` is set. ``extra`` children inherit this component's style.
    """

    text: str | None = None
    translate: str | None = None
    fallback: str | None = None
    args: tuple[Component, ...] = ()
    color: str | None = None
    bold: bool | None = None
    italic: bool | None = None
    click: RunCommand | None = None
    hover: Component | None = None
    extra: tuple[Component, ...] = field(default=())

    def to_nbt(self) -> dict[str, SnbtValue]:
        """The component as SNBT-ready data (the 1.21.5+ text component format)."""
        out: dict[str, SnbtValue] = {}
        extra: list[SnbtValue] = []
        if self.translate is not None:
            out["translate"] = self.translate
            if self.fallback is not None:
                out["fallback"] = self.fallback
            if self.args:
                out["with"] = [a.to_nbt() for a in self.args]
        else:
            parts = _split_after_section_signs(self.text or "")
            out["text"] = parts[0]
            extra.extend({"text": p} for p in parts[1:])
        if self.color is not None:
            out["color"] = self.color
        if self.bold is not None:
            out["bold"] = self.bold
        if self.italic is not None:
            out["italic"] = self.italic
        if self.click is not None:
            out["click_event"] = {"action": "run_command", "command": self.click.command}
        if self.hover is not None:
            out["hover_event"] = {"action": "show_text", "value": self.hover.to_nbt()}
        extra.extend(c.to_nbt() for c in self.extra)
        if extra:
            out["extra"] = extra
        return out

    def snbt(self) -> str:
        """The component as an SNBT string, ready to be a command argument."""
        return snbt(self.to_nbt())

    def plain_text(self) -> str:
        """The text a reader sees, without styles (translate components use their fallback, ``%%`` → ``%``)."""
        own = self.text if self.translate is None else _unformat(self.fallback or self.translate)
        return (own or "") + "".join(c.plain_text() for c in self.extra)


def _split_after_section_signs(text: str) -> list[str]:
    """Split so that every ``§`` is the last character of its part (see the module docstring)."""
    if "\u00a7" not in text:
        return [text]
    parts: list[str] = []
    start = 0
    for i, c in enumerate(text):
        if c == "\u00a7":
            parts.append(text[start : i + 1])
            start = i + 1
    if start < len(text):
        parts.append(text[start:])
    return parts


def _check_style(color: str | None) -> None:
    if color is not None and color not in NAMED_COLORS and not _HEX_COLOR_RE.fullmatch(color):
        raise ValueError(f"not a text colour: {color!r}")


def _check_click(click: RunCommand | None) -> None:
    if click is not None and not click.command.startswith("/"):
        raise ValueError(f"a run_command click event needs a command starting with '/': {click.command!r}")


def text_component(
    text: str,
    *,
    color: str | None = None,
    bold: bool | None = None,
    italic: bool | None = None,
    click: RunCommand | None = None,
    hover: Component | str | None = None,
) -> Component:
    """THE builder for free text: a literal text component that shows ``text`` exactly (``§`` made harmless).

    Args:
        text: any Unicode text; quotes, backslashes, newlines (shown as line breaks) and ``§`` are safe.
        color: a named colour (``NAMED_COLORS``) or ``#RRGGBB``.
        bold: bold on/off; ``None`` inherits.
        italic: italic on/off; ``None`` inherits (item names are italic unless set ``False``).
        click: a ``RunCommand`` click event (written as ``click_event:{action:"run_command",command:…}``).
        hover: text shown on hover (``hover_event:{action:"show_text",value:…}``); a string is wrapped.

    Raises:
        ValueError: a bad colour, or a click command not starting with ``/``.
    """
    _check_style(color)
    _check_click(click)
    if isinstance(hover, str):
        hover = text_component(hover)
    return Component(text=str(text), color=color, bold=bold, italic=italic, click=click, hover=hover)


def translated(
    key: str,
    fallback: str,
    *,
    args: Sequence[str | Component] = (),
    color: str | None = None,
    bold: bool | None = None,
    italic: bool | None = None,
) -> Component:
    """A translate component with an English ``fallback`` (1.21.4+ ``fallback`` field).

    The fallback is a format string on the client: ``%`` in ``fallback`` is written as ``%%``. ``args`` become
    the ``with`` list, usable as ``%1$s``… by a language file: a string as a plain text component, a component
    as it is (a nested ``translate`` component is translated by the client too:
    https://minecraft.wiki/w/Text_component_format#Translated_Text).

    Args:
        key: the translation key, e.g. ``"traitors.vote.cast"``.
        fallback: the English text, shown by clients without the key (vanilla clients).
        args: placeholder values, in order.

    Raises:
        ValueError: a bad key or colour, or a ``§`` in the fallback (use ``text_component`` for such text).
    """
    if not _TRANSLATE_KEY_RE.fullmatch(key):
        raise ValueError(f"not a translation key: {key!r}")
    if "\u00a7" in fallback:
        raise ValueError("a translate fallback cannot carry '§' harmlessly; use text_component")
    _check_style(color)
    return Component(
        translate=key,
        fallback=fallback.replace("%", "%%"),
        args=tuple(a if isinstance(a, Component) else text_component(a) for a in args),
        color=color,
        bold=bold,
        italic=italic,
    )


def message_component(
    message: Message, *, color: str | None = None, bold: bool | None = None, italic: bool | None = None
) -> Component:
    """An engine ``Message`` as a component: ``translate:"traitors.<key>"`` with the English text as fallback.

    The parameters go into ``with`` in the order their placeholders first appear in the English catalogue text
    (``engine.messages.placeholders``), so the language files can use ``%1$s``… in a fixed order
    (``bridge.minecraft.lang``); a key without a catalogue entry keeps ``Message.params`` order. Each value is an argument
    of its own kind (``message_argument``): a name stays text, a term is a nested translate component, a count
    of a counted phrase is the phrase's key for its count class. A text containing ``§`` is sent as a plain text
    component instead (a fallback cannot neutralise ``§``).
    """
    from engine.messages import counted, placeholders

    english = message.text
    if "\u00a7" in english:
        return text_component(english, color=color, bold=bold, italic=italic)
    params = dict(message.params)
    names = placeholders(message.key) or tuple(params)
    phrases = counted(message.key)
    return translated(
        "traitors." + message.key,
        english,
        args=[message_argument(params.get(n, ""), phrases.get(n)) for n in names],
        color=color,
        bold=bold,
        italic=italic,
    )


def message_argument(value: object, phrase: str | None = None) -> Component:
    """One message value as a ``with`` argument.

    Args:
        value: plain text (shown as it is), a ``Message`` (a term: ``message_component``), or a tuple of values
            (a list: the items joined by ``", "``).
        phrase: for a counted placeholder (``{count:phrase}``), the counted phrase: a whole-number value becomes
            ``translate:"traitors.plural.<phrase>.<class>"`` with the count as its argument, the class being the
            count's class across the shipped languages (``bridge.minecraft.plurals``), so each client declines the phrase.
    """
    from engine.messages import LIST_SEPARATOR
    from engine.messages_terms import PLURALS, english_plural

    if isinstance(value, Message):
        return message_component(value)
    if isinstance(value, tuple):
        items: list[Component] = []
        for i, v in enumerate(value):
            if i:
                items.append(text_component(LIST_SEPARATOR))
            items.append(message_argument(v))
        return joined(*items)
    text = str(value)
    if phrase in PLURALS and re.fullmatch(r"\d{1,9}", text):
        key = f"traitors.plural.{phrase}.{count_class(int(text))}"
        return translated(key, english_plural(phrase, text), args=[text])
    return text_component(text)


def joined(*parts: Component | str) -> Component:
    """Several components side by side with no shared style (``{text:"",extra:[…]}``); strings are wrapped."""
    return Component(text="", extra=tuple(text_component(p) if isinstance(p, str) else p for p in parts))


def _unformat(fallback: str) -> str:
    return fallback.replace("%%", "%")


# --------------------------------------------------------------------------------------------------------------
# tellraw and title


def tellraw(to: str, component: Component) -> list[McCommand]:
    """``tellraw <to> <component>``, split into several commands when over the RCON limit.

    Splitting: a ``joined`` component is cut between its parts; a part too long on its own is cut into text
    chunks (at whitespace where possible; a translate part becomes its plain fallback text). Each command then
    shows one chat message; read in order they show the whole text.

    Args:
        to: ``@a`` or one player name (secrets: always one name).
        component: the message.

    Returns:
        One command, or several in reading order.

    Raises:
        ValueError: a bad target, or a part that cannot be split (e.g. a huge clickable label).
    """
    t = targets(to)
    prefix = f"tellraw {t} "
    whole = prefix + component.snbt()
    if utf8_size(whole) <= MAX_COMMAND_BYTES:
        return [McCommand(whole)]

    def fits(parts: Sequence[Component]) -> bool:
        return utf8_size(prefix + Component(text="", extra=tuple(parts)).snbt()) <= MAX_COMMAND_BYTES

    is_root = component.text == "" and component.translate is None and _unstyled(component)
    parts = list(component.extra) if is_root else [component]
    commands: list[McCommand] = []
    current: list[Component] = []

    def flush() -> None:
        commands.append(_command(prefix + Component(text="", extra=tuple(current)).snbt()))
        current.clear()

    for part in parts:
        if fits([*current, part]):
            current.append(part)
            continue
        if part.translate is not None and not part.extra:
            part = replace(part, text=_unformat(part.fallback or ""), translate=None, fallback=None, args=())
        if part.text is None or part.extra:  # not plain text: it must fit in a command of its own
            if current:
                flush()
            if not fits([part]):
                raise ValueError("a non-text part of a tellraw is over the 1446-byte RCON limit and cannot be split")
            current.append(part)
            continue
        text, start = part.text, 0
        while start < len(text):
            k = _longest_fitting(part, text, start, current, fits)
            if k == 0:
                if not current:
                    raise ValueError("a tellraw part's style alone is over the 1446-byte RCON limit")
                flush()
                continue
            end = start + k
            if end < len(text):  # prefer to cut after whitespace in the second half of the chunk
                window = text[start + k // 2 : end]
                cut = max(window.rfind(" "), window.rfind("\n"))
                if cut >= 0:
                    end = start + k // 2 + cut + 1
            current.append(replace(part, text=text[start:end]))
            start = end
            if start < len(text):
                flush()
    if current:
        flush()
    return commands


def _unstyled(c: Component) -> bool:
    return c.color is None and c.bold is None and c.italic is None and c.click is None and c.hover is None


def _longest_fitting(
    part: Component,
    text: str,
    start: int,
    current: Sequence[Component],
    fits: Callable[[Sequence[Component]], bool],
) -> int:
    """The largest k such that ``text[start:start+k]`` (styled as ``part``) still fits after ``current``."""
    lo, hi = 0, len(text) - start
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fits([*current, replace(part, text=text[start : start + mid])]):
            lo = mid
        else:
            hi = mid - 1
    return lo


TitleTimes = tuple[int, int, int]
DEFAULT_TITLE_TIMES: TitleTimes = (10, 70, 20)
"""Title fade-in, stay and fade-out in ticks (vanilla's defaults)."""


def title(
    to: str,
    *,
    title: Component | None = None,
    subtitle: Component | None = None,
    actionbar: Component | None = None,
    times: TitleTimes | None = DEFAULT_TITLE_TIMES,
) -> list[McCommand]:
    """``title`` commands: ``times``, then ``subtitle`` (shown with the next title), ``title``, ``actionbar``.

    Args:
        to: ``@a`` or one player name.
        title: the big text.
        subtitle: the smaller text under it (sent before ``title``, as vanilla requires).
        actionbar: the text above the hotbar.
        times: ``(fade_in, stay, fade_out)`` in ticks (20 per second), or ``None`` to leave them.

    Raises:
        ValueError: a bad target, negative times, or a command over the 1446-byte limit (titles don't split).
    """
    t = targets(to)
    out: list[McCommand] = []
    if times is not None:
        if len(times) != 3 or any(not isinstance(v, int) or isinstance(v, bool) or v < 0 for v in times):
            raise ValueError(f"title times must be three non-negative tick counts: {times!r}")
        out.append(_command(f"title {t} times {times[0]} {times[1]} {times[2]}"))
    if subtitle is not None:
        out.append(_command(f"title {t} subtitle {subtitle.snbt()}"))
    if title is not None:
        out.append(_command(f"title {t} title {title.snbt()}"))
    if actionbar is not None:
        out.append(_command(f"title {t} actionbar {actionbar.snbt()}"))
    return out


# --------------------------------------------------------------------------------------------------------------
# Positions and game state


def _coord(v: float) -> str:
    """A coordinate/angle with a decimal point: ``64`` → ``64.0`` (an integer would be block-centred by tp)."""
    f = float(v)
    if not math.isfinite(f):
        raise ValueError(f"coordinate must be finite: {v!r}")
    s = f"{f:.4f}".rstrip("0")
    if s.endswith("."):
        s += "0"
    return "0.0" if s in ("-0.0", "0.0") else s


def teleport(name: str, x: float, y: float, z: float, yaw: float = 0.0, pitch: float = 0.0) -> McCommand:
    """``tp <name> x y z yaw pitch`` (absolute world coordinates in blocks; yaw/pitch in degrees,
    ``docs/minecraft.md#commands-and-text``).

    Coordinates are always written with a decimal point so vanilla does not centre them on the block.

    Raises:
        ValueError: a bad name, non-finite numbers or a pitch outside -90..90.
    """
    n = player_name(name)
    if not -90.0 <= float(pitch) <= 90.0:
        raise ValueError(f"pitch must be within -90..90 degrees: {pitch!r}")
    return _command(f"tp {n} {_coord(x)} {_coord(y)} {_coord(z)} {_coord(yaw)} {_coord(pitch)}")


SLOWNESS = "minecraft:slowness"
"""The effect the Traitors' cloak brings in the Turret (rulebook §10: slower movement)."""


def effect_give(to: str, effect: str, amplifier: int = 0) -> McCommand:
    """``effect give <to> <effect> infinite <amplifier> true`` (no particles: nobody sees who wears it).

    Raises:
        ValueError: bad target, effect id or amplifier (0..255).
    """
    if not _RESOURCE_RE.fullmatch(effect):
        raise ValueError(f"not an effect id: {effect!r}")
    if not 0 <= amplifier <= 255:
        raise ValueError(f"amplifier must be 0-255: {amplifier}")
    return _command(f"effect give {targets(to)} {effect} infinite {amplifier} true")


def effect_clear(to: str, effect: str) -> McCommand:
    """``effect clear <to> <effect>``.

    Raises:
        ValueError: bad target or effect id.
    """
    if not _RESOURCE_RE.fullmatch(effect):
        raise ValueError(f"not an effect id: {effect!r}")
    return _command(f"effect clear {targets(to)} {effect}")


def inventory_get(name: str) -> McCommand:
    """``data get entity <name> Inventory``: the stacks a player holds (to read a castle book's pages)."""
    return _command(f"data get entity {player_name(name)} Inventory")


def gamemode(mode: str, to: str) -> McCommand:
    """``gamemode <mode> <to>``; ``mode`` is survival, creative, adventure or spectator.

    Raises:
        ValueError: unknown mode or bad target.
    """
    if mode not in GAMEMODES:
        raise ValueError(f"unknown game mode: {mode!r}")
    return _command(f"gamemode {mode} {targets(to)}")


def gamerule(name: str, value: bool | int) -> McCommand:
    """``gamerule <name> <value>`` with 1.21.11 snake_case names (``docs/minecraft.md#commands-and-text``), e.g.
    ``send_command_feedback``.

    Raises:
        ValueError: a name not in snake_case.
    """
    if not _GAMERULE_RE.fullmatch(name):
        raise ValueError(f"game rule names are snake_case since 1.21.11: {name!r}")
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, int):
        text = str(value)
    else:
        raise ValueError(f"game rule value must be a bool or an int: {value!r}")
    return _command(f"gamerule {name} {text}")


# --------------------------------------------------------------------------------------------------------------
# Scoreboard (trigger inputs, docs/minecraft.md#player-input), storage queue, bossbar


def _objective(name: str) -> str:
    if not _OBJECTIVE_RE.fullmatch(name):
        raise ValueError(f"not a scoreboard objective name: {name!r}")
    return name


def objective_add_trigger(name: str, display: Component) -> McCommand:
    """``scoreboard objectives add <name> trigger <display>`` (fails with "already exists" if present)."""
    return _command(f"scoreboard objectives add {_objective(name)} trigger {display.snbt()}")


def enable_trigger(to: str, objective: str) -> McCommand:
    """``scoreboard players enable <to> <objective>``: lets the player(s) run ``/trigger`` once
    (``docs/minecraft.md#player-input``)."""
    return _command(f"scoreboard players enable {targets(to)} {_objective(objective)}")


IO_STORAGE = "traitors:io"
"""The storage the datapack appends input entries to (``queue``)."""


def queue_get() -> McCommand:
    """``data get storage traitors:io queue``: read the input queue (reply ends in the SNBT list)."""
    return _command(f"data get storage {IO_STORAGE} queue")


def queue_ack(seq: int) -> McCommand:
    """``data remove storage traitors:io queue[{seq:N}]``: acknowledge one input entry by its sequence number.

    Raises:
        ValueError: ``seq`` is not an int.
    """
    if not isinstance(seq, int) or isinstance(seq, bool):
        raise ValueError(f"seq must be an int: {seq!r}")
    return _command(f"data remove storage {IO_STORAGE} queue[{{seq:{int(seq)}}}]")


def queue_head() -> McCommand:
    """``data get storage traitors:io queue[0]``: read the oldest input entry alone (reply ends in its compound)."""
    return _command(f"data get storage {IO_STORAGE} queue[0]")


def queue_drop_head() -> McCommand:
    """``data remove storage traitors:io queue[0]``: remove the oldest input entry, whatever it holds."""
    return _command(f"data remove storage {IO_STORAGE} queue[0]")


UI_STORAGE = "traitors:ui"
"""The storage the bridge fills before calling a data pack UI macro (``traitors:ui/prompt``)."""

_PATH_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")
_FUNCTION_RE = re.compile(r"[a-z0-9_.-]+:[a-z0-9_./-]+")


def _storage_path(storage: str, path: str) -> tuple[str, str]:
    if not _RESOURCE_RE.fullmatch(storage):
        raise ValueError(f"not a storage id: {storage!r}")
    if not _PATH_RE.fullmatch(path):
        raise ValueError(f"not a simple NBT path: {path!r}")
    return storage, path


def storage_set(storage: str, path: str, value: SnbtValue) -> McCommand:
    """``data modify storage <storage> <path> set value <snbt>``.

    Raises:
        ValueError: a bad id or path (only ``a.b.c`` keys), or a command over the 1446-byte limit.
    """
    storage, path = _storage_path(storage, path)
    return _command(f"data modify storage {storage} {path} set value {snbt(value)}")


def storage_append(storage: str, path: str, value: SnbtValue) -> McCommand:
    """``data modify storage <storage> <path> append value <snbt>`` (the path must be a list).

    Raises:
        ValueError: as ``storage_set``.
    """
    storage, path = _storage_path(storage, path)
    return _command(f"data modify storage {storage} {path} append value {snbt(value)}")


def function_with_storage(function: str, storage: str, path: str) -> McCommand:
    """``function <id> with storage <storage> <path>``: call a macro function with arguments from storage."""
    if not _FUNCTION_RE.fullmatch(function):
        raise ValueError(f"not a function id: {function!r}")
    storage, path = _storage_path(storage, path)
    return _command(f"function {function} with storage {storage} {path}")


def function_call(function: str, args: Mapping[str, SnbtValue] | None = None) -> McCommand:
    """``function <id>`` or ``function <id> {k:v,…}`` (a macro function with inline arguments)."""
    if not _FUNCTION_RE.fullmatch(function):
        raise ValueError(f"not a function id: {function!r}")
    return _command(f"function {function}" + (f" {snbt(args)}" if args is not None else ""))


def dialog_clear(to: str) -> McCommand:
    """``dialog clear <to>``: close whatever dialog the player(s) have open (1.21.6+,
    ``docs/minecraft.md#commands-and-text``)."""
    return _command(f"dialog clear {targets(to)}")


def _bossbar_id(bar: str) -> str:
    if not _RESOURCE_RE.fullmatch(bar):
        raise ValueError(f"not a bossbar id: {bar!r}")
    return bar


def _count(v: int, what: str, minimum: int = 0) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or v < minimum or v > 2**31 - 1:
        raise ValueError(f"{what} must be an int >= {minimum}: {v!r}")
    return v


def bossbar_add(bar: str, name: Component) -> McCommand:
    """``bossbar add <bar> <name>`` (fails with "already exists" if present)."""
    return _command(f"bossbar add {_bossbar_id(bar)} {name.snbt()}")


def bossbar_remove(bar: str) -> McCommand:
    """``bossbar remove <bar>``."""
    return _command(f"bossbar remove {_bossbar_id(bar)}")


def bossbar_set_name(bar: str, name: Component) -> McCommand:
    """``bossbar set <bar> name <name>``."""
    return _command(f"bossbar set {_bossbar_id(bar)} name {name.snbt()}")


def bossbar_set_max(bar: str, maximum: int) -> McCommand:
    """``bossbar set <bar> max <n>`` (n ≥ 1)."""
    return _command(f"bossbar set {_bossbar_id(bar)} max {_count(maximum, 'bossbar max', 1)}")


def bossbar_set_value(bar: str, value: int) -> McCommand:
    """``bossbar set <bar> value <n>`` (n ≥ 0)."""
    return _command(f"bossbar set {_bossbar_id(bar)} value {_count(value, 'bossbar value')}")


def bossbar_set_players(bar: str, to: str) -> McCommand:
    """``bossbar set <bar> players <to>``."""
    return _command(f"bossbar set {_bossbar_id(bar)} players {targets(to)}")


def bossbar_set_visible(bar: str, visible: bool) -> McCommand:
    """``bossbar set <bar> visible true|false``."""
    return _command(f"bossbar set {_bossbar_id(bar)} visible {'true' if visible else 'false'}")


def bossbar_set_color(bar: str, color: str) -> McCommand:
    """``bossbar set <bar> color <color>`` (blue, green, pink, purple, red, white, yellow)."""
    if color not in BOSSBAR_COLORS:
        raise ValueError(f"not a bossbar colour: {color!r}")
    return _command(f"bossbar set {_bossbar_id(bar)} color {color}")


# --------------------------------------------------------------------------------------------------------------
# Items (rulebook §10; docs/minecraft.md#commands-and-text: item components)


@dataclass(frozen=True, slots=True)
class ItemSpec:
    """How the castle makes one ``engine.ids.Item``.

    Args:
        item_id: the vanilla item, e.g. ``"minecraft:paper"``.
        name: the shown name (neutral: never a role or allegiance); sent as ``translate:"traitors.item.<item>"``
            with this English fallback (lore lines: ``….lore``, ``….lore.1``…; keys in ``bridge.minecraft.ui_text``).
        color: the name's colour.
        lore: tooltip lines (neutral), grey and not italic.
        glint: ``enchantment_glint_override=true``.
        max_stack_size: ``max_stack_size`` (only for non-damageable items), or ``None``.
        name_field: ``"item_name"`` (plain) or ``"custom_name"`` (needed where vanilla shows another name,
            e.g. a written book's title).
        labelled: the item is renamed (``custom_name``) to ``GiveItem.label`` (the cast vote paper).
        label_pages: a written book whose pages are ``GiveItem.label`` (the Traitors' Response book).
        extra: further components as SNBT data, e.g. ``{"unbreakable": {}}``.
    """

    item_id: str
    name: str
    color: str
    lore: tuple[str, ...] = ()
    glint: bool = False
    max_stack_size: int | None = None
    name_field: str = "item_name"
    labelled: bool = False
    label_pages: bool = False
    extra: tuple[tuple[str, SnbtValue], ...] = ()


_BOOK_PAGE = "The castle has written to you.\nRead your private messages in chat."

ITEMS: dict[Item, ItemSpec] = {
    Item.NOTES_BOOK: ItemSpec(
        "minecraft:writable_book", "Notes", "aqua", ("Your own notes. Nobody else can read them.",)
    ),
    Item.VOTE_PAPER: ItemSpec(
        "minecraft:paper", "Vote Paper", "gold", ("Write a name at the round table",), max_stack_size=1
    ),
    Item.DOUBLE_VOTE_PAPER: ItemSpec(
        "minecraft:paper", "Double Vote Paper", "gold", ("Counts twice at the round table",), glint=True,
        max_stack_size=1,
    ),
    Item.CAST_VOTE_PAPER: ItemSpec(
        "minecraft:paper", "Cast Vote Paper", "white", ("A cast vote cannot be changed",), max_stack_size=1,
        labelled=True,
    ),
    Item.BANISH_TORCH: ItemSpec(
        "minecraft:redstone_torch", "Banish Again", "red", (f"Red finale torch: {Torch.BANISH_AGAIN.title}",),
        max_stack_size=1,
    ),
    Item.END_TORCH: ItemSpec(
        "minecraft:copper_torch", "End Game", "green", (f"Green finale torch: {Torch.END_GAME.title}",),
        max_stack_size=1,
    ),
    Item.SACRED_SWORD: ItemSpec(
        "minecraft:iron_sword", "Sacred Sword", "gold", (), glint=True, name_field="custom_name",
        extra=(("unbreakable", {}),),
    ),
    Item.MURDER_SHIELD: ItemSpec(
        "minecraft:shield", "Murder Shield", "aqua", ("Protects its holder from one murder",), glint=True
    ),
    Item.DEADLOCK_SHIELD: ItemSpec(
        "minecraft:shield", "Deadlock Shield", "aqua", ("Safe from this deadlock",), glint=True
    ),
    Item.TRAITORS_CLOAK: ItemSpec(
        "minecraft:leather_chestplate", "Hooded Cloak", "dark_gray", ("Worn in the Turret",),
        extra=(("dyed_color", 0x1D1D21),),
    ),
    Item.LANTERN: ItemSpec("minecraft:lantern", "Lantern", "yellow", ("Carried in the Turret",), max_stack_size=1),
    Item.RESPONSE_BOOK: ItemSpec(
        "minecraft:written_book", "Traitors' Response", "dark_purple", ("One anonymous reply",),
        name_field="custom_name", label_pages=True,
        extra=(("written_book_content", {"title": "Response", "author": "The Traitors", "pages": [_BOOK_PAGE]}),),
    ),
    Item.RESPONSE_DRAFT: ItemSpec(
        "minecraft:writable_book", "Response Draft", "dark_purple", ("Write one anonymous reply, then send it",)
    ),
    Item.CONFESSION_BOOK: ItemSpec(
        "minecraft:writable_book", "Confession Book", "aqua", ("Write your confession, then send it",)
    ),
    Item.FAITHFUL_FANCY: ItemSpec(
        "minecraft:potion", "Faithful Fancy", "gold", ("From the bar",), max_stack_size=1,
        extra=(("potion_contents", {"custom_color": 0xE0B040}),),
    ),
    Item.TRAITORS_TIPPLE: ItemSpec(
        "minecraft:potion", "Traitors' Tipple", "gold", ("From the bar",), max_stack_size=1,
        extra=(("potion_contents", {"custom_color": 0x802030}),),
    ),
    Item.SEER_BOOK: ItemSpec(
        "minecraft:written_book", "Seer Book", "light_purple", (), name_field="custom_name",
        extra=(("written_book_content", {"title": "Seer Book", "author": "The Castle", "pages": [_BOOK_PAGE]}),),
    ),
    Item.DIARY_BOOK: ItemSpec(
        "minecraft:written_book", "Diary Room Letter", "light_purple", (), name_field="custom_name",
        extra=(("written_book_content", {"title": "Diary Room", "author": "The Castle", "pages": [_BOOK_PAGE]}),),
    ),
}  # fmt: skip
"""Every castle item. Names, lore and book pages are neutral: a secret (who is a Traitor, a seer's answer)
travels only in a ``Whisper`` to one player, never on an item others might see. Books: ``writable_book`` for
books a contestant writes in; ``written_book`` (``written_book_content`` with a plain title, author and one
neutral page) for letters from the castle."""


@dataclass(frozen=True, slots=True)
class ItemStack:
    """An item id with its components (already SNBT) and a count: the argument of ``give``."""

    item_id: str
    components: tuple[tuple[str, str], ...]
    count: int = 1

    def argument(self) -> str:
        """``minecraft:paper[item_name=…,…]``."""
        inner = ",".join(f"{k}={v}" for k, v in self.components)
        return f"{self.item_id}[{inner}]" if inner else self.item_id


_GIVE_ID_RE = re.compile(r"[A-Za-z0-9_]{1,16}/[A-Za-z0-9_]{3,16}/[0-9]{1,9}")

GIVE_ONCE_SLOTS: tuple[str, ...] = (
    "container.*",
    "weapon.offhand",
    "armor.*",
    "player.cursor",
    "player.crafting.*",
    "enderchest.*",
)
"""Where ``give_once`` looks for an item already given: a player's inventory and hotbar (``container.*``), off
hand, armour, the stack on the cursor, the 2×2 crafting grid and their ender chest (vanilla slot ranges,
``docs/minecraft.md#commands-and-text``: ``if items``)."""


def custom_data(item: Item, give_id: str | None = None) -> dict[str, SnbtValue]:
    """The marker every castle item carries: ``{traitors:{item:"<Item.value>"}}``.

    Args:
        item: which item.
        give_id: the unique id of one hand-out (``"<series tag>/<player>/<n>"``, see ``give_once``), or ``None``.
    """
    marker: dict[str, SnbtValue] = {"item": item.value}
    if give_id is not None:
        marker["give"] = give_id
    return {"traitors": marker}


def item_stack(
    item: Item,
    *,
    label: str | None = None,
    count: int = 1,
    pages: Sequence[str] | None = None,
    give_id: str | None = None,
) -> ItemStack:
    """The stack for one castle item (from ``ITEMS``).

    Args:
        item: which item.
        label: for a ``labelled`` item (the cast vote paper) the name written on it; ignored otherwise.
        count: how many (1..99).
        pages: for a ``written_book`` item, free text for its pages (each page one text component built by
            ``text_component``, so any text shows literally); ``None`` keeps the neutral default page.

        give_id: the hand-out's unique id, kept in ``custom_data`` so the give can be made idempotent.

    Raises:
        ValueError: a bad count, a labelled item without a label, pages for an item that is no written book,
            or a malformed ``give_id``.
    """
    if give_id is not None and not _GIVE_ID_RE.fullmatch(give_id):
        raise ValueError(f"bad give id {give_id!r} (expected <tag>/<player>/<number>)")
    spec = ITEMS[item]
    _count(count, "item count", 1)
    if count > 99:
        raise ValueError(f"item count must be at most 99: {count}")
    comps: list[tuple[str, str]] = []
    key = f"traitors.item.{item.value}"
    name = translated(key, spec.name, color=spec.color, italic=False)
    comps.append((spec.name_field, name.snbt()))
    if spec.labelled:
        if not label:
            raise ValueError(f"{item.value} needs a label (the name written on it)")
        comps.append(("custom_name", text_component(label, color="white", italic=False).snbt()))
    if spec.lore:
        lines = [translated(key + ".lore" + (f".{i}" if i else ""), line, color="gray", italic=False).snbt()
                 for i, line in enumerate(spec.lore)]  # fmt: skip
        comps.append(("lore", "[" + ",".join(lines) + "]"))
    comps.append(("custom_data", snbt(custom_data(item, give_id))))
    if spec.glint:
        comps.append(("enchantment_glint_override", "true"))
    if spec.max_stack_size is not None:
        comps.append(("max_stack_size", str(spec.max_stack_size)))
    extra = dict(spec.extra)
    if spec.label_pages and label and pages is None:
        pages = book_pages(label)
    if pages is not None:
        content = extra.get("written_book_content")
        if not isinstance(content, Mapping):
            raise ValueError(f"{item.value} is not a written book; it has no pages")
        extra["written_book_content"] = {**content, "pages": [text_component(p).to_nbt() for p in pages]}
    comps.extend((k, snbt(v)) for k, v in extra.items())
    return ItemStack(spec.item_id, tuple(comps), count)


BOOK_PAGE_CHARS = 200
"""Characters per written-book page the bridge fills (a page shows about 14 lines of 19 characters)."""


def book_pages(text: str) -> list[str]:
    """``text`` cut into written-book pages of at most ``BOOK_PAGE_CHARS`` characters (at spaces when possible)."""
    pages: list[str] = []
    rest = text
    while len(rest) > BOOK_PAGE_CHARS:
        cut = rest.rfind(" ", 0, BOOK_PAGE_CHARS)
        cut = cut if cut > 0 else BOOK_PAGE_CHARS
        pages.append(rest[:cut])
        rest = rest[cut:].lstrip(" ")
    return [*pages, rest] if rest or not pages else pages


def _castle_marker(stack: object) -> dict[str, object]:
    """The castle's marker ``components."minecraft:custom_data".traitors`` of one parsed inventory stack
    (``{item: "vote_paper", give: "<id>"}``), or ``{}`` when the stack carries none (or is no compound)."""
    comps = stack.get("components", {}) if isinstance(stack, dict) else {}
    data = comps.get("minecraft:custom_data", {}) if isinstance(comps, dict) else {}
    marker = data.get("traitors", {}) if isinstance(data, dict) else {}
    return marker if isinstance(marker, dict) else {}


def held_give_ids(inventory: object) -> set[str]:
    """The hand-out ids (``give_once``) of the castle items in a parsed ``data get entity <name> Inventory`` reply.

    Args:
        inventory: the parsed list of stack compounds (plain Python, ``bridge.minecraft.snbt.parse``).

    Returns:
        Every ``custom_data`` ``traitors.give`` id found; an empty set for anything that is not a list.
    """
    if not isinstance(inventory, list):
        return set()
    return {str(gid) for stack in inventory if isinstance(gid := _castle_marker(stack).get("give"), str)}


def book_text(inventory: object, item: Item, give_ids: Collection[str] | None = None) -> str | None:
    """The text written in a castle book from a parsed ``data get entity <name> Inventory`` reply.

    Args:
        inventory: the parsed list of stack compounds (plain Python: dicts, lists, strings).
        item: which castle book (matched by ``custom_data`` ``traitors.item``).
        give_ids: only a book with one of these hand-out ids (``custom_data`` ``traitors.give``): the books
            given to this player, so that a book picked up from someone else is not read as theirs;
            ``None``: any such book.

    Returns:
        The pages joined with newlines (a page is a string or ``{raw: …}``; vanilla 1.21 writes ``{raw: …}``),
        ``""`` for an unwritten book, ``None`` when the player holds no such book.
    """
    if not isinstance(inventory, list):
        return None
    for stack in inventory:
        marker = _castle_marker(stack)
        if marker.get("item") != item.value or (give_ids is not None and marker.get("give") not in give_ids):
            continue
        content = stack["components"].get("minecraft:writable_book_content", {})
        pages = content.get("pages", []) if isinstance(content, dict) else []
        texts = [p.get("raw", "") if isinstance(p, dict) else p for p in pages if isinstance(p, (dict, str))]
        return "\n".join(str(t) for t in texts).strip()
    return None


def give(name: str, stack: ItemStack) -> McCommand:
    """``give <name> <item>[components] <count>`` (``docs/minecraft.md#commands-and-text``).

    Raises:
        ValueError: a bad name, or a command over the 1446-byte limit (items don't split).
    """
    return _command(f"give {player_name(name)} {stack.argument()} {_count(stack.count, 'item count', 1)}")


def give_once(name: str, stack: ItemStack, give_id: str) -> McCommand:
    """A give that does nothing if the player already holds this hand-out (crash-safe re-sending).

    ``execute unless items entity <name> <slots> *[custom_data~{traitors:{give:"<id>"}}] … run give …``, one
    ``unless items`` per range of ``GIVE_ONCE_SLOTS`` (``docs/minecraft.md#commands-and-text``: ``if items``,
    partial ``custom_data~``). When the item is found vanilla runs nothing and replies with an empty text.

    Args:
        name: the player.
        stack: the stack, made with the same ``give_id`` (``item_stack(..., give_id=…)``).
        give_id: the hand-out's unique id.

    Raises:
        ValueError: a bad name, a stack without this ``give_id``, or a command over the 1446-byte limit.
    """
    player = player_name(name)
    marker = snbt({"traitors": {"give": give_id}})
    if f"give:{snbt_string(give_id)}" not in stack.argument():
        raise ValueError(f"the stack does not carry give id {give_id!r}")
    tests = " ".join(f"unless items entity {player} {slots} *[custom_data~{marker}]" for slots in GIVE_ONCE_SLOTS)
    return _command(f"execute {tests} run {give(player, stack).text}")


def clear(to: str, item: Item) -> McCommand:
    """``clear <to> *[custom_data~{traitors:{item:"<value>"}}]``: removes exactly the castle's items of a kind.

    ``~`` is the partial custom_data predicate (``docs/minecraft.md#commands-and-text``), so a renamed cast vote paper
    still matches.
    """
    return _command(f"clear {targets(to)} *[custom_data~{snbt(custom_data(item))}]")


def clear_castle_items(to: str) -> McCommand:
    """``clear <to> *[custom_data~{traitors:{}}]``: removes every castle item (any ``Item``) and nothing else.

    Used to re-sync an inventory from the engine's state after a server restart or a contestant's return.
    """
    return _command(f"clear {targets(to)} *[custom_data~{{traitors:{{}}}}]")


def is_already_exists(reply: str) -> bool:
    """True for the reply of an ``objectives add``/``bossbar add`` whose target already exists."""
    return any(reply.startswith(p) for p in ALREADY_EXISTS_REPLIES)
