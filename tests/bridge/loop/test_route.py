"""Routing (bridge/loop/route.py): who may press what, and how the Sacred Sword's two entries pair up."""

from __future__ import annotations

import asyncio
from typing import Any

from bridge.io.players import PlayerDirectory
from bridge.io.rcon import RconClient
from bridge.loop.recovery import Handouts
from bridge.loop.route import SWORD_PAIRING, Router
from bridge.minecraft.inputs import SwordHit
from engine.actions import CastVote
from engine.effects import Effect, Message, Whisper
from engine.ids import Allegiance
from engine.rulesets.traitors.game import Game
from engine.rulesets.traitors.settings import DealEntry, Settings
from engine.rulesets.traitors.twists.murder import StrikeWithSword

NAMES = ("Alex", "Kai", "Zuri", "Sunny", "Efe", "Noor")
HOST = "Hostess"


def router() -> Router:
    deal = tuple(DealEntry(n, Allegiance.TRAITOR if n == "Sunny" else Allegiance.FAITHFUL) for n in NAMES)
    game = Game(Settings(contestants=NAMES, hosts=(HOST,), deal=deal, powers=False), seed=5)
    rcon = RconClient("127.0.0.1", 1, "unused")  # never connected: these routes need no server
    return Router(game, rcon, {n: i for i, n in enumerate(NAMES, start=1)}, PlayerDirectory(), Handouts("t"), None)


def route(r: Router, player: str, item: Any, seq: int, entry_input: str = "sword") -> Any:
    return asyncio.run(r.route(player, item, {"seq": seq, "input": entry_input, "value": 1}))


def told(player: str, key: str) -> list[Effect]:
    return [Whisper(frozenset({player}), Message(key))]


def test_a_struck_entry_pairs_with_the_attackers_recent_hit() -> None:
    r = router()
    assert route(r, "Kai", SwordHit("Kai", struck=False), 10) == []
    assert route(r, "Zuri", SwordHit("Zuri", struck=True), 10 + SWORD_PAIRING) == StrikeWithSword("Kai", "Zuri")
    # the hit was used up: a second struck entry has no attacker
    assert route(r, "Zuri", SwordHit("Zuri", struck=True), 11 + SWORD_PAIRING) == []


def test_a_hit_too_long_ago_or_on_oneself_pairs_with_nothing() -> None:
    r = router()
    route(r, "Kai", SwordHit("Kai", struck=False), 10)
    assert route(r, "Zuri", SwordHit("Zuri", struck=True), 11 + SWORD_PAIRING) == []
    route(r, "Kai", SwordHit("Kai", struck=False), 20)
    assert route(r, "Kai", SwordHit("Kai", struck=True), 21) == []


def test_a_spectator_is_told_who_may_press_and_nothing_reaches_the_engine() -> None:
    r = router()
    vote = CastVote("Stranger", "Kai")
    assert route(r, "Stranger", vote, 1, "vote") == told("Stranger", "illegal.spectator")
    assert route(r, "Stranger", vote, 2, "host") == told("Stranger", "illegal.not_host")
    assert route(r, "Alex", CastVote("Alex", "Kai"), 3, "vote") == CastVote("Alex", "Kai")
