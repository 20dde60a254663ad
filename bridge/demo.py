"""``traitors demo``: a whole series in the built-in sandbox, driven by bot contestants over real loopback RCON.

The pieces are the real ones: the sandbox server (``bridge/sandbox``) on 127.0.0.1, the service
(``bridge/service.py``) talking to it with our RCON client, and one bot per contestant. A bot knows only what
its player was shown: when a dialog is on its screen it presses one of the dialog's buttons; a bot that closes
dialogs (``Bot.closes_dialogs``) answers from the chat fallback instead, clicking a link as a player would. Either
way the input is a ``/trigger`` command; the real data pack's tick function (interpreted by the sandbox) moves
it into the input queue with the player's UUID, and the service polls it.

Phase clocks are shortened so a series finishes in well under a minute. Interactive phases (vote, Oath,
Turret, offer) end as soon as everyone has answered, and bots choose with generators seeded from the series
seed, the contestant and the prompt number, so the same seed gives the same game log run after run.
"""

from __future__ import annotations

import asyncio
import random
import secrets
import sys
import time
from dataclasses import dataclass, field
from typing import Any, TextIO

from bridge.config import default_castle
from bridge.export import format_record
from bridge.players import PlayerDirectory
from bridge.rcon import RconClient
from bridge.sandbox.server import SandboxThread
from bridge.service import SeriesService
from engine.effects import Announce, Effect
from engine.ids import Twist
from engine.rulesets import RULESETS, new_game
from engine.rulesets.club import ClubSettings
from engine.settings import Settings

DEMO_NAMES = (
    "Alex", "Kai", "Zuri", "Steve", "Ari", "Noor", "Sunny", "Efe",
    "Makena", "Lena", "Omar", "Rhea", "Tomas", "Ines", "Yuki", "Bram",
)  # fmt: skip
"""Contestant names in seat order (the rulebook's example names first)."""

DEMO_DURATIONS: dict[str, float] = {
    "day_zero": 0.3,
    "breakfast": 0.2,
    "discussion": 0.2,
    "round_table": 0.2,
    "vote": 20.0,
    "revote": 20.0,
    "oath": 20.0,
    "turret": 20.0,
    "offer": 20.0,
    "traitor_powers": 20.0,
    "host_visit": 20.0,
    "torches": 1.5,
}
"""Seconds per phase in the demo. Interactive phases end when everyone has answered; their long clocks are
only a safety net, so a slow machine never turns a bot's answer into "No vote"."""

END_TORCH_BIAS = 0.75
"""A bot holds up the end-game torch with this probability."""


CLUB_DEMO_DURATIONS: dict[str, float] = {
    "night_step": 20.0,
    "morning": 0.2,
    "speech": 20.0,
    "discussion": 0.2,
    "vote": 20.0,
    "revote": 20.0,
    "last_word": 0.2,
    "repeat": 20.0,
}
"""Seconds per phase in a club demo: speeches end at the speaker's nomination, votes when everyone voted."""


def default_traitors(n: int) -> int:
    """About a quarter of the contestants, at least 1 and fewer than a third ([house] rulebook §1)."""
    return max(1, min(n // 4, (n - 1) // 3))


def demo_settings(contestants: int, ruleset: str = "traitors") -> Settings | ClubSettings:
    """The demo's series: ``contestants`` bots, shortened clocks; for ``traitors`` the Double Vote on day one.

    With more than 12 contestants the power pool is too small for unique powers, so powers are off. The club
    rulesets use their default deal (8–16 contestants).

    Raises:
        ConfigError: ``contestants`` is outside the ruleset's range, or an unknown ruleset.
    """
    from engine.errors import ConfigError

    if ruleset not in RULESETS:
        raise ConfigError(f"--ruleset: {ruleset!r} (known: {', '.join(RULESETS)})")
    if ruleset != "traitors":
        lo, hi = RULESETS[ruleset].game.RULES.sizes
        if not lo <= contestants <= hi:
            raise ConfigError(f"--contestants: {contestants}; {ruleset} has {lo}-{hi} contestants")
        return ClubSettings(ruleset, DEMO_NAMES[:contestants], durations=CLUB_DEMO_DURATIONS)
    if not 6 <= contestants <= 16:
        raise ConfigError(f"--contestants: {contestants}; a series has 6-16 contestants")
    names = DEMO_NAMES[:contestants]
    return Settings(
        contestants=names,
        traitors=default_traitors(contestants),
        powers=contestants <= 12,
        drunk="possible" if contestants <= 12 else "none",
        twists={1: (Twist.DOUBLE_VOTE,)},
        durations=DEMO_DURATIONS,
    )


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

    def read(self, messages: list[Any], dialogs: list[Any]) -> None:
        """Queue every new prompt: a dialog with trigger buttons, or a chat message with trigger links.

        The chat fallback repeats each dialog; a bot answers a prompt once, from the dialog unless it closes
        dialogs.
        """
        source = "chat" if self.closes_dialogs else "dialog"
        if source == "dialog":
            for d in dialogs:
                commands = [str(a.get("action", {}).get("command", "")) for a in d.get("actions", [])]
                if commands and all(c.startswith("/trigger ") for c in commands):
                    self._queue(commands, "dialog")
        else:
            for m in messages:
                commands = [str(c.get("command", "")) for c in m.click_events()]
                commands = [c for c in commands if c.startswith("/trigger ")]
                if commands:
                    self._queue(commands, "chat")
        self.seen += len(messages)
        self.dialogs_seen += len(dialogs)

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


async def _drive_bots(sandbox: SandboxThread, bots: list[Bot], stop: asyncio.Event, interval: float) -> None:
    def new_for(b: Bot) -> tuple[list[Any], list[Any]]:
        p = sandbox.world.player(b.name)
        return list(p.chat[b.seen :]), list(p.dialogs[b.dialogs_seen :])

    while not stop.is_set():
        for bot in bots:
            messages, dialogs = sandbox.call(new_for, bot)
            bot.read(messages, dialogs)
            answer = bot.due()
            if answer is not None:
                sandbox.call(_answer, sandbox.world, bot, *answer)
        try:
            await asyncio.wait_for(stop.wait(), interval)
        except asyncio.TimeoutError:
            pass


async def play_demo(
    contestants: int = 12,
    seed: int = 1,
    *,
    out: TextIO | None = None,
    keep_sandbox: bool = False,
    ruleset: str = "traitors",
) -> tuple[Any, SandboxThread, SeriesService]:
    """Play one demo series to its end.

    Args:
        contestants: 6–16 bots.
        seed: seed of the series and of the bots' choices.
        out: where to print public announcements live (``None``: print nothing).
        keep_sandbox: leave the sandbox running (tests inspect its world); the caller then stops it.
        ruleset: a name of ``engine.rulesets.RULESETS``.

    Returns:
        The finished game, the sandbox thread and the service (``service.bots``: the bots, for tests).

    Raises:
        ConfigError: bad ``contestants``.
        RconUnavailable: the sandbox could not be reached.
    """
    settings = demo_settings(contestants, ruleset)
    game = new_game(settings, seed)
    password = secrets.token_urlsafe(18)
    sandbox = SandboxThread(password)
    port = sandbox.start()
    try:
        for name in settings.contestants:
            sandbox.join(name)
        # Every third bot closes its dialogs and answers in chat, so both ways are used in every demo.
        bots = [Bot(name, seed, closes_dialogs=i % 3 == 2) for i, name in enumerate(settings.contestants)]
        started = time.monotonic()

        def observe(effect: Effect) -> None:
            if out is not None and isinstance(effect, Announce):
                print(f"[{time.monotonic() - started:6.2f}s] {effect.message.text}", file=out, flush=True)

        async with RconClient("127.0.0.1", port, password, timeout=10.0) as rcon:
            service = SeriesService(game, rcon, default_castle(), poll_interval=0.02, observer=observe,
                                    players=PlayerDirectory(sandbox.players()))
            stop = asyncio.Event()
            driver = asyncio.create_task(_drive_bots(sandbox, bots, stop, 0.02))
            service.bots = bots  # type: ignore[attr-defined]
            try:
                await service.run()
            finally:
                stop.set()
                await driver
    finally:
        if not keep_sandbox:
            sandbox.stop()
    return game, sandbox, service


def run_demo(
    contestants: int = 12, seed: int = 1, fmt: str = "text", quiet: bool = False, ruleset: str = "traitors"
) -> int:
    """The ``traitors demo`` command: play a series, print the game log and the winner.

    Returns:
        Exit code 0 when the series finished, 1 otherwise.
    """
    started = time.monotonic()
    out = None if quiet else sys.stdout
    if out is not None:
        title = RULESETS[ruleset].title if ruleset in RULESETS else ruleset
        print(f"Castle demo ({title}): {contestants} bot contestants, seed {seed}, sandbox server on 127.0.0.1\n",
              file=out)  # fmt: skip
    game, _, service = asyncio.run(play_demo(contestants, seed, out=out, ruleset=ruleset))
    if out is not None:
        print("\n=== Game log ===\n", file=out)
    print(format_record(game.record, fmt))
    if game.outcome is None:
        print("The series did not finish.", file=sys.stderr)
        return 1
    if out is not None:
        winners = ", ".join(game.outcome.winners) or "nobody"
        print(
            f"\nWinner: {game.outcome.winner.title} ({winners}). "
            f"{game.day} days, {len(game.log)} inputs, {time.monotonic() - started:.1f} s.",
            file=out,
        )
        if service.failed_commands:
            print(f"{len(service.failed_commands)} commands were refused by the server.", file=sys.stderr)
    return 0
