"""What the castle shows each contestant, kept from the effects a game returns (every ruleset shares it).

A game keeps its own copy of what it sent (``inbox``), what each contestant holds (``items``) and where each
was last sent (``places``), built only from effects it already returned. Views read ``inbox`` and ``items``;
after a crash the bridge restores the castle from ``world_state`` (``docs/recovery.md``). Because it is built
from returned effects alone, it never holds anything a contestant was not already shown or given.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.effects import Announce, Effect, GiveItem, MoveTo, Prompt, TakeItem, Whisper
from engine.ids import Item, Place


@dataclass(frozen=True, slots=True)
class WorldState:
    """The castle as the engine last left it (``CastleTracker.world_state``); the bridge re-syncs to it.

    Args:
        places: contestant → (place, seat for ``ROUND_TABLE``/``HOME`` or ``None``), from the last ``MoveTo``.
        items: contestant → the castle items they should hold, as ``(item, label)``, in the order given.
        phase_seq: the current phase's sequence number (0 before the series starts).
        deadline: when the current phase clock runs out (same unit as ``now``), or ``None``.
    """

    places: dict[str, tuple[Place, int | None]]
    items: dict[str, list[tuple[Item, str | None]]]
    phase_seq: int
    deadline: float | None


class CastleTracker:
    """Mixin for a game class: ``inbox``, ``items`` and ``places`` kept from its effects.

    The game sets ``self.inbox``, ``self.items``, ``self.places`` (empty dicts), and has ``players`` (names in
    seat order), ``hosts``, ``phase_seq`` and ``deadline``.
    """

    inbox: dict[str, list[str]]
    items: dict[str, list[tuple[Item, str | None]]]
    places: dict[str, tuple[Place, int | None]]
    phase_seq: int
    deadline: float | None

    def _everyone(self) -> list[str]:
        return [*getattr(self, "players"), *sorted(getattr(self, "hosts"))]

    def _track(self, effects: Iterable[Effect]) -> None:
        """Keep the copy of what each contestant (and host) was sent, holds, and where they were sent.

        Written for speed (it runs for every effect of every input; ``docs/performance.md``): exact type checks
        (the effect classes have no subclasses), a public text rendered once and appended to every inbox.
        """
        boxes: list[list[str]] | None = None
        inbox = self.inbox
        for e in effects:
            t = type(e)
            if t is Announce:
                if boxes is None:
                    boxes = [inbox.setdefault(n, []) for n in self._everyone()]
                text = e.message.text  # type: ignore[attr-defined]
                for box in boxes:
                    box.append(text)
            elif t is Whisper or t is Prompt:
                text = e.message.text  # type: ignore[attr-defined]
                to = e.to  # type: ignore[attr-defined]
                for n in sorted(to) if len(to) > 1 else to:
                    inbox.setdefault(n, []).append(text)
            elif t is GiveItem:
                for n in sorted(e.to):  # type: ignore[attr-defined]
                    self.items.setdefault(n, []).append((e.item, e.label))  # type: ignore[attr-defined]
            elif t is TakeItem:
                for n in e.players if e.players is not None else list(self.items):  # type: ignore[attr-defined]
                    self.items[n] = [(i, lab) for i, lab in self.items.get(n, []) if i is not e.item]  # type: ignore[attr-defined]
            elif t is MoveTo:
                for k, n in enumerate(e.players):  # type: ignore[attr-defined]
                    self.places[n] = (e.place, e.seats[k] if k < len(e.seats) else None)  # type: ignore[attr-defined]

    def world_state(self) -> WorldState:
        """What the castle should look like now: the state to restore after a crash (``docs/recovery.md``).

        Returns:
            Each contestant's last place (with seat) and items, and the running phase clock.
        """
        return WorldState(
            places=dict(self.places),
            items={n: list(held) for n, held in self.items.items()},
            phase_seq=self.phase_seq,
            deadline=self.deadline,
        )


__all__ = ["CastleTracker", "WorldState"]
