"""Text components: the ONE builder for every text a player reads (chat, titles, bossbars, dialogs, item names).

Components are SNBT (1.21.5+ format, ``docs/minecraft.md#commands-and-text``). Click and hover events use the
1.21.5+ keys ``click_event``/``hover_event`` with ``run_command`` → ``command`` and ``show_text`` → ``value``; the
old ``clickEvent``/``hoverEvent`` keys are never produced. Free text goes through ``text_component``,
``translated`` or ``message_component``, and from there through ``bridge.minecraft.snbt.snbt`` only.

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

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from bridge.minecraft.plurals import count_class
from bridge.minecraft.snbt import SnbtValue, snbt
from engine.effects import Message
from engine.messages import LIST_SEPARATOR, counted, placeholders
from engine.messages_terms import PLURALS, english_plural

_TRANSLATE_KEY_RE = re.compile(r"[A-Za-z0-9_.-]+")
_HEX_COLOR_RE = re.compile(r"#[0-9A-Fa-f]{6}")
_COUNT_RE = re.compile(r"\d{1,9}")

NAMED_COLORS: frozenset[str] = frozenset(
    {
        "black",
        "dark_blue",
        "dark_green",
        "dark_aqua",
        "dark_red",
        "dark_purple",
        "gold",
        "gray",
        "dark_gray",
        "blue",
        "green",
        "aqua",
        "red",
        "light_purple",
        "yellow",
        "white",
    }
)
"""Text colours a component may name (or ``#RRGGBB``)."""


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

    @property
    def is_unstyled(self) -> bool:
        """True when the component sets no colour, weight, slant, click or hover of its own."""
        return (
            self.color is None
            and self.bold is None
            and self.italic is None
            and self.click is None
            and self.hover is None
        )

    @property
    def is_bare_list(self) -> bool:
        """True for a ``joined`` list: an empty, unstyled text whose parts are all in ``extra``."""
        return self.text == "" and self.translate is None and self.is_unstyled

    def untranslated(self) -> Component:
        """This translate component as a literal text of its English fallback (same style); others unchanged."""
        if self.translate is None:
            return self
        return replace(self, text=_unformat(self.fallback or ""), translate=None, fallback=None, args=())


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
    if phrase in PLURALS and _COUNT_RE.fullmatch(text):
        key = f"traitors.plural.{phrase}.{count_class(int(text))}"
        return translated(key, english_plural(phrase, text), args=[text])
    return text_component(text)


def joined(*parts: Component | str) -> Component:
    """Several components side by side with no shared style (``{text:"",extra:[…]}``); strings are wrapped."""
    return Component(text="", extra=tuple(text_component(p) if isinstance(p, str) else p for p in parts))


def _unformat(fallback: str) -> str:
    return fallback.replace("%%", "%")
