"""The host's console: what a console button (``traitors.host``, ``traitors.twist``) or opening the console becomes.

House rules of this file (``bridge/loop/service.py`` house rule 9, ``docs/host.md``):

1. Only ``Settings.hosts`` may use the console; anyone else is told "Only the host can do that." and nothing
   changes.
2. "Start/cancel a twist" show the host a list of twists; the engine checks the twist's preconditions. A host
   control's button (pause, resume, extend, undo, end, and any control registered later: ``engine.core.host_spec``)
   sends its input (``HostControl.press``). A phase-bound button is its input in its phase only: "move on" is
   ``Advance`` naming its button, the finale's question ``AskHappy``.
3. Replacing is two steps: the host picks a seat (``seat_waiting``, kept in memory only), then the new player
   opens the console and takes it (``ReplaceContestant``); the seat's player then gets the castle re-synced
   (the service does that).
4. In a season the series has stand-bys (``standbys``: the lobby's sign-ups not drawn, in sign-up order). When
   the host picks a seat, the first stand-by on the server who is not in the series takes it at once
   (``ReplaceContestant``, the host need not name them); with none on the server the seat waits as in house
   rule 3 and the host is told so privately.

Every decision here is made from the game's state alone, without I/O: it returns either the engine input to
apply or the effects to send without the engine.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Mapping, Sequence

from bridge.minecraft.inputs import HostCommand, HostControl
from engine.actions import Action, Advance, CancelTwist, ReplaceContestant, StartTwist
from engine.core.ruleset import RulesetGame
from engine.effects import Choice, Effect, Message, Prompt, Whisper, msg
from engine.ids import Twist
from engine.rulesets import RULESETS, twist_tables

__all__ = ["HostConsole", "private"]

log = logging.getLogger(__name__)


def private(player: str, message: Message) -> list[Effect]:
    """A private reply to ``player`` (a contestant, a host, or a spectator told what only others may do)."""
    return [Whisper(frozenset({player}), message)]


class HostConsole:
    """The console's decisions for one series (house rules 1-3).

    Args:
        game: the series.
        seats: contestant → seat number (``RenderContext.seats``).
        standbys: the season's stand-bys in sign-up order (house rule 4); none outside a season.
    """

    def __init__(self, game: RulesetGame, seats: Mapping[str, int], standbys: Sequence[str] = ()) -> None:
        self.game = game
        self.seats = seats
        self.standbys = tuple(standbys)
        """The stand-bys, in sign-up order (house rule 4)."""
        self.seat_waiting: tuple[str, str] | None = None
        """(host, contestant): a seat the host chose for a new player, until someone takes it (house rule 3)."""

    def wants_online(self, command: HostCommand) -> bool:
        """Whether ``command`` needs the server's player list (a seat picked while there are stand-bys)."""
        return command.control is HostControl.REPLACE_CONTESTANT and command.seat is not None and bool(self.standbys)

    def command(self, command: HostCommand, online: Collection[str] = ()) -> Action | list[Effect]:
        """A console button other than opening it: the engine input, or the reply to send (house rules 1-4).

        Args:
            command: the button.
            online: who is on the server now, when ``wants_online`` (house rule 4); else unused.
        """
        control, host = command.control, command.host
        if host not in self.game.hosts:
            return private(host, Message("illegal.not_host"))
        if control in (HostControl.START_TWIST, HostControl.CANCEL_TWIST):
            return [self._twist_list(host, start=control is HostControl.START_TWIST)]
        if control is HostControl.REPLACE_CONTESTANT:
            return self._choose_seat(command, online)
        if not control.bound:
            if control.press is not None:
                return control.press(host)
            return private(host, msg("host.unavailable", control=control.title))
        wanted = self._phase_of(control)
        if wanted is None or self.game.phase is not wanted:
            return private(host, Message("illegal.phase"))
        if control.press is not None:
            return control.press(host)
        return Advance(host, button=control.name.lower())  # the record names the button that moved on

    def _phase_of(self, control: HostControl) -> object:
        """The phase of the series' ruleset a phase-bound button is meant for (``Ruleset.console_phases``), or
        ``None`` when the ruleset binds none to it."""
        spec = RULESETS.get(self.game.ruleset)
        return spec.console_phases.get(control.name.lower()) if spec is not None else None

    def _twist_list(self, host: str, *, start: bool) -> Prompt:
        """The host's list of twists to start or cancel (``traitors.twist``), each named by the title its ruleset's
        twist registry gives it (``engine.rulesets.twist_tables``)."""
        titles = {t: title for table in twist_tables() for t, title in table.TITLES.items()}
        choices = tuple(Choice(titles[t], StartTwist(host, t) if start else CancelTwist(host, t)) for t in Twist)
        return Prompt(frozenset({host}), msg("host.twist.start" if start else "host.twist.cancel"), choices)

    def _choose_seat(self, command: HostCommand, online: Collection[str]) -> Action | list[Effect]:
        """Replacing, step 1: without a seat, prompt the host with the seats still in; with one, the first stand-by
        on the server takes it (house rule 4), else it waits for a new player (house rule 3)."""
        living = self.game.living()
        if command.seat is None:
            if not living:
                return private(command.host, Message("illegal.phase"))
            choices = tuple(Choice(n, ReplaceContestant(command.host, n, "")) for n in living)
            return [Prompt(frozenset({command.host}), msg("host.choose_seat"), choices)]
        contestant = next((n for n, s in self.seats.items() if s == command.seat), None)
        if contestant is None or contestant not in living:
            return private(command.host, msg("illegal.replace.out", contestant=str(contestant)))
        standby = self.first_standby(online)
        if standby is not None:
            log.info("seat %d (%s) goes to the stand-by %s", command.seat, contestant, standby)
            return ReplaceContestant(command.host, contestant, standby)
        self.seat_waiting = (command.host, contestant)
        log.info("seat %d (%s) waits for a new player", command.seat, contestant)
        if self.standbys:
            return private(command.host, msg("lobby.standby.none", contestant=contestant, seat=command.seat))
        return []

    def first_standby(self, online: Collection[str]) -> str | None:
        """The first stand-by, in sign-up order, who is on the server and not in the series (house rule 4)."""
        here = {n.lower() for n in online}
        for name in self.standbys:
            if name.lower() in here and not self._in_series(name):
                return name
        return None

    def _in_series(self, player: str) -> bool:
        """Whether ``player`` plays a seat, was replaced, or hosts (Minecraft names are one player in any case)."""
        taken = {n.lower() for n in (*self.seats, *self.game.hosts)}
        return player.lower() in taken or self.game.contestant_of(player) is not None

    def open(self, player: str, in_series: bool) -> Action | list[Effect]:
        """Someone opened the console (house rule 3): a host is shown it (the service sends ``show_console``); a
        player outside the series takes a waiting seat (``ReplaceContestant``); anyone else is told no.

        Args:
            player: who opened it.
            in_series: whether ``player`` already plays a seat, was replaced, or hosts.
        """
        if player in self.game.hosts:
            return []
        if self.seat_waiting is not None and not in_series:
            (host, contestant), self.seat_waiting = self.seat_waiting, None
            return ReplaceContestant(host, contestant, player)
        return private(player, Message("illegal.not_host"))
