"""The demo's bot contestants (``traitors demo``, ``bridge/app/demo.py``): each reads only what its player was
shown in the sandbox (chat, dialogs) and answers with a ``/trigger`` command, pressing a dialog's button or, for a
bot that closes dialogs, clicking the chat fallback's link. Choices come from generators seeded from the series
seed, the contestant and the prompt number, and a bot answers only in a settled world
(``bridge/sandbox/quiet.py``), so the same seed gives the same inputs in the same order.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the sandbox (and mecha) is imported only where it runs
    from bridge.sandbox.server import SandboxThread

END_TORCH_BIAS = 0.75
"""A bot votes end game in the finale with this probability."""

REJOIN_POLLS = 25
"""Passes of the bot driver a bot stays away after its player left the server (was kicked), before it rejoins
(at the driver's 0.02 s interval, about half a second)."""


@dataclass
class Bot:
    """One bot contestant: answers the dialog on its screen, or (``closes_dialogs``) the chat fallback."""

    name: str
    seed: int
    closes_dialogs: bool = False
    """Close every dialog with Escape and answer the chat fallback's click events instead."""
    seen: int = 0
    """How many chat messages the bot has read."""
    dialogs_seen: int = 0
    """How many dialogs the bot has been shown."""
    prompts: int = 0
    """How many prompts it has answered (part of its choice seed)."""
    pending: list[tuple[int, list[str], str]] = field(default_factory=list)
    """Prompts waiting for an answer: (polls to wait, the ``/trigger`` commands offered, "dialog" or "chat")."""
    answered: int = 0
    """Answers given through a dialog button."""
    clicked: int = 0
    """Answers given through a chat link."""
    last: Any = None
    """The last castle chat component read (chat mode), to skip one sent twice."""
    last_dialog: tuple[Any, int] | None = None
    """The last dialog read and how many chat messages its player had then (dialog mode)."""
    away: int = 0
    """Counts the driver's passes while its player is offline, up to ``REJOIN_POLLS`` (then it joins); 0 while
    online; it starts lower for a bot that joins late (``--join-over``)."""

    def read(self, messages: list[Any], dialogs: list[tuple[Any, int]]) -> None:
        """Queue every new prompt: a dialog with trigger buttons, or a chat message with trigger links.

        The chat fallback repeats each dialog; a bot answers a prompt once, from the dialog unless it closes
        dialogs. After a crash the service may send the one command that was in flight again
        (``docs/recovery.md``): a dialog identical to the previous one with no castle message in between (the
        bot's own trigger feedback does not count), or a castle message identical to the one just before it, is
        that repeat and is skipped. (A revote shows the same ballot again, but only after the vote's results
        were said in chat.)

        Args:
            messages: new chat messages, oldest first.
            dialogs: new dialogs, oldest first, each with the player's count of castle (``tellraw``) messages
                when it was shown.
        """
        if not self.closes_dialogs:
            for d, at in dialogs:
                if self.last_dialog is not None and self.last_dialog == (d, at):
                    continue
                self.last_dialog = (d, at)
                commands = [str(a.get("action", {}).get("command", "")) for a in d.get("actions", [])]
                if commands and all(c.startswith("/trigger ") for c in commands):
                    self._queue(commands, "dialog")
        else:
            for m in messages:
                if getattr(m, "source", "tellraw") == "tellraw":
                    if m.component == self.last:
                        continue
                    self.last = m.component
                commands = [str(c.get("command", "")) for c in m.click_events()]
                commands = [c for c in commands if c.startswith("/trigger ")]
                if commands:
                    self._queue(commands, "chat")
        self.seen += len(messages)
        self.dialogs_seen += len(dialogs)

    def idle(self, player: Any) -> bool:
        """Whether the bot has read all that ``player`` (its player in the sandbox world) was shown and has no
        answer left to give (``bridge/sandbox/quiet.py``)."""
        return not self.pending and self.seen == len(player.chat) and self.dialogs_seen == len(player.dialogs)

    def _queue(self, commands: list[str], source: str) -> None:
        rng = self._rng(len(self.pending) + self.prompts, "delay")
        self.pending.append((rng.randint(0, 3), commands, source))

    def due(self) -> tuple[str, int, str] | None:
        """The answer to give now, if the first waiting prompt's delay is over: (source, index, command)."""
        if not self.pending:
            return None
        wait, commands, source = self.pending[0]
        if wait > 0:
            self.pending[0] = (wait - 1, commands, source)
            return None
        self.pending.pop(0)
        rng = self._rng(self.prompts, "choice")
        self.prompts += 1
        torches = [i for i, c in enumerate(commands) if "traitors.torch" in c]
        if torches:
            want = "set 2" if rng.random() < END_TORCH_BIAS else "set 1"
            index = next((i for i in torches if commands[i].endswith(want)), torches[0])
        else:
            index = rng.randrange(len(commands))
        return source, index, commands[index]

    def _rng(self, k: int, what: str) -> random.Random:
        return random.Random(f"{self.seed}:{self.name}:{what}:{k}")


def _answer(world: Any, bot: Bot, source: str, index: int, command: str) -> None:
    """On the sandbox thread: press the dialog button if that dialog is still open, else click the command."""
    player = world.player(bot.name)
    dialog = player.dialog
    if source == "dialog" and dialog is not None:
        actions = dialog.get("actions", [])
        if index < len(actions) and actions[index].get("action", {}).get("command") == command:
            world.click_dialog(bot.name, index)
            bot.answered += 1
            return
    if bot.closes_dialogs and dialog is not None:
        world.close_dialog(bot.name)
    world.click(bot.name, {"action": "run_command", "command": command})
    bot.clicked += 1


def step_bots(sandbox: SandboxThread, bots: list[Bot]) -> None:
    """One pass over the bots: each reads what it was newly shown (chat, dialogs) and answers what is due.

    The whole pass runs on the sandbox's thread, so the bots change only there and the demo's quiet gate
    (``bridge/sandbox/quiet.py``) sees them and the world at one moment. A bot counts its answer's delay down,
    and answers, only in a pass that finds the world settled (``quiet.settled``: every press before has been
    queued, applied and acked), so the presses of one pass reach the queue together, in the player list's
    order, and the next pass presses only after the service has answered them: the inputs' order is the seed's,
    not the machine's. A pass that pressed something runs the world's next tick at once (as ``/tick sprint``
    brings ticks forward), so its presses are queued without waiting for the sandbox's tick.

    Args:
        sandbox: the running sandbox (its world is only touched on its own thread).
        bots: the bots, one per contestant.
    """
    sandbox.call(_step, sandbox.world, bots)


def _come_back_later(world: Any, bot: Bot) -> None:
    """A bot whose player is offline (kicked, or left) forgets what it meant to answer and rejoins after
    ``REJOIN_POLLS`` passes, as a person reconnects; the service then sees it return (MSMP ``players/joined``)."""
    bot.pending.clear()
    bot.away += 1
    if bot.away >= REJOIN_POLLS:
        bot.away = 0
        world.join(bot.name)


def _step(world: Any, bots: list[Bot]) -> None:
    from bridge.sandbox.quiet import settled

    answering, pressed = settled(world), False
    for bot in bots:
        p = world.players.get(bot.name)
        if p is None:
            _come_back_later(world, bot)
            continue
        bot.read(
            list(p.chat[bot.seen :]),
            list(zip(p.dialogs[bot.dialogs_seen :], p.dialog_chat[bot.dialogs_seen :], strict=False)),
        )
        answer = bot.due() if answering else None
        if answer is not None:
            _answer(world, bot, *answer)
            pressed = True
    if pressed:  # bring the next tick forward, as `/tick sprint` would: the presses reach the queue at once
        world.tick()


async def drive_bots(
    sandbox: SandboxThread, bots: list[Bot], stop: asyncio.Event, interval: float, lock: asyncio.Lock | None = None
) -> None:
    """Step the bots every ``interval`` seconds until ``stop``; with the service's ``lock``, never while the
    service is sending a step's commands, so a pass sees every prompt of a step or none."""
    while not stop.is_set():
        async with lock if lock is not None else contextlib.nullcontext():
            step_bots(sandbox, bots)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), interval)


def join_later(bots: list[Bot], seconds: float, interval: float = 0.02) -> None:
    """Have offline ``bots`` join one by one, evenly over ``seconds`` (the driver's passes come every
    ``interval`` seconds): each starts as away for as many passes as it waits, then ``_come_back_later`` joins it."""
    for i, bot in enumerate(bots, start=1):
        bot.away = REJOIN_POLLS - round(seconds * i / len(bots) / interval)
