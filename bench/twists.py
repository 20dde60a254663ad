"""Cost of the twists in the engine, and the size of the commands their items need.

Prints: for random 12-contestant series with and without every twist scheduled (contestants choosing at random
among their legal inputs), the inputs per series and microseconds per ``Game.handle`` and per
``Game.legal_actions`` sweep; and the UTF-8 size of the largest ``give`` of the Traitors' Response book (a
400-character reply in ASCII, Cyrillic and with quotes and newlines; limit 1446 bytes, docs/minecraft.md#rcon).

Run: ``python bench/twists.py``
"""

from __future__ import annotations

import random
import time

import checkout  # noqa: F401, I001 - this checkout's engine and bridge, not an installed copy
from bridge.minecraft.core import MAX_COMMAND_BYTES, utf8_size
from bridge.minecraft.items import give, item_stack
from engine.actions import Advance, StartSeries
from engine.ids import Item, Twist
from engine.rulesets import RULESETS, new_game

NAMES = ("Alex", "Kai", "Zuri", "Steve", "Ari", "Noor", "Sunny", "Efe", "Makena", "Lena", "Omar", "Rhea")
TWISTS = {
    1: (Twist.DOUBLE_VOTE,),
    2: (Twist.CONFESSION,),
    3: (Twist.MURDER, Twist.SEER),
    4: (Twist.GUESS,),
    5: (Twist.TRIAL,),
}


def run(twists: bool, series: int = 40) -> tuple[float, float, float]:
    inputs = handle_s = legal_s = 0.0
    sweeps = 0
    for seed in range(series):
        spec = next(r for r in RULESETS.values() if r.twists)  # the ruleset whose host starts these twists
        game = new_game(
            spec.settings(contestants=NAMES, traitors=3, hosts=("Host",), twists=TWISTS if twists else {}), seed
        )
        rng, now = random.Random(seed), 0.0
        game.handle(StartSeries(), now=now)
        while not game.is_over:
            t0 = time.perf_counter()
            options = [a for n in game.contestants() for a in game.legal_actions(n)]
            t1 = time.perf_counter()
            action = rng.choice(options) if options and rng.random() > 0.05 else Advance("Host")
            now += 1
            game.handle(action, now=now)
            t2 = time.perf_counter()
            legal_s += t1 - t0
            handle_s += t2 - t1
            inputs += 1
            sweeps += 1
    return inputs / series, handle_s / inputs * 1e6, legal_s / sweeps * 1e6


def main() -> None:
    for twists in (False, True):
        per, h, lg = run(twists)
        label = "every twist" if twists else "no twists "
        print(f"{label}: {per:6.0f} inputs/series, {h:7.1f} us per handle, {lg:7.1f} us per legal_actions sweep")
    for label, text in (("ascii", "x" * 400), ("cyrillic", "ж" * 400), ("quotes+newlines", '"\\\n' * 133)):
        size = utf8_size(give("Sunny_Traitor12", item_stack(Item.RESPONSE_BOOK, label=text)).text)
        print(f"response book give, 400 chars {label:>16}: {size} bytes (limit {MAX_COMMAND_BYTES})")


if __name__ == "__main__":
    main()
