// Exercises every MSMP method family of a server with the client library mc-server-management, over wss://,
// and prints what it got as one JSON object. Usage: node run.mjs <wss-url> <secret> <ca-file> <kick-uuid>
import {readFileSync} from "node:fs";
import {Message, MinecraftServer, Player, WebSocketConnection} from "mc-server-management";

const [url, secret, caFile, kickId] = process.argv.slice(2);
const names = (list) => list.map((p) => p.name ?? p.player?.name ?? p.ip);
const out = {};

const connection = await WebSocketConnection.connect(url, secret, {ca: readFileSync(caFile), reconnect: false});
const server = new MinecraftServer(connection);

const status = await server.getStatus();
out.status = {started: status.started, players: names(status.players), protocol: status.version.protocol};
out.registry = await server.hasGameRulesRegistry();

const allowlist = server.allowlist();
await allowlist.add(["Alice", "Bob"]);
await allowlist.remove("Bob");
out.allowlist = names(await allowlist.get(true));
await allowlist.clear();
out.allowlist_cleared = names(await allowlist.get(true));

const ops = server.operatorList();
await ops.add("Alice", 2, true);
const op = (await ops.get(true))[0];
out.operator = {name: op.player.name, level: op.permissionLevel, bypasses: op.bypassesPlayerLimit};
await ops.remove("Alice");
out.operators_after = (await ops.get(true)).length;

const bans = server.banList();
await bans.add("Mallory", "griefing");
const ban = (await bans.get(true))[0];
out.ban = {name: ban.player.name, reason: ban.reason, source: ban.source};
await bans.remove("Mallory");
out.bans_after = (await bans.get(true)).length;

const ipBans = server.ipBanList();
await ipBans.add("203.0.113.7", "spam");
out.ip_bans = names(await ipBans.get(true));
await ipBans.remove("203.0.113.7");
out.ip_bans_after = (await ipBans.get(true)).length;

const settings = server.settings();
out.difficulty = await settings.getDifficulty();
await settings.setDifficulty("hard");
out.difficulty_set = await settings.getDifficulty();
out.motd = await settings.getMOTD();
out.max_players = await settings.getMaxPlayers();

const rules = await server.getGameRules(true);
out.gamerule_count = rules.size;
out.advance_time = rules.get("minecraft:advance_time")?.value;
const updated = await server.updateGameRule("minecraft:advance_time", false);
out.advance_time_updated = {key: updated.key, value: updated.value};

out.overlay = await server.sendSystemMessage("Night falls", "Alice", true);
out.translated = await server.sendSystemMessage(Message.translatable("traitors.banish.result", ["Bob"]), "Alice");
out.kicked = names(await server.kickPlayers(Player.withId(kickId)));

await server.save(true);
out.saved = true;
out.stopped = await server.stop();

console.log(JSON.stringify(out));
process.exit(0);
