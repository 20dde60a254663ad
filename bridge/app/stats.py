"""``traitors stats``: the records database's figures for scripts (``--json``) or a person (text), and the balance
lab's prediction for every recorded setup, cached in the database (``docs/seasons.md``).

House rules of this file:

1. The figures are ``bridge.records.stats.figures``: the very numbers the stats pages show.
2. A setup's prediction is ``traitors simulate`` for the same settings: the setup's knobs, the demo's names for its
   number of contestants (as ``simulate --settings FILE`` plays a series file that names no one), the lab's
   seeds (``--seed``) and smart bots, ``lab_series`` series. It is made once per setup and lab run and kept in
   the database (``predictions``), so pages never play a series; ``--refresh-lab`` makes them again (after the
   rules changed, say).
3. ``--no-lab`` reads only what is cached: no series is played.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TextIO

from bridge.app.demo_settings import DEMO_NAMES
from bridge.app.simulate import run
from bridge.config.settings_json import settings_from_json
from bridge.records.db import RecordsDb
from bridge.records.stats import LAB_BOTS, figures, lab_key
from engine.errors import ConfigError
from engine.rulesets import ruleset_of
from engine.sim import series_seeds, summary

__all__ = ["LAB_BOTS", "fill_predictions", "lab_key", "predict", "run_stats", "settings_of_setup"]


def settings_of_setup(setup: Mapping[str, Any]) -> Any:
    """The engine settings the lab plays for a recorded setup (house rule 2).

    Raises:
        ConfigError: the setup no longer makes valid settings (a ruleset that changed its settings).
    """
    data = {k: v for k, v in setup.items() if k != "contestants"}
    count = int(setup.get("contestants", 0))
    if not 1 <= count <= len(DEMO_NAMES):
        raise ConfigError(f"setup: {count} contestants")
    data["contestants"] = list(DEMO_NAMES[:count])
    data["hosts"] = []
    return settings_from_json(data, "recorded setup")


def predict(setup: Mapping[str, Any], series: int, seed: int, jobs: int = 1) -> dict[str, Any]:
    """``traitors simulate`` for a setup (house rule 2): its ``--json`` summary.

    Raises:
        ConfigError: as ``settings_of_setup``.
    """
    settings = settings_of_setup(setup)
    tally = run(settings, series_seeds(seed, series), bots=LAB_BOTS, jobs=jobs)
    return summary(
        tally, ruleset=ruleset_of(settings).name, contestants=len(settings.contestants), seed=seed, bots=LAB_BOTS
    )


def fill_predictions(
    db: RecordsDb, series: int, seed: int, *, jobs: int = 1, refresh: bool = False, err: TextIO | None = None
) -> int:
    """Make and cache the prediction of every recorded setup that has none for this lab run (house rule 2).

    Returns:
        How many predictions were made.

    Raises:
        RecordsUnavailable: the database cannot be used.
    """
    lab = lab_key(series, seed)
    have = {} if refresh else db.predictions(lab)
    made = 0
    for key, (ruleset, setup) in db.setups().items():
        if key in have:
            continue
        if err is not None:
            print(
                f"balance lab: {series} series of setup {key} ({ruleset}, {setup.get('contestants')} contestants)",
                file=err,
                flush=True,
            )
        try:
            result = predict(setup, series, seed, jobs)
        except ConfigError as exc:
            if err is not None:
                print(f"traitors: setup {key}: no prediction ({exc})", file=err)
            continue
        db.put_prediction(key, lab, ruleset, result)
        made += 1
    return made


def run_stats(
    db: RecordsDb,
    *,
    season: str | None,
    castle: str | None,
    as_json: bool,
    lab_series: int,
    lab_seed: int,
    lab: bool = True,
    refresh: bool = False,
    jobs: int = 1,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """``traitors stats``: fill the lab's predictions (unless ``lab`` is off), then print the figures.

    Returns:
        0.

    Raises:
        ConfigError: a SQLite records database that does not exist (reading does not create it).
        RecordsUnavailable: the database cannot be used.
    """
    if db.backend == "sqlite" and not Path(db.target).is_file():  # reading must not leave an empty database behind
        raise ConfigError(
            f"{db.target}: no records database here (`traitors serve` and `traitors records import` create it)"
        )
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    if lab:
        fill_predictions(db, lab_series, lab_seed, jobs=jobs, refresh=refresh, err=None if as_json else err)
    data = figures(
        db.series(season=season, castle=castle),
        db.predictions(lab_key(lab_series, lab_seed)),
        season=season,
        castle=castle,
    )
    data["lab"] = {"bots": LAB_BOTS, "series": lab_series, "seed": lab_seed}
    if as_json:
        out.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    else:
        out.write(format_text(data) + "\n")
    return 0


def _pct(x: float) -> str:
    return f"{100 * x:5.1f} %"


def _interval(r: Mapping[str, Any]) -> str:
    return f"{_pct(r['rate'])} [{_pct(r['ci95'][0]).strip()}, {_pct(r['ci95'][1]).strip()}]"


def format_text(data: Mapping[str, Any]) -> str:
    """The human-readable form of ``figures`` (the leaderboard, each setup against the lab, the powers)."""
    where = ", ".join(f"{k} {data[k]}" for k in ("season", "castle") if data.get(k))
    lines = [f"Records: {data['series']} series" + (f" ({where})" if where else ""), ""]
    if data["leaderboard"]:
        lines.append("Leaderboard (wins; win rate with its 95 % interval):")
        for p in data["leaderboard"][:20]:
            lines.append(
                f"  {p['rank']:>3}. {p['name']:<16} {p['wins']:>3} of {p['series']:<3} {_interval(p['win_rate'])}"
            )
        lines.append("")
    for s in data["setups"]:
        lines.append(
            f"Setup {s['key']} ({s['ruleset']}, {s['setup'].get('contestants')} contestants): {s['series']} series"
        )
        for side, r in s["wins"].items():
            check = s["check"].get(side)
            lab = f"  lab {_interval(check['lab'])}  gap {100 * check['gap']:+.1f} points" if check else ""
            lines.append(f"  {side:<14} {_interval(r)}{lab}")
        if s["lab"] is None:
            lines.append("  (no lab prediction yet)")
        lines.append("")
    if data["powers"]:
        lines.append("Powers and roles on the winning side (holders):")
        for power, r in sorted(data["powers"].items(), key=lambda kv: (-kv[1]["rate"], kv[0])):
            lines.append(f"  {power:<26} {_interval(r)}  {r['k']} of {r['n']}")
    return "\n".join(lines).rstrip()
