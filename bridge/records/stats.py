"""The figures of the stats pages and ``traitors stats --json``, computed in one place from the records database's
rows (``docs/seasons.md``, "The figures"). Everything here is a pure function of the rows and the cached lab results.

* **Players** (by contestant name): series played, wins (the record's winners) by the side they ended on, series
  they ended on the winning side, powers held (the game log's names: "The Drunk Cleanser"; "no power"), series
  survived to the end (never banished, murdered or otherwise out), votes cast and votes that found the other side
  (a vote naming a Traitor; in the club rulesets, an opponent: ``bridge/records/entry.py``).
* **Leaderboard**: the players by wins, then by the lower end of their win rate's 95 % interval (so one lucky
  series does not top many good ones), then by name.
* **Powers** (and club roles): holders dealt, holders who ended on the winning side, that share with its 95 %
  interval: what the balance lab calls "on the winning side" (``engine.sim.Tally``).
* **Twists**: the series that had each twist (``engine.sim.twists_of``), and each side's share of them.
* **Setups** (``bridge/records/entry.py``): each side's win rate with its 95 % Wilson interval; beside it the
  balance lab's rate for the same setup (``traitors simulate``, cached per setup) with its interval, and the gap
  (real minus lab) with its 95 % interval (Newcombe's hybrid score interval for a difference of two proportions,
  built from the two Wilson intervals). A gap whose interval holds 0 is one the lab's bots are not shown to miss.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from bridge.records.db import StoredSeries
from engine.sim import wilson

__all__ = ["LAB_BOTS", "NO_POWER", "figures", "gap", "lab_key", "rate"]

LAB_BOTS = "smart"
"""The bots of a setup's prediction (``traitors simulate``'s default; ``bridge/app/stats.py``)."""


def lab_key(series: int, seed: int) -> str:
    """The lab run a cached prediction was made with: bots, series, seed and Castle's version (a new version may
    play differently, so its predictions are made again)."""
    try:
        release = version("castle-traitors")
    except PackageNotFoundError:
        release = "unknown"
    return f"{LAB_BOTS}:{series}:{seed}:{release}"


NO_POWER = "no power"
"""A seat dealt no power or role (the balance lab's word for it, ``engine.sim``)."""

_DIGITS = 4


def _r(x: float) -> float:
    return round(x, _DIGITS)


def rate(successes: int, trials: int) -> dict[str, Any]:
    """``{"n", "k", "rate", "ci95": [low, high]}`` (rate 0 and interval [0, 1] when ``trials`` is 0)."""
    low, high = wilson(successes, trials)
    return {"k": successes, "n": trials, "rate": _r(successes / trials) if trials else 0.0, "ci95": [_r(low), _r(high)]}


def gap(real: Mapping[str, Any], lab: Mapping[str, Any]) -> dict[str, Any]:
    """Real minus lab, with Newcombe's 95 % interval (module docstring) and whether it holds 0.

    Args:
        real, lab: ``{"rate", "ci95": [low, high]}`` each.
    """
    p1, (l1, u1) = float(real["rate"]), real["ci95"]
    p2, (l2, u2) = float(lab["rate"]), lab["ci95"]
    d = p1 - p2
    low = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return {"gap": _r(d), "ci95": [_r(low), _r(high)], "agrees": low <= 0.0 <= high}


def _sides(series: Iterable[StoredSeries]) -> list[str]:
    """Winning sides in order of how often they won (then by name)."""
    count: dict[str, int] = {}
    for s in series:
        w = str(s.columns["winner"])
        count[w] = count.get(w, 0) + 1
    return sorted(count, key=lambda w: (-count[w], w))


def _players(series: Sequence[StoredSeries]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for s in series:
        for c in s.contestants:
            p = out.setdefault(
                str(c["name"]),
                {
                    "name": str(c["name"]),
                    "series": 0,
                    "wins": 0,
                    "winning_side": 0,
                    "survived": 0,
                    "by_side": {},
                    "powers": {},
                    "votes_cast": 0,
                    "votes_found": 0,
                    "votes_received": 0,
                    "rulesets": {},
                    "series_ids": [],
                },
            )
            p["series"] += 1
            p["series_ids"].append(s.id)
            won = bool(c["winner"])
            p["wins"] += int(won)
            p["winning_side"] += int(bool(c["winning_side"]))
            p["survived"] += int(c["out"] is None)
            side = p["by_side"].setdefault(str(c["side"]), {"played": 0, "won": 0})
            side["played"] += 1
            side["won"] += int(won)
            power = str(c["power"] or NO_POWER)
            p["powers"][power] = p["powers"].get(power, 0) + 1
            ruleset = str(s.columns["ruleset"])
            p["rulesets"][ruleset] = p["rulesets"].get(ruleset, 0) + 1
            for key in ("votes_cast", "votes_found", "votes_received"):
                p[key] += int(c[key])
    for p in out.values():
        p["win_rate"] = rate(p["wins"], p["series"])
        p["survival"] = rate(p["survived"], p["series"])
        p["found_rate"] = rate(p["votes_found"], p["votes_cast"])
    return out


def _leaderboard(players: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
    ranked = sorted(players.values(), key=lambda p: (-p["wins"], -p["win_rate"]["ci95"][0], p["name"]))
    board = []
    for i, p in enumerate(ranked, start=1):
        board.append(
            {
                "rank": i,
                "name": p["name"],
                "series": p["series"],
                "wins": p["wins"],
                "win_rate": p["win_rate"],
                "votes_found": p["votes_found"],
                "survived": p["survived"],
            }
        )
    return board


def _powers(series: Sequence[StoredSeries]) -> dict[str, dict[str, Any]]:
    dealt: dict[str, int] = {}
    won: dict[str, int] = {}
    ruleset: dict[str, str] = {}
    for s in series:
        for c in s.contestants:
            power = str(c["power"] or NO_POWER)
            dealt[power] = dealt.get(power, 0) + 1
            won[power] = won.get(power, 0) + int(bool(c["winning_side"]))
            ruleset.setdefault(power, str(s.columns["ruleset"]))
    return {p: {"ruleset": ruleset[p], **rate(won[p], n)} for p, n in sorted(dealt.items())}


def _twists(series: Sequence[StoredSeries]) -> dict[str, dict[str, Any]]:
    had: dict[str, list[StoredSeries]] = {}
    for s in series:
        for t in s.twists:
            had.setdefault(t, []).append(s)
    return {
        t: {
            "series": len(ss),
            "wins": {w: rate(sum(1 for s in ss if s.columns["winner"] == w), len(ss)) for w in _sides(ss)},
        }
        for t, ss in sorted(had.items())
    }


def _setups(series: Sequence[StoredSeries], lab: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
    groups: dict[str, list[StoredSeries]] = {}
    for s in series:
        groups.setdefault(str(s.columns["setup_key"]), []).append(s)
    out = []
    for key, ss in groups.items():
        first = ss[0].columns
        predicted = lab.get(key)
        lab_rates: Mapping[str, Any] = predicted.get("win_rates", {}) if predicted else {}
        sides = _sides(ss) + [w for w in lab_rates if w not in _sides(ss)]
        wins = {w: rate(sum(1 for s in ss if s.columns["winner"] == w), len(ss)) for w in sides}
        check = {}
        if predicted:
            for w in sides:
                lab_w = lab_rates.get(w, {"rate": 0.0, "ci95": list(wilson(0, int(predicted.get("series", 0))))})
                check[w] = {
                    "real": wins[w],
                    "lab": {"rate": lab_w["rate"], "ci95": lab_w["ci95"]},
                    **gap(wins[w], lab_w),
                }
        out.append(
            {
                "key": key,
                "ruleset": first["ruleset"],
                "setup": json.loads(first["setup"]),
                "series": len(ss),
                "wins": wins,
                "lab": None
                if not predicted
                else {
                    "series": predicted.get("series"),
                    "seed": predicted.get("seed"),
                    "bots": predicted.get("bots"),
                    "win_rates": lab_rates,
                },
                "check": check,
                "average_days": _r(sum(int(s.columns["days"]) for s in ss) / len(ss)),
            }
        )
    return sorted(out, key=lambda x: (-x["series"], x["key"]))


def figures(
    series: Sequence[StoredSeries],
    lab: Mapping[str, Mapping[str, Any]] | None = None,
    *,
    season: str | None = None,
    castle: str | None = None,
) -> dict[str, Any]:
    """Every figure of the stats pages (the module docstring) as JSON-ready data.

    Args:
        series: the recorded series to count (``RecordsDb.series``, already filtered by season or castle).
        lab: setup key → the balance lab's summary for it (``engine.sim.summary``; ``RecordsDb.predictions``).
        season, castle: the filters the series were read with (echoed in the result).

    Returns:
        ``{"season", "castle", "series", "wins", "players", "leaderboard", "powers", "twists", "setups",
        "recorded"}``: ``players`` by name; ``recorded`` one line per series (id, castle, season, ruleset,
        winner, days, contestants, duration in seconds, setup key).
    """
    players = _players(series)
    return {
        "season": season,
        "castle": castle,
        "series": len(series),
        "wins": {w: rate(sum(1 for s in series if s.columns["winner"] == w), len(series)) for w in _sides(series)},
        "players": dict(sorted(players.items())),
        "leaderboard": _leaderboard(players),
        "powers": _powers(series),
        "twists": _twists(series),
        "setups": _setups(series, lab or {}),
        "recorded": [
            {
                k: s.columns[k]
                for k in (
                    "id",
                    "castle",
                    "season",
                    "ruleset",
                    "winner",
                    "termination",
                    "days",
                    "contestants",
                    "duration",
                    "ended",
                    "minecraft",
                    "setup_key",
                )
            }
            for s in series
        ],
    }
