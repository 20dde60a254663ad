"""Sending effects: render each effect to commands and send them in order over the one RCON connection.

House rules of this file (``bridge/loop/service.py`` house rules 4 and 6):

1. Effects are rendered (``bridge.minecraft.render``) in order; every give carries a hand-out id and is
   idempotent (``bridge/loop/recovery.py``), so sending it twice gives one item. When a new phase clock starts,
   the previous phase's unanswered prompt dialogs are closed first (their chat fallback stays).
2. Commands go one by one. A command the server answers with an error text is logged (never with secrets), kept
   in ``failed_commands``, and the next command is sent; "already exists" replies are not errors.
3. With a store, a lost connection makes the sender ``offline``: the remaining commands stay in the store's
   outbox (sent by ``bridge/loop/resync.py`` once the server is back); without one, ``RconUnavailable`` is
   raised to the caller.
4. With a store, a stop (``halted``) likewise keeps the remaining commands in the outbox: the command in
   flight is answered, nothing more is sent, and the observer sees no more effects.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence

from bridge.errors import RconCommandFailed, RconUnavailable
from bridge.io.rcon import RconClient, check_reply
from bridge.loop.recovery import Handouts
from bridge.minecraft import commands as mc
from bridge.minecraft.render import RenderContext, render, render_give_once
from engine.effects import ClockStarted, Effect, GiveItem, Prompt

__all__ = ["Sender"]

log = logging.getLogger(__name__)


class Sender:
    """Renders effects and sends commands (house rules 1-3).

    Args:
        rcon: the RCON client.
        ctx: castle coordinates and seating.
        handouts: the series' hand-out numbering (fed with every effect rendered).
        observer: called with every effect before its commands are sent, or ``None``.
        outbox: whether a store keeps unsent commands (house rule 3).
    """

    def __init__(self, rcon: RconClient, ctx: RenderContext, handouts: Handouts,
                 observer: Callable[[Effect], None] | None, *, outbox: bool) -> None:  # fmt: skip
        self.rcon = rcon
        self.ctx = ctx
        self.handouts = handouts
        self.observer = observer
        self.outbox = outbox
        self.offline = False
        """True after the connection was lost while sending: the outbox is sent and the world re-synced first."""
        self.halted = False
        """True once the service is stopping (house rule 4; only with an outbox)."""
        self.failed_commands: list[tuple[str, str]] = []
        """Commands the server answered with an error text: (command, reply)."""
        self._dialogs_open: set[str] = set()
        """Players shown a prompt dialog since the last phase clock (closed when the next phase starts)."""

    def render(self, effects: Sequence[Effect]) -> list[list[mc.McCommand]]:
        """Each effect's commands, in order (house rule 1); numbers the gives among ``effects``."""
        ids = self.handouts.feed(effects)
        return [self._render_one(effect, gids) for effect, gids in zip(effects, ids, strict=True)]

    def _render_one(self, effect: Effect, give_ids: dict[str, str] | None) -> list[mc.McCommand]:
        out: list[mc.McCommand] = []
        if isinstance(effect, ClockStarted) and self._dialogs_open:
            names, self._dialogs_open = sorted(self._dialogs_open), set()
            out += [mc.dialog_clear(n) for n in names]
        elif isinstance(effect, Prompt):
            self._dialogs_open |= effect.to
        if isinstance(effect, GiveItem) and give_ids is not None:
            return out + render_give_once(effect, give_ids)
        return out + render(effect, self.ctx)

    async def send(
        self,
        effects: Sequence[Effect],
        rendered: Sequence[Sequence[mc.McCommand]],
        *,
        sent: Callable[[int], None] | None = None,
        after: Callable[[Effect], None] | None = None,
    ) -> None:
        """Send rendered effects in order: the observer sees each effect, then its commands go.

        Args:
            effects: the effects.
            rendered: their commands (``render``).
            sent: called with the command's index (counting over all of ``rendered``) once the server answered it
                (the store marks it sent), or ``None``.
            after: called with each effect once its commands are sent (or kept in the outbox).

        Raises:
            RconUnavailable: the server is unreachable and there is no outbox (house rule 3).
        """
        i = 0
        for effect, commands in zip(effects, rendered, strict=True):
            if self.observer is not None and not self._held():
                self.observer(effect)
            for cmd in commands:
                if await self._deliver(cmd.text) and sent is not None:
                    sent(i)
                i += 1
            if after is not None:
                after(effect)

    async def _deliver(self, text: str) -> bool:
        """Send one command unless offline or halted; True when the server answered it."""
        if self.offline or self._held():
            return False
        try:
            await self.send_checked(text)
        except RconUnavailable:
            if not self.outbox:
                raise
            self.offline = True
            log.warning("server unreachable; %s kept in the outbox", text.split(" ", 1)[0])
            return False
        return True

    def _held(self) -> bool:
        return self.halted and self.outbox

    async def send_commands(self, commands: Iterable[mc.McCommand]) -> None:
        """Send commands one by one, whatever the ``offline`` flag (house rule 2).

        Raises:
            RconUnavailable: the server cannot be reached.
        """
        for cmd in commands:
            await self.send_checked(cmd.text)

    async def send_checked(self, text: str) -> None:
        """Send one command; an error reply is logged and kept in ``failed_commands`` (house rule 2).

        Raises:
            RconUnavailable: the server cannot be reached.
        """
        reply = await self.rcon.command(text)
        try:
            check_reply(text, reply)
        except RconCommandFailed as exc:
            if mc.is_already_exists(reply):
                return
            self.failed_commands.append((text, exc.reply))
            log.warning("server refused a command: %s", exc.reply[:200])
