"""Texts the bridge and the data pack show besides engine messages: dialog titles, choice labels, console
buttons, trigger names, item names and lore (rulebook words; STYLE "languages").

Every text goes to the client as ``translate:"traitors.<…>"`` with this English text as ``fallback``; the
resource pack (``datapack/resourcepack/assets/traitors/lang/*.json``) carries English, Russian and Ukrainian.
Placeholders are ``{name}`` as in ``engine.messages.CATALOG``; ``ui`` passes them as ``with`` arguments in the
order they first appear in the English text (``bridge.minecraft.lang`` writes them as ``%1$s``… in the language files).
"""

from __future__ import annotations

import re

from bridge.minecraft.inputs import HostControl
from bridge.minecraft.text import Component, text_component, translated
from bridge.minecraft.triggers import TRIGGER_TITLES

__all__ = ["UI_TEXT", "placeholders", "ui"]

_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")

UI_TEXT: dict[str, str] = {
    "traitors.pack.description": "Castle: The Traitors (input triggers, dialogs, Sacred Sword)",
    "traitors.pack.resources": "Castle: The Traitors (English, Russian, Ukrainian)",
    # dialog titles, by the trigger of a prompt's first choice
    "traitors.dialog.title.vote": "Round table",
    "traitors.dialog.title.oath": "The Traitors' Oath",
    "traitors.dialog.title.turret": "The Traitors' Turret",
    "traitors.dialog.title.offer": "The offer",
    "traitors.dialog.title.torch": "The finale",
    "traitors.dialog.title.castle": "The castle",
    "traitors.dialog.title.confession": "The confession room",
    "traitors.dialog.title.nomination": "The nomination",
    "traitors.dialog.title.guess": "The Guess",
    "traitors.dialog.title.seer": "The Seer",
    "traitors.dialog.title.twist": "Twists",
    # choice labels rendered from the action
    "traitors.choice.murder": "Murder {target}",
    "traitors.choice.seduce": "Seduce {target}",
    "traitors.choice.ultimatum": "Give {target} an ultimatum",
    "traitors.choice.hover": "Choose {choice}",
    "traitors.torch.banish_again": "Banish Again",
    "traitors.torch.end_game": "End Game",
    # the host's console (its dialog: bridge.minecraft.console_dialog)
    "traitors.console.title": "Host console",
    "traitors.console.body": "Only the configured hosts can use these buttons. Reopen this console with "
    "/trigger traitors.console.",
    **{c.key: c.title for c in HostControl},
    # trigger objective names (the trigger table, bridge.minecraft.triggers)
    **{"traitors.trigger." + obj.split(".", 1)[1]: t for obj, t in TRIGGER_TITLES.items()},
    # items (bridge.minecraft.items.ITEMS): names and lore
    "traitors.item.notes_book": "Notes",
    "traitors.item.notes_book.lore": "Your own notes. Nobody else can read them.",
    "traitors.item.vote_paper": "Vote Paper",
    "traitors.item.vote_paper.lore": "Write a name at the round table",
    "traitors.item.double_vote_paper": "Double Vote Paper",
    "traitors.item.double_vote_paper.lore": "Counts twice at the round table",
    "traitors.item.cast_vote_paper": "Cast Vote Paper",
    "traitors.item.cast_vote_paper.lore": "A cast vote cannot be changed",
    "traitors.item.banish_torch": "Finale Torch",
    "traitors.item.banish_torch.lore": "Turns red (banish again) or green (end game) when placed",
    "traitors.item.end_torch": "Finale Torch",
    "traitors.item.end_torch.lore": "Turns red (banish again) or green (end game) when placed",
    "traitors.item.sacred_sword": "Sacred Sword",
    "traitors.item.murder_shield": "Murder Shield",
    "traitors.item.murder_shield.lore": "Protects its holder from one murder",
    "traitors.item.deadlock_shield": "Deadlock Shield",
    "traitors.item.deadlock_shield.lore": "Safe from this deadlock",
    "traitors.item.traitors_cloak": "Hooded Cloak",
    "traitors.item.traitors_cloak.lore": "Worn at night",
    "traitors.item.lantern": "Lantern",
    "traitors.item.lantern.lore": "Carried at night",
    "traitors.item.response_book": "Traitors' Response",
    "traitors.item.response_book.lore": "One anonymous reply",
    "traitors.item.response_draft": "Response Draft",
    "traitors.item.response_draft.lore": "Write one anonymous reply, then send it",
    "traitors.item.confession_book": "Confession Book",
    "traitors.item.confession_book.lore": "Write your confession, then send it",
    "traitors.item.faithful_fancy": "Faithful Fancy",
    "traitors.item.faithful_fancy.lore": "From the bar",
    "traitors.item.traitors_tipple": "Traitors' Tipple",
    "traitors.item.traitors_tipple.lore": "From the bar",
    "traitors.item.seer_book": "Seer Book",
    "traitors.item.diary_book": "Diary Room Letter",
    "traitors.item.player_head": "Player Head",
}
"""Translation key → English text (the ``fallback``)."""


def placeholders(template: str) -> tuple[str, ...]:
    """The ``{name}`` placeholders of a text, in order of first appearance."""
    seen: list[str] = []
    for name in _PLACEHOLDER.findall(template):
        if name not in seen:
            seen.append(name)
    return tuple(seen)


def ui(
    key: str,
    *,
    color: str | None = None,
    bold: bool | None = None,
    italic: bool | None = None,
    **params: str | Component,
) -> Component:
    """A translate component for a ``UI_TEXT`` key, its English text (filled) as the fallback.

    A parameter is plain text or a component (a translated choice label inside the hover text: each client
    shows it in its own language; the fallback uses its English).

    Raises:
        KeyError: an unknown key or a missing placeholder value.
    """
    template = UI_TEXT[key]
    names = placeholders(template)
    filled = template.format(**{k: v.plain_text() if isinstance(v, Component) else v for k, v in params.items()})
    if "\u00a7" in filled:  # a fallback cannot neutralise '§' (bridge.minecraft.text); send the plain text
        return text_component(filled, color=color, bold=bold, italic=italic)
    return translated(key, filled, args=[params[n] for n in names], color=color, bold=bold, italic=italic)
