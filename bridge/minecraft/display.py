"""What a player sees on screen: chat (``tellraw``, split to fit RCON), titles and dialogs
(``docs/minecraft.md#commands-and-text``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from bridge.minecraft.core import MAX_COMMAND_BYTES, McCommand, checked_command, targets, utf8_size
from bridge.minecraft.text import Component


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
    prefix = f"tellraw {targets(to)} "
    whole = prefix + component.snbt()
    if utf8_size(whole) <= MAX_COMMAND_BYTES:
        return [McCommand(whole)]
    split = _Split(prefix)
    for part in component.extra if component.is_bare_list else (component,):
        split.add(part)
    split.flush()
    return split.commands


@dataclass(slots=True)
class _Split:
    """The commands of one split ``tellraw``: full commands so far, and the parts of the one being filled."""

    prefix: str
    commands: list[McCommand] = field(default_factory=list)
    current: list[Component] = field(default_factory=list)

    def fits(self, parts: Sequence[Component]) -> bool:
        return utf8_size(self.prefix + Component(text="", extra=tuple(parts)).snbt()) <= MAX_COMMAND_BYTES

    def flush(self) -> None:
        """End the command being filled (if it has any part)."""
        if self.current:
            self.commands.append(checked_command(self.prefix + Component(text="", extra=tuple(self.current)).snbt()))
            self.current.clear()

    def add(self, part: Component) -> None:
        """Add one part: whole when it fits, else (as plain text) cut into chunks."""
        if self.fits([*self.current, part]):
            self.current.append(part)
            return
        if not part.extra:
            part = part.untranslated()
        if part.text is None or part.extra:  # not plain text: it must fit in a command of its own
            self.flush()
            if not self.fits([part]):
                raise ValueError("a non-text part of a tellraw is over the 1446-byte RCON limit and cannot be split")
            self.current.append(part)
            return
        self.add_text(part, part.text)

    def add_text(self, part: Component, text: str) -> None:
        """Cut ``text`` (styled as ``part``) into chunks, each ending a command but the last."""
        start = 0
        while start < len(text):
            k = self.longest_fitting(part, text, start)
            if k == 0:
                if not self.current:
                    raise ValueError("a tellraw part's style alone is over the 1446-byte RCON limit")
                self.flush()
                continue
            end = start + k
            if end < len(text):  # prefer to cut after whitespace in the second half of the chunk
                window = text[start + k // 2 : end]
                cut = max(window.rfind(" "), window.rfind("\n"))
                if cut >= 0:
                    end = start + k // 2 + cut + 1
            self.current.append(replace(part, text=text[start:end]))
            start = end
            if start < len(text):
                self.flush()

    def longest_fitting(self, part: Component, text: str, start: int) -> int:
        """The largest k such that ``text[start:start+k]`` (styled as ``part``) still fits after ``current``."""
        lo, hi = 0, len(text) - start
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.fits([*self.current, replace(part, text=text[start : start + mid])]):
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
        out.append(checked_command(f"title {t} times {times[0]} {times[1]} {times[2]}"))
    if subtitle is not None:
        out.append(checked_command(f"title {t} subtitle {subtitle.snbt()}"))
    if title is not None:
        out.append(checked_command(f"title {t} title {title.snbt()}"))
    if actionbar is not None:
        out.append(checked_command(f"title {t} actionbar {actionbar.snbt()}"))
    return out


def dialog_clear(to: str) -> McCommand:
    """``dialog clear <to>``: close whatever dialog the player(s) have open (1.21.6+,
    ``docs/minecraft.md#commands-and-text``)."""
    return checked_command(f"dialog clear {targets(to)}")
