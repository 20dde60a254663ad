"""Command syntax checking with mecha's offline 1.21 command tree (mecha 0.101.0 = 1.21.11;
``docs/minecraft.md#command-syntax-checking``).

mecha checks syntax only (not item ids or component values); component keys are checked by our own tests.
One parser per thread: ``Mecha`` objects are not shared across threads. Their trees are frozen, so those are
shared: a command parsed once in a process is not parsed again (``parse_tree``), which saves the sandbox most of its
work on the commands a service sends over and over (its polls) and a test re-checking what the sandbox ran.
"""

from __future__ import annotations

import functools
import threading

from mecha import AstCommand, DiagnosticError, Mecha
from mecha.parse import NbtParser

from bridge.minecraft.nbt_scan import ScannedNbtParser

_local = threading.local()


def thread_mecha() -> Mecha:
    """This thread's mecha (the 1.21 tree), built the first time the thread asks (its set-up takes tens of
    milliseconds), reading SNBT with ``nbt_scan.ScannedNbtParser`` (the same trees, several times faster)."""
    mc = getattr(_local, "mecha", None)
    if mc is None:
        mc = Mecha(version="1.21")
        grammar = mc.spec.parsers["nbt"]
        if type(grammar) is NbtParser:
            mc.spec.parsers["nbt"] = ScannedNbtParser(grammar, mc.spec.parsers)
        _local.mecha = mc
    return mc


PARSED_CACHE = 4096
"""How many parsed commands ``parse_tree`` keeps (the most recently used)."""


@functools.lru_cache(maxsize=PARSED_CACHE)
def parse_tree(text: str) -> AstCommand:
    """mecha's tree of one command line, exactly as given (no leading slash removed); a line parsed before is
    not parsed again.

    Raises:
        DiagnosticError: mecha rejected it (a failure is not remembered: asking again parses again).
    """
    return thread_mecha().parse(text, multiline=False).commands[0]


class CommandSyntaxError(ValueError):
    """A command does not parse with mecha's 1.21 tree. ``detail`` is mecha's first diagnostic."""

    def __init__(self, command: str, detail: str) -> None:
        self.command = command
        self.detail = detail
        super().__init__(f"{detail}: {command!r}")


def check_command(command: str) -> None:
    """Parse one command (no leading slash needed; one is accepted) with mecha.

    Args:
        command: one complete command line.

    Raises:
        CommandSyntaxError: mecha rejected it; ``detail`` says why.
    """
    parse_command(command)


def parse_command(command: str) -> AstCommand:
    """Parse one command as ``check_command`` does and return mecha's tree of it (what the sandbox runs).

    Raises:
        CommandSyntaxError: mecha rejected it; ``detail`` says why.
    """
    text = command[1:] if command.startswith("/") else command
    try:
        return parse_tree(text)
    except DiagnosticError as exc:
        first = exc.diagnostics.exceptions[0] if exc.diagnostics.exceptions else exc
        raise CommandSyntaxError(command, str(first).strip() or "invalid command") from None


def is_valid_command(command: str) -> bool:
    """True when ``check_command`` would not raise."""
    try:
        check_command(command)
    except CommandSyntaxError:
        return False
    return True
