"""What a host control is, as data, and the registry of every control the series take (``docs/host.md``).

A host control (pause the clock, replace a contestant…) is one ``HostControlSpec``: its input class, its check
(which returns the function that applies it), whether an undo may take it back, its name in the record and the
record's title, the English texts it tells, and the console button that sends it. Everything else reads the
registry, ``HOST_CONTROLS``: both games' rules take every registered control from any host in any phase
(``engine.rulesets.traitors.rules``, ``engine.rulesets.club.game``), the input log reads its class by kind
(``engine.actions.ACTION_TYPES``), the catalogue and the terms carry its texts, and the bridge builds the console
buttons (the in-game dialog, the web grimoire's buttons) and the record's host actions from it.

The built-in controls are registered by ``engine.core.host``; ``register_host_control`` adds another (a test's,
say) and ``unregister_host_control`` takes it out again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.actions import ACTION_TYPES, Action
from engine.messages import CATALOG
from engine.messages_terms import TERMS

__all__ = [
    "HOST_CONTROLS",
    "ConsoleButton",
    "HostControlSpec",
    "console_buttons",
    "register_host_control",
    "undoable",
    "unregister_host_control",
]


@dataclass(frozen=True, slots=True)
class ConsoleButton:
    """A host control's button on the host's console (the in-game dialog and the web grimoire).

    Args:
        number: the value the button sends (``/trigger traitors.host set <number>``): pinned for ever, since a
            data pack installed on a live server carries it (``tests/bridge/minecraft/test_trigger_values.py``).
        name: the button's stable name in lower case: its translation key ``traitors.console.<name>`` and the web
            page's control name (``"pause_clock"``, ``"undo"``).
        label: the English label (the fallback of the translation key).
        press: the host's name → the input the press sends; ``None`` when the console first asks for more (the
            seat of a replacement, ``bridge.loop.console``).
    """

    number: int
    name: str
    label: str
    press: Callable[[str], Action] | None


@dataclass(frozen=True, slots=True)
class HostControlSpec:
    """One host control, everything about it in one place.

    Args:
        cls: its input class (a host's input: ``actor`` is the host); its ``kind`` names it in the input log and in
            the record's ``host_actions``.
        check: ``(game, action) -> apply``: raises ``IllegalAction`` / ``InvalidCommand`` when the control is
            illegal now (changing nothing), else returns the function that applies it. The game is a
            ``engine.core.host.HostControls`` (either game); the application keeps the control in the record
            (``HostControls.log_host_action``) and tells everyone what happened.
        title: the English line of the exported record's "Host actions" (``"Paused the clock"``).
        term: the English term of its kind inside a sentence (``term.host_action.<kind>``, ``"pause clock"``: the
            undo's announcement names what it took back).
        undoable: whether ``UndoHostAction`` may take it back (house rule 4 of ``engine.core.host``).
        messages: message key → English text of what it tells (the catalogue's entries, ``engine.messages``).
        button: its console button; ``None``: no button.
    """

    cls: type[Action]
    check: Callable[[Any, Any], Callable[[], None]]
    title: str
    term: str
    undoable: bool = False
    messages: Mapping[str, str] = field(default_factory=dict)
    button: ConsoleButton | None = None


HOST_CONTROLS: dict[type[Action], HostControlSpec] = {}
"""Every registered host control by its input class, in the order registered."""


def _term_key(spec: HostControlSpec) -> str:
    return f"term.host_action.{spec.cls.kind}"


def register_host_control(spec: HostControlSpec) -> None:
    """Add a host control: its input kind, its texts and its term become known; both games take it.

    Raises:
        ValueError: its class, kind or button number is taken, or one of its message keys has another text.
    """
    kind = spec.cls.kind
    if spec.cls in HOST_CONTROLS or ACTION_TYPES.get(kind, spec.cls) is not spec.cls:
        raise ValueError(f"host control {kind!r} is already registered")
    if spec.button is not None and any(b.number == spec.button.number for b in console_buttons()):
        raise ValueError(f"console button {spec.button.number} is taken")
    clash = [k for k, text in spec.messages.items() if CATALOG.get(k, text) != text]
    if clash:
        raise ValueError(f"message keys taken: {', '.join(clash)}")
    HOST_CONTROLS[spec.cls] = spec
    ACTION_TYPES[kind] = spec.cls
    CATALOG.update(spec.messages)
    TERMS[_term_key(spec)] = CATALOG[_term_key(spec)] = spec.term


def unregister_host_control(spec: HostControlSpec) -> None:
    """Take out a host control ``register_host_control`` added, with its kind, texts and term."""
    if HOST_CONTROLS.get(spec.cls) is not spec:
        return
    del HOST_CONTROLS[spec.cls]
    ACTION_TYPES.pop(spec.cls.kind, None)
    for key in (*spec.messages, _term_key(spec)):
        CATALOG.pop(key, None)
    TERMS.pop(_term_key(spec), None)


def undoable() -> frozenset[str]:
    """The input kinds ``UndoHostAction`` may take back: a host's move on (``advance``) and every control marked
    ``undoable``."""
    return frozenset({"advance", *(s.cls.kind for s in HOST_CONTROLS.values() if s.undoable)})


def console_buttons() -> tuple[ConsoleButton, ...]:
    """The registered controls' console buttons, by number."""
    return tuple(sorted((s.button for s in HOST_CONTROLS.values() if s.button is not None), key=lambda b: b.number))
