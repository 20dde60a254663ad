"""The series store, hand-out numbering, idempotent gives and resuming a stored series in-process."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
import time
from pathlib import Path

import pytest

from bridge.app.demo import demo_settings
from bridge.config.castle import default_castle
from bridge.config.settings import ScenarioError
from bridge.config.settings_json import settings_from_json, settings_to_json
from bridge.io.rcon import RconClient
from bridge.loop.recovery import Handouts, rebuild
from bridge.loop.service import SeriesService
from bridge.loop.store import SeriesStore, StoreError
from bridge.minecraft.items import give_once, item_stack
from bridge.minecraft.syntax import check_command
from bridge.sandbox import Sandbox
from bridge.sandbox.world import World
from engine.actions import Advance, StartSeries, TimerExpired
from engine.ids import Allegiance, Item, Place, Power, Twist
from engine.rulesets.traitors.game import Game
from engine.rulesets.traitors.phases import Phase
from engine.rulesets.traitors.settings import DealEntry, Settings

NAMES = ("Alex", "Kai", "Zuri", "Sunny", "Efe", "Noor")
HOST = "Hostess"
PASSWORD = "store-test-pw"


def dealt_settings(**durations: float) -> Settings:
    deal = tuple(
        DealEntry(n, Allegiance.TRAITOR if n == "Sunny" else Allegiance.FAITHFUL, Power.SOBER if n == "Kai" else None)
        for n in NAMES
    )
    return Settings(contestants=NAMES, hosts=(HOST,), deal=deal, twists={1: (Twist.DOUBLE_VOTE,)}, durations=durations)


# ---------------------------------------------------------------------------------------------- settings JSON


@pytest.mark.parametrize(
    "settings",
    [
        demo_settings(12),
        demo_settings(16),
        dealt_settings(vote=7, oath=3.5),
        Settings(contestants=NAMES + ("Lena", "Omar", "Rhea"), traitors=2, joker_night=3, joker_outcome="traitors_win"),
        demo_settings(9, "black_knights"),
        demo_settings(10, "mafia_yakuza"),
    ],
)
def test_settings_survive_json_unchanged(settings: Settings) -> None:
    data = json.loads(json.dumps(settings_to_json(settings)))
    assert settings_from_json(data) == settings


def test_bad_settings_json_names_the_source_and_key() -> None:
    data = settings_to_json(demo_settings(8))
    data["drunk"] = "sometimes"
    with pytest.raises(ScenarioError) as err:
        settings_from_json(data, "series.db: series 3")
    assert str(err.value).startswith("series.db: series 3: drunk")


# ---------------------------------------------------------------------------------------------- the store


def test_an_input_and_its_outbox_are_stored_together(tmp_path: Path) -> None:
    db = tmp_path / "series.db"
    with SeriesStore(db) as store:
        series = store.create(dealt_settings(), 9)
        pos = store.record(
            series,
            entry={"now": 1.0, "action": "start_series"},
            commands=["say a", "say b", "say c"],
            queue_seq=None,
            phase_seq=1,
            deadline=301.0,
        )
        store.mark_sent(series, pos, 0)
        store.record(
            series,
            entry=None,
            commands=['tellraw Kai {text:"no"}'],
            queue_seq=4,
            source={"player": "Kai", "input": "vote", "value": 2},
        )
    assert store.db is not None
    with SeriesStore(db) as again:
        loaded = again.load(again.latest() or 0)
    assert loaded.settings == dealt_settings() and loaded.seed == 9 and loaded.tag == series.tag
    assert loaded.log == [{"now": 1.0, "action": "start_series"}]
    assert loaded.last_seq == 4 and loaded.sources == {4: {"player": "Kai", "input": "vote", "value": 2}}
    assert [(p.pos, p.i, p.text) for p in loaded.pending] == [
        (0, 1, "say b"),
        (0, 2, "say c"),
        (1, 0, 'tellraw Kai {text:"no"}'),
    ]
    assert loaded.next_pos == 2 and loaded.deadline is None


def test_one_service_per_store(tmp_path: Path) -> None:
    db = tmp_path / "series.db"
    first = SeriesStore(db)
    first.create(dealt_settings(), 1)
    second = SeriesStore(db)
    first.lock()
    with pytest.raises(StoreError, match="another service"):
        second.lock()
    first.close()
    second.lock()  # released with the first process's file descriptor
    second.close()


def test_not_a_store_is_refused_with_the_path(tmp_path: Path) -> None:
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match=str(junk)):
        SeriesStore(junk)


def test_online_backup_holds_the_same_series(tmp_path: Path) -> None:
    with SeriesStore(tmp_path / "series.db") as store:
        series = store.create(demo_settings(8), 4)
        store.record(series, entry={"now": 0.0, "action": "start_series"}, commands=["say hi"])
        store.backup(tmp_path / "copy.db")
    with SeriesStore(tmp_path / "copy.db") as copy:
        loaded = copy.load(series.id)
    assert loaded.log == [{"now": 0.0, "action": "start_series"}] and loaded.settings == demo_settings(8)


# ---------------------------------------------------------------------------------------------- hand-outs


def test_handouts_follow_the_engine_items_with_private_numbers() -> None:
    """Over a whole random series: the numbered hand-outs are exactly the engine's items, numbered per holder."""
    settings = demo_settings(10)
    for seed in range(3):
        game, rng, now = Game(settings, seed), random.Random(seed), 0.0
        handouts = Handouts("t1")
        handouts.feed(game.handle(StartSeries(), now=now))
        while not game.is_over:
            now += 1.0
            legal = [a for n in game.contestants() for a in game.legal_actions(n)]
            action = rng.choice(legal) if legal and rng.random() < 0.9 else TimerExpired(game.phase_seq)
            handouts.feed(game.handle(action, now=now))
            for name in game.contestants():
                held = handouts.held.get(name, [])
                assert [(i, lab) for i, lab, _ in held] == game.items.get(name, [])
                numbers = [int(gid.rsplit("/", 1)[1]) for _, _, gid in held]
                assert all(gid.startswith(f"t1/{name}/") for _, _, gid in held)
                assert numbers == sorted(set(numbers)) and all(n <= handouts.counts[name] for n in numbers)


def test_world_state_is_the_last_place_and_the_items() -> None:
    game = Game(dealt_settings(), 1)
    game.handle(StartSeries(), now=0.0)
    state = game.world_state()
    assert state.places == dict.fromkeys(NAMES, (Place.FOYER, None))
    assert state.items == {n: [(Item.NOTES_BOOK, None)] for n in NAMES}
    assert state.phase_seq == 1 and state.deadline == game.deadline


def test_a_give_sent_twice_gives_one_item() -> None:
    world = World()
    world.join("Kai")
    stack = item_stack(Item.CAST_VOTE_PAPER, label="Alex", give_id="t1/Kai/3")
    command = give_once("Kai", stack, "t1/Kai/3").text
    check_command(command)
    assert world.execute(command) == "Gave 1 [Alex] to Kai"
    assert world.execute(command) == ""  # vanilla runs nothing when the `unless items` test fails
    other = give_once("Kai", item_stack(Item.VOTE_PAPER, give_id="t1/Kai/4"), "t1/Kai/4").text
    assert world.execute(other).startswith("Gave 1")
    assert (
        world.player("Kai").count_items("cast_vote_paper") == 1 and world.player("Kai").count_items("vote_paper") == 1
    )
    assert world.errors == []
    with pytest.raises(ValueError):
        give_once("Kai", item_stack(Item.VOTE_PAPER), "t1/Kai/5")  # the stack lacks the id


# ---------------------------------------------------------------------------------------------- resuming


def run_store(tmp: Path, settings: Settings, body) -> None:  # type: ignore[no-untyped-def]
    async def main() -> None:
        sb = Sandbox(PASSWORD, tick_rate=0)
        port = await sb.start()
        for name in (*NAMES, HOST):
            sb.world.join(name)
        store = SeriesStore(tmp / "series.db")
        store.create(settings, 3)
        try:
            async with RconClient("127.0.0.1", port, PASSWORD, timeout=5) as rcon:
                await body(sb, store, rcon)
        finally:
            store.close()
            await sb.stop()

    asyncio.run(main())


async def crash(service: SeriesService) -> None:
    """Stop a service the hard way: its clock stops, nothing is tidied up."""
    assert service.phase_clock.running
    service.phase_clock.close()


async def to_vote(service: SeriesService) -> None:
    while service.game.phase is not Phase.VOTE:
        if service.game.phase is Phase.OATH and service.game.legal_actions("Sunny"):  # else the clock runs on
            await service.apply(service.game.legal_actions("Sunny")[0])
            continue
        await service.apply(Advance(HOST))


def test_deadline_passed_while_down_fires_once_after_the_queued_inputs(tmp_path: Path) -> None:
    settings = dealt_settings(vote=0.6)

    async def body(sb: Sandbox, store: SeriesStore, rcon: RconClient) -> None:
        first = SeriesService.resume(store, 1, rcon, default_castle())
        await first.start()
        await to_vote(first)
        vote_seq = first.game.phase_seq
        sb.world.press_trigger("Kai", "traitors.vote", first.ctx.seats["Alex"])
        sb.world.tick()  # queued in the server, never polled: the service dies
        deadline = first.game.deadline
        assert deadline is not None
        await crash(first)
        await asyncio.sleep(deadline - time.time() + 0.1)  # the vote's clock runs out while the service is down
        second = SeriesService.resume(store, 1, rcon, default_castle())
        assert second.game.phase is Phase.VOTE and second.game.phase_seq == vote_seq
        await second.start()
        end = time.monotonic() + 5
        while "timer_expired" not in [e["action"] for e in second.game.log] and time.monotonic() < end:
            await asyncio.sleep(0.01)
        kinds = [e["action"] for e in second.game.log]
        assert kinds[-2:] == ["cast_vote", "timer_expired"] and second.game.log[-1]["phase_seq"] == vote_seq
        assert second.game.phase is not Phase.VOTE
        await second._timer_fired(vote_seq)  # a late duplicate of the same job changes nothing
        assert [e["action"] for e in second.game.log] == kinds
        assert store.load(1).log == second.game.log
        await second.stop()

    run_store(tmp_path, settings, body)


def test_outbox_is_sent_and_the_world_resynced_on_start(tmp_path: Path) -> None:
    async def body(sb: Sandbox, store: SeriesStore, rcon: RconClient) -> None:
        first = SeriesService.resume(store, 1, rcon, default_castle())
        await first.start()
        await to_vote(first)
        await crash(first)
        series = store.load(1)
        # a crash after the commit of an input, before any of its commands went out
        store.record(series, entry=None, commands=['tellraw Kai {text:"left in the outbox"}'], queue_seq=None)
        store.db.execute("UPDATE outbox SET sent=0 WHERE pos=?", (series.next_pos - 1,))
        kai = sb.world.player("Kai")
        kai.inventory.clear()  # the server lost Kai's items (a rollback)
        kai.pos = (0.5, 100.0, 0.5)
        before = len(sb.world.command_log)
        second = SeriesService.resume(store, 1, rcon, default_castle())
        await second.start()
        assert kai.chat[-1].text == "left in the outbox"
        assert store.pending(store.load(1)) == []
        expected = second.game.world_state()
        assert sorted(s.custom_data["traitors"]["item"] for s in kai.inventory) == sorted(
            i.value for i, _ in expected.items["Kai"]
        )
        place, seat = expected.places["Kai"]
        loc = default_castle().location(place, seat)
        assert kai.pos == pytest.approx((loc.x, loc.y, loc.z))
        assert sb.world.bossbars["traitors:clock"].visible
        # a second start gives nothing again
        gave = sum(1 for r in sb.world.command_log[before:] if r.reply.startswith("Gave"))
        third = SeriesService.resume(store, 1, rcon, default_castle())
        await third.start()
        assert gave > 0 and sum(1 for r in sb.world.command_log if r.reply.startswith("Gave")) == gave + sum(
            1 for r in sb.world.command_log[:before] if r.reply.startswith("Gave")
        )
        await third.stop()

    run_store(tmp_path, dealt_settings(), body)


def test_a_taken_queue_entry_is_only_acked_after_a_restart(tmp_path: Path) -> None:
    async def body(sb: Sandbox, store: SeriesStore, rcon: RconClient) -> None:
        first = SeriesService.resume(store, 1, rcon, default_castle())
        await first.start()
        await to_vote(first)
        sb.world.press_trigger("Kai", "traitors.vote", first.ctx.seats["Alex"])
        sb.world.tick()
        # take the entry, but die before the ack: apply it by hand the way poll_once does
        entry = {"seq": 1, "player": "Kai", "input": "vote", "value": first.ctx.seats["Alex"]}
        await first.apply_entry(entry)
        await crash(first)
        second = SeriesService.resume(store, 1, rcon, default_castle())
        assert second.last_seq == 1
        votes = sum(1 for e in second.game.log if e["action"] == "cast_vote")
        await second.start()
        assert sum(1 for e in second.game.log if e["action"] == "cast_vote") == votes == 1
        assert sb.world.storage_python("traitors:io").get("queue", []) == []
        # the server's storage rolled back and reused seq 1 for another click: that one is taken
        sb.world.storage.clear()
        sb.world.unlocked.add(("Zuri", "traitors.vote"))
        sb.world.press_trigger("Zuri", "traitors.vote", first.ctx.seats["Kai"])
        sb.world.tick()
        await second.poll_once()
        assert [e.get("voter") for e in second.game.log if e["action"] == "cast_vote"] == ["Kai", "Zuri"]
        await second.stop()

    run_store(tmp_path, dealt_settings(), body)


def test_replay_from_the_store_is_exact(tmp_path: Path) -> None:
    settings = dataclasses.replace(demo_settings(8))
    with SeriesStore(tmp_path / "s.db") as store:
        series = store.create(settings, 12)
        game, rng, now = Game(settings, 12), random.Random(1), time.time()
        game.handle(StartSeries(), now=now)
        store.record(series, entry=game.log[-1], commands=[])
        while not game.is_over:
            now += 0.5
            legal = [a for n in game.contestants() for a in game.legal_actions(n)]
            n = len(game.log)
            game.handle(rng.choice(legal) if legal and rng.random() < 0.9 else TimerExpired(game.phase_seq), now=now)
            if len(game.log) > n:
                store.record(series, entry=game.log[-1], commands=[])
        again = rebuild(store.load(series.id)).game
    assert again.record.to_dict() == game.record.to_dict() and again.log == game.log
