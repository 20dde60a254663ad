"""The host's console as a data pack dialog (``data/traitors/dialog/host/console.json``), made from the console's
buttons (``bridge.minecraft.inputs.HostControl``) when the pack is written (``bridge.minecraft.datapack``).

A ``multi_action`` dialog in two columns: one button per console button, in the console's order, each labelled by
its translation key (``traitors.console.<name>``, its English label as the fallback) and running
``/trigger traitors.host set <number>``. Opened by ``traitors:ui/console`` (``/trigger traitors.console``).
"""

from __future__ import annotations

import json
from typing import Any

from bridge.minecraft.inputs import HostControl
from bridge.minecraft.triggers import HOST
from bridge.minecraft.ui_text import UI_TEXT

__all__ = ["CONSOLE_DIALOG_FILE", "console_dialog", "console_dialog_text"]

CONSOLE_DIALOG_FILE = "data/traitors/dialog/host/console.json"
"""Where the dialog goes, relative to the pack's root (the dialog ``traitors:host/console``)."""


def _text(key: str, english: str) -> dict[str, str]:
    return {"translate": key, "fallback": english}


def console_dialog() -> dict[str, Any]:
    """The dialog as JSON data: every console button (``HostControl``, the host controls registered now included)."""
    return {
        "type": "minecraft:multi_action",
        "title": _text("traitors.console.title", UI_TEXT["traitors.console.title"]),
        "body": {
            "type": "minecraft:plain_message",
            "contents": _text("traitors.console.body", UI_TEXT["traitors.console.body"]),
        },
        "can_close_with_escape": True,
        "pause": False,
        "columns": 2,
        "actions": [
            {
                "label": _text(c.key, c.title),
                "action": {"type": "minecraft:run_command", "command": f"/trigger {HOST} set {c.value}"},
            }
            for c in HostControl
        ],
    }


def console_dialog_text() -> str:
    """The dialog's file: ``console_dialog`` as indented JSON with a final newline."""
    return json.dumps(console_dialog(), indent=2, ensure_ascii=False) + "\n"
