"""The lobby between series: who signed up for the next series, the cast the host picks or draws, and the start
(``docs/host.md``, "The lobby"). Pure: every decision is made from the lobby's state and the input, without I/O;
``bridge/loop/lobby_run.py`` reads the presses and sends what this module decides.

House rules of this file:

1. The lobby is its inputs: ``{"action": "sign_up" | "withdraw" | "pick" | "draw" | "clear" | "start", "player":
   …, "by": …, "names": […]}``, kept in the series store in order (``bridge/loop/season_store.py``) and replayed
   to rebuild it after a restart. A draw keeps the names it drew, so the replay needs no randomness.
2. Check, then change: a refused input (signing up twice, withdrawing without a sign-up, a host signing up, a name
   not on the server, more sign-ups than the castle has seats, a pick or start that cannot be) is a private
   message to whoever pressed and changes nothing; it is not kept.
3. Sign-ups are public (announced to everyone); the cast is the sign-ups the host seated, in seat order (picked
   one by one, then drawn at random for the free seats). Sign-ups not in the cast are stand-bys: the players
   the host calls in to replace a contestant.
4. Only a host may pick, draw, clear or start; the series starts with a full cast only.
"""

from __future__ import annotations

import secrets
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.effects import Announce, Effect, Message, Whisper, msg

__all__ = ["Lobby", "LobbyRefused", "Step"]

ACTIONS = ("sign_up", "withdraw", "pick", "draw", "clear", "start")


class LobbyRefused(Exception):
    """An input the lobby refuses (house rule 2): ``message`` goes privately to ``to``."""

    def __init__(self, to: str, message: Message) -> None:
        super().__init__(message.text)
        self.to = to
        self.message = message


@dataclass(frozen=True, slots=True)
class Step:
    """What one accepted input did: the input to keep (house rule 1) and the effects to send."""

    entry: Mapping[str, Any]
    effects: tuple[Effect, ...]


def _private(to: str, key: str, **params: object) -> LobbyRefused:
    return LobbyRefused(to, msg(key, **params))


@dataclass(slots=True)
class Lobby:
    """The lobby for one series (the next one).

    Args:
        seats: how many contestants the series has (the series file's ``contestant_count``).
        capacity: how many players may sign up at most: the castle's round-table seats.
        hosts: who may pick, draw, clear and start (and who never plays).

    Attributes:
        signups: who signed up, in order.
        cast: the seated sign-ups, in seat order.
        started: the host started the series with ``cast``.
    """

    seats: int
    capacity: int
    hosts: frozenset[str]
    signups: list[str] = field(default_factory=list)
    cast: list[str] = field(default_factory=list)
    started: bool = False

    @property
    def standbys(self) -> list[str]:
        """The sign-ups not in the cast, in sign-up order (house rule 3)."""
        return [p for p in self.signups if p not in self.cast]

    def replay(self, entries: Sequence[Mapping[str, Any]]) -> Lobby:
        """Apply kept inputs (house rule 1); returns ``self``. An input that no longer applies is skipped."""
        for entry in entries:
            try:
                self._apply(entry)
            except LobbyRefused:
                continue
        return self

    # ------------------------------------------------------------------ players

    def sign_up(self, player: str, online: Collection[str], *, by: str | None = None) -> Step:
        """``player`` signs up (or a host adds them: ``by``).

        Raises:
            LobbyRefused: house rule 2 (to ``by`` when a host added the name, else to ``player``).
        """
        to = by or player
        if player in self.hosts:
            raise _private(to, "lobby.host_plays")
        if player in self.signups:
            raise _private(to, "lobby.already")
        if player not in online:
            raise _private(to, "lobby.not_online", player=player)
        if len(self.signups) >= self.capacity:
            raise _private(to, "lobby.full", capacity=self.capacity)
        return self._step({"action": "sign_up", "player": player, **({"by": by} if by else {})})

    def withdraw(self, player: str) -> Step:
        """``player`` withdraws (and leaves the cast if seated).

        Raises:
            LobbyRefused: not signed up.
        """
        if player not in self.signups:
            raise _private(player, "lobby.not_signed_up")
        return self._step({"action": "withdraw", "player": player})

    # ------------------------------------------------------------------ the host (house rule 4)

    def _host(self, host: str) -> None:
        if host not in self.hosts:
            raise _private(host, "illegal.not_host")

    def pick(self, host: str, index: int) -> Step:
        """Seat the ``index``-th sign-up (1-based, sign-up order) in the next free seat.

        Raises:
            LobbyRefused: not a host, no such sign-up waiting, or no free seat.
        """
        self._host(host)
        if len(self.cast) >= self.seats:
            raise _private(host, "lobby.complete")
        if not 1 <= index <= len(self.signups) or self.signups[index - 1] in self.cast:
            raise _private(host, "lobby.no_pick", index=index)
        return self._step({"action": "pick", "player": self.signups[index - 1], "by": host})

    def draw(self, host: str, rng: Any = None) -> Step:
        """Fill every free seat at random from the stand-bys (house rule 1: the drawn names are kept).

        Args:
            host: who draws.
            rng: ``random.Random``-like (``sample``); default ``secrets.SystemRandom()``.

        Raises:
            LobbyRefused: not a host, no free seat, or too few stand-bys.
        """
        self._host(host)
        free = self.seats - len(self.cast)
        if free <= 0:
            raise _private(host, "lobby.complete")
        pool = self.standbys
        if len(pool) < free:
            count = len(self.signups)
            raise _private(host, "lobby.short", seats=self.seats, count=count, missing=self.seats - count)
        names = (rng or secrets.SystemRandom()).sample(pool, free)
        return self._step({"action": "draw", "by": host, "names": list(names)})

    def clear(self, host: str) -> Step:
        """Empty the cast (the sign-ups stay).

        Raises:
            LobbyRefused: not a host.
        """
        self._host(host)
        return self._step({"action": "clear", "by": host})

    def start(self, host: str) -> Step:
        """Start the series with the cast.

        Raises:
            LobbyRefused: not a host, or the cast is not full.
        """
        self._host(host)
        if len(self.cast) != self.seats:
            raise _private(host, "lobby.not_ready", count=len(self.cast), seats=self.seats)
        return self._step({"action": "start", "by": host, "names": list(self.cast)})

    # ------------------------------------------------------------------ applying

    def _step(self, entry: dict[str, Any]) -> Step:
        return Step(entry, tuple(self._apply(entry)))

    def _apply(self, entry: Mapping[str, Any]) -> list[Effect]:
        """Change the lobby by one accepted input; the effects that say so (house rule 3)."""
        action, player = entry.get("action"), str(entry.get("player", ""))
        count = {"seats": self.seats}
        if action == "sign_up":
            if player in self.signups:
                raise _private(player, "lobby.already")
            self.signups.append(player)
            n = len(self.signups)
            return [
                Announce(msg("lobby.joined", player=player, count=n, **count)),
                Whisper(frozenset({player}), msg("lobby.signed_up", count=n, **count)),
            ]
        if action == "withdraw":
            if player not in self.signups:
                raise _private(player, "lobby.not_signed_up")
            self.signups.remove(player)
            if player in self.cast:
                self.cast.remove(player)
            return [
                Announce(msg("lobby.left", player=player, count=len(self.signups), **count)),
                Whisper(frozenset({player}), msg("lobby.withdrawn")),
            ]
        if action == "pick":
            if player not in self.signups or player in self.cast:
                raise _private(str(entry.get("by")), "lobby.no_pick", index=0)
            self.cast.append(player)
            return [Announce(msg("lobby.picked", player=player, seat=len(self.cast)))]
        if action == "draw":
            names = [str(n) for n in entry.get("names", []) if n in self.signups and n not in self.cast]
            self.cast += names[: self.seats - len(self.cast)]
            return [Announce(msg("lobby.drawn", players=tuple(self.cast)))]
        if action == "clear":
            self.cast = []
            return [Announce(msg("lobby.cleared"))]
        if action == "start":
            self.started = True
            out: list[Effect] = [Announce(msg("lobby.starting", players=tuple(self.cast)))]
            if self.standbys:
                out.append(Whisper(frozenset(self.standbys), msg("lobby.standby")))
            return out
        raise _private(player, "invalid.action.kind", kind=str(action))
