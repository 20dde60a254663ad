"""Sending effects: render each effect to commands and send them in order over the one RCON connection.

House rules of this file (``bridge/loop/service.py`` house rules 4 and 6):

1. Effects are rendered (``bridge.minecraft.render``) in order; every give carries a hand-out id and is
   idempotent (``bridge/loop/recovery.py``), so sending it twice gives one item. When a new phase clock starts,
   the previous phase's unanswered prompt dialogs are closed first (their chat fallback stays).
2. What one step sends is one unit: its commands are packed, in order, into as few data pack calls as fit
   (``bridge.minecraft.batch``: a prompt is one ``traitors:ui/ask`` call per recipient, a give one
   ``traitors:item/give`` call for all its recipients, consecutive commands one ``traitors:run`` call). A batch is
   one command to the store's outbox, marked sent as one. Each effect is shown to the observer before the batch
   that carries its commands goes, and ``after`` it once that batch went.
3. Commands go one by one. A command the server answers with an error text is logged (never with secrets), kept
   in ``failed_commands``, and the next command is sent; "already exists" replies are not errors. (A command
   inside a batch that fails is not reported: vanilla goes on with a function's next line, and answers for the
   call.)
4. With a store, a lost connection makes the sender ``offline``: the remaining commands stay in the store's
   outbox (sent by ``bridge/loop/resync.py`` once the server is back); without one, ``RconUnavailable`` is
   raised to the caller.
5. With a store, a stop (``halted``) likewise keeps the remaining commands in the outbox: the command in
   flight is answered, nothing more is sent, and the observer sees no more effects.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence

from bridge.errors import RconCommandFailed, RconUnavailable
from bridge.io.rcon import RconClient, check_reply
from bridge.loop.recovery import Handouts
from bridge.minecraft.batch import pack
from bridge.minecraft.core import McCommand
from bridge.minecraft.display import dialog_clear
from bridge.minecraft.items import WORN
from bridge.minecraft.render import RenderContext, render, render_give_each, render_give_once, render_prompt_asks
from bridge.minecraft.scoreboard import is_already_exists
from engine.effects import Announce, ClockStarted, Effect, GiveItem, Prompt, Whisper

__all__ = ["Sender"]

log = logging.getLogger(__name__)


class Sender:
    """Renders effects and sends commands (house rules 1-5).

    Args:
        rcon: the RCON client.
        ctx: castle coordinates and seating.
        handouts: the series' hand-out numbering (fed with every effect rendered).
        observer: called with every effect before its commands are sent, or ``None``.
        outbox: whether a store keeps unsent commands (house rule 4).
    """

    def __init__(
        self,
        rcon: RconClient,
        ctx: RenderContext,
        handouts: Handouts,
        observer: Callable[[Effect], None] | None,
        *,
        outbox: bool,
    ) -> None:
        self.rcon = rcon
        self.ctx = ctx
        self.handouts = handouts
        self.observer = observer
        self.outbox = outbox
        self.offline = False
        """True after the connection was lost while sending: the outbox is sent and the world re-synced first."""
        self.halted = False
        """True once the service is stopping (house rule 5; only with an outbox)."""
        self.failed_commands: list[tuple[str, str]] = []
        """Commands the server answered with an error text: (command, reply)."""
        self._dialogs_open: set[str] = set()
        """Players shown a prompt dialog since the last phase clock (closed when the next phase starts)."""

    def render(self, effects: Sequence[Effect]) -> list[list[McCommand]]:
        """Each effect's commands, in order, packed (house rules 1-2): a batch is listed under the last effect
        whose commands it carries, the effects before it then list none. Numbers the gives among ``effects``."""
        ids = self.handouts.feed(effects)
        gives, gathered = _gathered_gives(effects, ids)
        rendered = [
            render_give_each(*gives[i]) if i in gives else [] if i in gathered else self._render_one(e, gids)
            for i, (e, gids) in enumerate(zip(effects, ids, strict=True))
        ]
        owner = [i for i, commands in enumerate(rendered) for _ in commands]
        out: list[list[McCommand]] = [[] for _ in effects]
        done = 0
        for batch, n in pack([c for commands in rendered for c in commands]):
            done += n
            out[owner[done - 1]].append(batch)
        return out

    def _render_one(self, effect: Effect, give_ids: dict[str, str] | None) -> list[McCommand]:
        out: list[McCommand] = []
        if isinstance(effect, ClockStarted) and self._dialogs_open:
            names, self._dialogs_open = sorted(self._dialogs_open), set()
            out += [dialog_clear(n) for n in names]
        elif isinstance(effect, Prompt):
            self._dialogs_open |= effect.to
        if isinstance(effect, GiveItem) and give_ids is not None:
            return out + render_give_once(effect, give_ids)
        if isinstance(effect, Prompt):
            return out + render_prompt_asks(effect, self.ctx)
        return out + render(effect, self.ctx)

    async def send(
        self,
        effects: Sequence[Effect],
        rendered: Sequence[Sequence[McCommand]],
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
            RconUnavailable: the server is unreachable and there is no outbox (house rule 4).
        """
        i = 0
        waiting: list[Effect] = []  # observed, their commands in a batch not sent yet (house rule 2)
        last = len(effects) - 1
        for k, (effect, commands) in enumerate(zip(effects, rendered, strict=True)):
            if self.observer is not None and not self._held():
                self.observer(effect)
            waiting.append(effect)
            for cmd in commands:
                if await self._deliver(cmd.text) and sent is not None:
                    sent(i)
                i += 1
            if commands or k == last:
                for done in waiting:
                    if after is not None:
                        after(done)
                waiting.clear()

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

    async def send_commands(self, commands: Iterable[McCommand]) -> None:
        """Send commands one by one, whatever the ``offline`` flag (house rule 3).

        Raises:
            RconUnavailable: the server cannot be reached.
        """
        for cmd in commands:
            await self.send_checked(cmd.text)

    async def send_checked(self, text: str) -> None:
        """Send one command; an error reply is logged and kept in ``failed_commands`` (house rule 3).

        Raises:
            RconUnavailable: the server cannot be reached.
        """
        reply = await self.rcon.command(text)
        try:
            check_reply(text, reply)
        except RconCommandFailed as exc:
            if is_already_exists(reply):
                return
            self.failed_commands.append((text, exc.reply))
            log.warning("server refused a command: %s", exc.reply[:200])


_TEXT_ONLY = (Prompt, Whisper, Announce)
"""Effects that only show text: a give may be sent before them, together with a later give of the same kind."""


Gathered = dict[int, tuple[GiveItem, dict[str, str]]]
"""Effect index → a give of one kind to everyone it gathers, with every recipient's hand-out id."""


def _gathered_gives(effects: Sequence[Effect], ids: Sequence[dict[str, str] | None]) -> tuple[Gathered, set[int]]:
    """The step's gives of one kind (item and label) that only text-only effects separate (a vote paper to each
    voter, each with their prompt), gathered at the first of them (house rule 2); and the indices of the gives
    gathered into an earlier one. A give of a worn item, or without ids, is left alone.
    """
    out: Gathered = {}
    later: set[int] = set()
    first: dict[tuple[object, object], int] = {}
    for i, (effect, gids) in enumerate(zip(effects, ids, strict=True)):
        if isinstance(effect, GiveItem) and gids is not None and effect.item not in WORN:
            j = first.setdefault((effect.item, effect.label), i)
            give, held = out.get(j, (effect, {}))
            out[j] = (GiveItem(give.to | effect.to, effect.item, effect.label), held | gids)
            if j != i:
                later.add(i)
        elif not isinstance(effect, _TEXT_ONLY):
            first.clear()
    return out, later
