"""How a plug-in input is sent from the castle: the trigger a player's click presses, described as data.

A twist's input (``engine.rulesets.traitors.twists.spec.TwistInput``) names its trigger with an ``InputTrigger``;
the bridge's trigger table builds the data pack objective ``traitors.<name>``, the decoder and the encoder of its
row from it and from the input's fields (``bridge.minecraft.input_codec``), so a new input needs no hand-written
row. What a press's value means follows from the fields after the sender:

======================================  =====================================================================
the input's fields                      the trigger's value
======================================  =====================================================================
none                                    1
a contestant (a ``str`` field)          the contestant's seat (1-based)
an enum                                 the member's 1-based place in ``choices``
a contestant and an enum or ``None``    100 × seat + the member's place (0: ``None``, asked next)
a text, with ``book``                   1; the service reads the text of the castle book ``book`` the sender holds
======================================  =====================================================================

A number already handed out (a button in an installed data pack, a book's click event) never changes meaning, so a
new choice goes at the end of ``choices``.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.ids import Enum, Item


@dataclass(frozen=True, slots=True)
class InputTrigger:
    """The trigger that sends one input (see the module docstring).

    Args:
        name: the objective without ``traitors.``, also the name the data pack queues a press under (letters,
            digits and ``_``; not one of the table's other triggers).
        title: the objective's English display name (translated as ``traitors.trigger.<name>``).
        choices: the members an enum field may name, numbered from 1 in this order; ``()``: the enum's own
            members in their order.
        book: the castle book whose text is the input's one text field; ``None`` for an input without text.
    """

    name: str
    title: str
    choices: tuple[Enum, ...] = ()
    book: Item | None = None


__all__ = ["InputTrigger"]
