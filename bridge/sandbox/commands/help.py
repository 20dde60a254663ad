"""``help`` and ``help <command>``: the command list as vanilla's ``HelpCommand`` gives it.

Usage texts follow Brigadier's ``CommandDispatcher.getSmartUsage`` over vanilla's command tree (the data
generator's ``commands.json`` report, as mecha ships it for 1.21): a literal is its name, an argument
``<name>``; one child follows after a space; several children become ``(a|b)``, or ``[a|b]`` when the node
itself runs a command; a redirect is ``-> target`` (``...`` back to the root, which the report leaves out: a
literal with no children that runs nothing). The RCON console has permission level 4, so every command is
listed; ``publish`` exists only in the single-player game and is left out. Each line goes back as
``/usage``, and over RCON the lines run together with no separator, as every multi-line reply does.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from bridge.sandbox.commands.args import src
from bridge.sandbox.state import CommandFailure, WorldState

__all__ = ["help_", "smart_usage"]

INTEGRATED_ONLY = frozenset({"publish"})
"""Commands the report lists that a dedicated server does not register."""

Node = dict[str, Any]


@cache
def command_tree() -> Node:
    """Vanilla's command tree (mecha's copy of the 1.21 ``commands.json`` report), without single-player
    commands."""
    text = resources.files("mecha.resources").joinpath("1_21.json").read_text(encoding="utf-8")
    root: Node = json.loads(text)
    root["children"] = {k: v for k, v in root["children"].items() if k not in INTEGRATED_ONLY}
    return root


def _usage_text(name: str, node: Node) -> str:
    return name if node.get("type") == "literal" else f"<{name}>"


def _redirect(node: Node) -> str | None:
    """Where a node redirects in ``-> x`` / ``...`` form, or None."""
    target = node.get("redirect")
    if target:
        return "-> " + str(target[-1])
    if node.get("type") == "literal" and not node.get("children") and not node.get("executable"):
        return "..."  # the report writes no path for a redirect to the root (``execute run``)
    return None


def _smart(name: str, node: Node, optional: bool, deep: bool) -> str:
    """Brigadier's ``getSmartUsage(node, source, optional, deep)``."""
    own = _usage_text(name, node)
    usage = f"[{own}]" if optional else own
    if deep:
        return usage
    redirect = _redirect(node)
    if redirect is not None:
        return f"{usage} {redirect}"
    runs = bool(node.get("executable"))
    children: dict[str, Node] = node.get("children", {})
    if len(children) == 1:
        ((child_name, child),) = children.items()
        return f"{usage} {_smart(child_name, child, runs, runs)}"
    if len(children) > 1:
        shown = {_smart(n, c, runs, True) for n, c in children.items()}
        if len(shown) == 1:
            (only,) = shown
            return f"{usage} {f'[{only}]' if runs else only}"
        inner = "|".join(_usage_text(n, c) for n, c in children.items())
        return f"{usage} {'[' if runs else '('}{inner}{']' if runs else ')'}"
    return usage


def smart_usage(node: Node) -> list[str]:
    """The usage of each child of ``node``, in the tree's order (literals first, then by name)."""
    runs = bool(node.get("executable"))
    return [_smart(name, child, runs, False) for name, child in node.get("children", {}).items()]


def help_(world: WorldState, _parts: list[str], args: list[Any], text: str) -> str:
    """``help [<command>]``; the result is the number of lines.

    Raises:
        CommandFailure: ``<command>`` names no command ("Unknown command or insufficient permissions").
    """
    node, path = command_tree(), list[str]()
    if args:
        for word in src(args[0], text).split():
            child = node.get("children", {}).get(word)
            if child is None or child.get("type") != "literal":
                break
            node, path = child, [*path, word]
        if not path:
            raise CommandFailure("Unknown command or insufficient permissions")
    prefix = "/" + " ".join(path) + (" " if path else "")
    lines = [prefix + usage for usage in smart_usage(node)]
    world.result = len(lines)
    return "".join(lines)
