"""The game record as text, MediaWiki or JSON (``traitors play --format``; ``docs/game-log.md``).

``format_record(record, fmt)`` renders a finished (or unfinished) ``SeriesRecord``:

* ``json``: the JSON game log, ``json.dumps(record.to_dict(), indent=2, ensure_ascii=False)``.
* ``text``: Markdown-style sections; tables are pipe tables written exactly as the rulebook writes them, so
  the rulebook's Day One table (§4) and finale table (§9) appear in it line for line.
* ``wiki``: the same sections, rows and columns as MediaWiki ``{| class="wikitable" … |}`` tables.

What is shown (one section per record event, in order):

* **Cast**: seat, contestant, allegiance (and recruitment), power ("The Drunk X" for a drunk power, rulebook
  §2; "(false: …)" for a Traitor's false power, as the rulebook's example deal writes it), how and when they
  left the series, and "Winner".
* **Night N**: who took the Oath, the Turret's event, its target and result, the double vote holder named,
  the Joker offer, and every power used in the night order with its targets and the answer given ("The Drunk
  X" for a use while drunk or intoxicated).
* **Breakfast, day N**: arrival order and who was murdered.
* **Round table, day N** (rulebook §4): Day, Result ("Sunny banished (Traitor)" / "Noor banished (no
  reveal)"), Vote count per vote round ("4-4-1-1", "6-2"), then one row per contestant present (seat order)
  with one column per vote round (plus the silenced, the Sheriff's accusation, the Judge's protection, the
  Survivor's murder and the Joker when they happen) ("First vote", "Revote", "Second vote"); a contestant without a paper or who
  did not vote is "No vote"; a double vote paper is written "Sunny×2".
* **Finale** (rulebook §9): one row per finalist; columns "Vote 1", "Banishment", "Vote 2", … in the order
  they happened (torch votes as "Banish Again" / "End Game", banishment votes as the name written),
  "Banished" in every column after a finalist's banishment, and "Winner" in the last column ("Result") for
  the winners; then the count of every column ("2-2", "3-1", "3-0").
* **Result**: how the series ended, then the winner line ("Faithful win" / "Traitors win") and the winners.
* **Contestants** (a per-contestant summary): allegiance and power (team and role) as in the cast, the counts
  that mean something in the ruleset (``bridge.app.summary``: the Traitors' round tables attended, votes cast, votes
  for a Traitor, votes received; the club rulesets' days lived, votes cast, votes for an opponent …), and the
  result.
* **Host actions** (when there were any besides moving on): who did what, when (``SeriesRecord.host_actions``).

``load_record`` reads the record of a stored series (``series.db``; replayed from its input log) or plays a
scenario file, for ``traitors export``.

Everything here is a pure function of the record: the same record always gives the same text.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from bridge.app.summary import columns, summarize
from engine.core.host import HOST_CONTROLS
from engine.ids import Torch
from engine.outcome import Winner
from engine.record import (
    BreakfastRecord,
    ClubDayRecord,
    ClubNightRecord,
    ContestantRecord,
    NightRecord,
    RoundTableRecord,
    SeriesRecord,
    TorchRound,
    TwistRecord,
    VoteRound,
)
from engine.rulesets import RULESETS

FORMATS: tuple[str, ...] = ("text", "wiki", "json")
"""The output formats of ``format_record``."""

NO_VOTE = "No vote"
"""A contestant present at the vote who cast no paper (rulebook §4 Day One table)."""
BANISHED = "Banished"
WINNER = "Winner"
DOUBLE = "×2"
"""Suffix of a double vote paper: "Sunny×2" (rulebook §4 Day One table)."""

ROUND_LABELS: dict[str, str] = {"first": "First vote", "revote": "Revote", "second": "Second vote"}
"""Column heading of each kind of vote round (``VoteRound.kind``)."""

ENDINGS: dict[str, str] = {
    "finale_agreed": "Every finalist chose End Game.",
    "two_left": "Only two finalists remained.",
    "no_traitors": "No Traitor remained in the castle.",
    "joker_banished": "The Joker was banished.",
    "faction_won": "The win check found a winner.",
    "all_dead": "Nobody was left alive.",
    "day_limit": "The series reached its day limit.",
}
"""How the series ended (``SeriesRecord.termination``) in words."""

TITLES: dict[str, str] = {name: r.title for name, r in RULESETS.items()}
"""The heading of the text record per ruleset (``engine.core.ruleset.Ruleset.title``)."""


# ---------------------------------------------------------------------------------------------- the model
# Both text and wiki render the same sections, so they always show the same rows and columns.


@dataclass(slots=True)
class _Table:
    header: list[str]
    rows: list[list[str]]
    row_headers: bool = False
    """Whether the first cell of each row names the row (voter, finalist): a ``!`` cell in wiki."""
    footer: list[str] | None = None
    """A last row (the finale's vote counts): text shows it as a line under the table."""


@dataclass(slots=True)
class _Section:
    title: str
    facts: list[tuple[str, list[str]]] = field(default_factory=list)
    """Labelled values shown before the table; a fact with several values has one per table column."""
    table: _Table | None = None
    closing: list[str] = field(default_factory=list)
    """Lines after everything else (the winner line)."""


def format_record(record: SeriesRecord, fmt: str) -> str:
    """Render a series record.

    Args:
        record: the record (``Game.record``), finished or not.
        fmt: ``"text"``, ``"wiki"`` or ``"json"``.

    Returns:
        The rendered record, without a trailing newline.

    Raises:
        ValueError: ``fmt`` is not one of ``FORMATS``.
    """
    if fmt == "json":
        data = record.to_dict()
        data["summary"] = summarize(record)
        return json.dumps(data, indent=2, ensure_ascii=False)
    if fmt == "text":
        return _render_text(_sections(record), TITLES.get(record.ruleset, record.ruleset))
    if fmt == "wiki":
        return _render_wiki(_sections(record))
    raise ValueError(f"unknown format {fmt!r} (known: {', '.join(FORMATS)})")


# ---------------------------------------------------------------------------------------------- sections


def _sections(record: SeriesRecord) -> list[_Section]:
    sections = [_cast(record)]
    events = record.events
    i = 0
    while i < len(events):
        e = events[i]
        if isinstance(e, ClubNightRecord):
            sections.append(_club_night(e))
        elif isinstance(e, ClubDayRecord):
            sections.append(_club_day(e))
        elif isinstance(e, NightRecord):
            sections.append(_night(e))
        elif isinstance(e, BreakfastRecord):
            sections.append(_breakfast(e))
        elif isinstance(e, RoundTableRecord) and not e.finale:
            sections.append(_round_table(e))
        elif isinstance(e, TwistRecord):
            sections.append(_twist(e))
        else:
            # The finale: every torch vote and finale banishment from here on (rulebook §9).
            finale: list[TorchRound | RoundTableRecord] = []
            while i < len(events):
                x = events[i]
                if not (isinstance(x, TorchRound) or (isinstance(x, RoundTableRecord) and x.finale)):
                    break
                finale.append(x)
                i += 1
            sections.append(_finale(record, finale))
            continue
        i += 1
    sections.append(_summary(record))
    hosts = _host_actions(record)
    if hosts is not None:
        sections.append(hosts)
    sections.append(_result(record))
    return sections


def _names(names: Sequence[str], none: str = "nobody") -> str:
    return ", ".join(names) if names else none


def _cast(record: SeriesRecord) -> _Section:
    finale_banished = {e.banished for e in record.events if isinstance(e, RoundTableRecord) and e.finale and e.banished}
    rows = []
    for c in record.contestants:
        rows.append(
            [
                str(c.seat),
                c.name,
                _allegiance(c),
                _power(c),
                left_text(c, c.name in finale_banished),
                WINNER if c.winner else "",
            ]
        )
    header = ["Seat", "Contestant", *_hand_headings(record), "Left the series", "Result"]
    return _Section("Cast", table=_Table(header, rows))


def _allegiance(c: ContestantRecord) -> str:
    if c.allegiance not in ("traitor", "faithful"):
        return c.allegiance.replace("_", " ").capitalize()
    text = "Traitor" if c.allegiance == "traitor" else "Faithful"
    if c.recruited_day is not None:
        text += f", recruited on night {c.recruited_day}"
    return text


def _power(c: ContestantRecord) -> str:
    text = c.power or "No power"
    if c.false_power:
        text += f" (false: {c.false_power})"
    return text


def left_text(c: ContestantRecord, in_finale: bool) -> str:
    """How and when ``c`` left: ``"Banished on day 4"``, ``"Murdered on night 2"``, ``"Banished in the finale"``
    (``in_finale``); ``""`` when still in."""
    if c.out == "banished":
        return "Banished in the finale" if in_finale else f"Banished on day {c.out_day}"
    if c.out in ("murdered", "killed"):
        return f"{c.out.capitalize()} on night {c.out_day}"
    if c.out:
        return f"{c.out.capitalize()} on day {c.out_day}"
    return ""


def _night(n: NightRecord) -> _Section:
    facts: list[tuple[str, list[str]]] = [("Oath", [_names(n.sworn)])]
    if n.event:
        facts += [
            ("Event", [n.event.capitalize()]),
            ("Target", [n.target or "nobody"]),
            ("Result", [(n.result or "none").capitalize()]),
        ]
    else:
        facts.append(("Event", ["None"]))
    if n.double_vote:
        facts.append(("Double vote", [n.double_vote]))
    if n.joker:
        answer = "accepted" if n.joker.get("accepted") else "declined"
        facts.append(("Joker", [f"offered to {n.joker.get('contestant')}, {answer}"]))
    for use in n.powers:
        # Rulebook §2: the record names an impaired use "The Drunk X".
        power = str(use.get("power", "")).capitalize()
        label = f"The Drunk {power}" if use.get("drunk") else f"The {power}"
        line = f"{use.get('contestant')}: {', '.join(use.get('targets') or []) or 'nobody named'}"
        if use.get("result"):
            line += f" — {use['result']}"
        facts.append((label, [line]))
    return _Section(f"Night {n.day}", facts)


def _club_night(n: ClubNightRecord) -> _Section:
    """A club night: every action in wake order, the blocked, mines, checks and deaths."""
    facts: list[tuple[str, list[str]]] = []
    for a in n.acts:
        who = a.get("contestant") or "the team (no agreement)"
        facts.append((str(a.get("step", "")).replace("_", " ").capitalize(), [f"{who}: {a.get('target') or 'passed'}"]))
    if n.blocked:
        facts.append(("Blocked", [_names(n.blocked)]))
    for mined, visitor, what in n.mines:
        facts.append(("Mine", [f"{mined}, first visitor {visitor}: {what}"]))
    for c in n.checks:
        facts.append(("Check", [f"{c['contestant']} → {c['answer']}"]))
    if n.saved:
        facts.append(("Saved by a heal", [_names(n.saved)]))
    if n.cured:
        facts.append(("Poison removed", [_names(n.cured)]))
    facts.append(("Died", [_names([f"{k} ({v})" for k, v in n.deaths.items()])]))
    return _Section(f"Night {n.night}", facts)


def _club_day(d: ClubDayRecord) -> _Section:
    """A club day: nominations, vote rounds (one column each), who left, the repeat vote."""
    facts: list[tuple[str, list[str]]] = [("Day", [str(d.day)])]
    if d.nominations:
        facts.append(("Nominations", [", ".join(f"{k}: {v or 'held back'}" for k, v in d.nominations.items())]))
    left = d.left or "nobody"
    if d.left and d.revealed:
        left += f" ({d.revealed.replace('_', ' ')})"
    facts.append(("Left", [left]))
    if d.repeat:
        facts.append(("Repeat vote", ["asked for by a majority"]))
    facts.append(("Vote count", [r.count for r in d.rounds] or ["none"]))
    columns = [ROUND_LABELS.get(r.kind, r.kind) for r in d.rounds]
    rows = [[v, *(_vote_cell(r, v) for r in d.rounds)] for v in d.present]
    table = _Table(["Voter", *columns], rows, row_headers=True) if d.rounds else None
    return _Section(f"Day {d.day}", facts, table)


def _twist(t: TwistRecord) -> _Section:
    """One twist step (rulebook §8): its details as facts, in the order recorded."""
    facts = [
        (k.replace("_", " ").capitalize(), [", ".join(v) if isinstance(v, list) else str(v)])
        for k, v in t.details.items()
    ]
    return _Section(f"{t.twist.replace('_', ' ').capitalize()} twist, day {t.day}", facts)


def _breakfast(b: BreakfastRecord) -> _Section:
    return _Section(
        f"Breakfast, day {b.day}",
        [("Arrivals", [_names(b.arrivals)]), ("Murdered", [_names(b.murdered)])],
    )


def _vote_cell(r: VoteRound, voter: str) -> str:
    target = r.votes.get(voter)
    if target is None:
        return NO_VOTE
    return target + (DOUBLE if r.weights.get(voter, 1) == 2 else "")


def _banish_result(t: RoundTableRecord) -> str:
    if t.banished is None:
        return "No banishment yet"
    if t.revealed:
        return f"{t.banished} banished ({t.revealed.capitalize()})"
    return f"{t.banished} banished (no reveal)"


def _round_table(t: RoundTableRecord) -> _Section:
    columns = [ROUND_LABELS.get(r.kind, r.kind) for r in t.rounds]
    facts: list[tuple[str, list[str]]] = [
        ("Day", [str(t.day)]),
        ("Result", [_banish_result(t)]),
        ("Vote count", [r.count for r in t.rounds] or ["none"]),
    ]
    if t.double_vote:
        facts.append(("Double vote", [t.double_vote]))
    if t.silenced:
        facts.append(("Silenced", [_names(t.silenced)]))
    if t.accused:
        facts.append(("Sheriff's accusation", [f"{t.accused}: {t.accusation}"]))
    if t.protected and t.protection_used:
        facts.append(("Judge's protection", [f"{t.protected} protected; next most votes banished"]))
    if t.deadlock:
        facts.append(("Deadlock", [f"{_names(t.deadlock)}; {t.banished} drew the empty chest"]))
    if t.survivor_murdered:
        facts.append(("Survivor", [f"{t.survivor_murdered} murdered after the round table"]))
    if t.joker:
        facts.append(("Joker", [f"{t.banished} was the Joker: the series ends"]))
    rows = [[voter, *(_vote_cell(r, voter) for r in t.rounds)] for voter in t.present]
    table = _Table(["Voter", *columns], rows, row_headers=True) if t.rounds else None
    return _Section(f"Round table, day {t.day}", facts, table)


def _finale(record: SeriesRecord, events: list[TorchRound | RoundTableRecord]) -> _Section:
    """Rulebook §9's finale table: one row per finalist, one column per torch vote or banishment vote."""
    finalists: list[str] = []
    for e in events:
        for name in e.choices if isinstance(e, TorchRound) else e.present:
            if name not in finalists:
                finalists.append(name)
    seats = {c.name: c.seat for c in record.contestants}
    finalists.sort(key=lambda n: seats.get(n, 0))
    winners = {c.name for c in record.contestants if c.winner}
    banishments = sum(1 for e in events if isinstance(e, RoundTableRecord))
    header = ["Finalist"]
    counts = [""]
    cells: dict[str, list[str]] = {n: [n] for n in finalists}
    out: set[str] = set()
    votes = banish_no = 0
    facts: list[tuple[str, list[str]]] = []
    for e in events:
        if isinstance(e, TorchRound):
            votes += 1
            header.append(f"Vote {votes}")
            counts.append(e.count)
            for n in finalists:
                if n in out:
                    cells[n].append(BANISHED)
                elif e.choices.get(n) is None:
                    cells[n].append("No torch")
                else:
                    cells[n].append(Torch(e.choices[n]).title)
            continue
        banish_no += 1
        base = "Banishment" if banishments == 1 else f"Banishment {banish_no}"
        for k, r in enumerate(e.rounds):
            header.append(base if k == 0 else f"{base} ({ROUND_LABELS.get(r.kind, r.kind).lower()})")
            counts.append(r.count)
            for n in finalists:
                cells[n].append(_vote_cell(r, n) if n in e.present and n not in out else BANISHED)
        if e.deadlock:
            facts.append((f"Deadlock ({base})", [f"{_names(e.deadlock)}; {e.banished} drew the empty chest"]))
        if e.banished:
            out.add(e.banished)
    header.append("Result")
    counts.append("")
    rows = [cells[n] + [WINNER if n in winners else ""] for n in finalists]
    return _Section("Finale", facts, _Table(header, rows, row_headers=True, footer=["Vote count", *counts[1:]]))


def _result(record: SeriesRecord) -> _Section:
    if record.winner is None:
        return _Section("Result", closing=["Series not finished"])
    lines = []
    if record.termination in ENDINGS:
        lines.append(ENDINGS[record.termination])
    lines.append(Winner(record.winner).title)
    winners = [c.name for c in record.contestants if c.winner]
    lines.append(f"Winners: {_names(winners)}")
    return _Section("Result", closing=lines)


def _summary(record: SeriesRecord) -> _Section:
    """The "Contestants" table: the counted columns of the record's ruleset (``bridge.app.summary.COLUMNS``)."""
    finale_banished = {e.banished for e in record.events if isinstance(e, RoundTableRecord) and e.finale and e.banished}
    by_name = {c.name: c for c in record.contestants}
    counted = columns(record.ruleset)
    rows = []
    for s in summarize(record):
        c = by_name[s["name"]]
        rows.append(
            [
                c.name,
                _allegiance(c),
                _power(c),
                *(str(s[key]) for _, key in counted),
                left_text(c, c.name in finale_banished) or (_to_the_end(record) if record.winner else "Still in"),
                WINNER if c.winner else "",
            ]
        )
    header = ["Contestant", *_hand_headings(record), *(title for title, _ in counted), "Series", "Result"]
    return _Section("Contestants", table=_Table(header, rows, row_headers=True))


def _to_the_end(record: SeriesRecord) -> str:
    """A contestant still in when the series ended: the ruleset's word (``Ruleset.survivor``: "Finalist" for the
    Traitors, "Alive at the end" for the clubs; an unknown ruleset: the latter)."""
    spec = RULESETS.get(record.ruleset)
    return spec.survivor if spec is not None else "Alive at the end"


def _hand_headings(record: SeriesRecord) -> list[str]:
    """What a contestant was dealt (``Ruleset.hand``): "Allegiance", "Power" (the Traitors) or "Team", "Role" (the
    club rulesets; an unknown ruleset too)."""
    spec = RULESETS.get(record.ruleset)
    return list(spec.hand) if spec is not None else ["Team", "Role"]


HOST_ACTION_TITLES: dict[str, str] = {
    "ask_happy": "Asked whether everybody is happy",
    "start_twist": "Started a twist",
    "cancel_twist": "Cancelled a twist",
}
"""The record's titles of the host actions that are not host controls (a host control's is its spec's ``title``;
moving on, ``advance``, is routine and left out of the section)."""


def host_action_titles() -> dict[str, str]:
    """Every host action the record's "Host actions" shows → its title: ``HOST_ACTION_TITLES`` and every
    registered host control's (``engine.core.host_spec.HOST_CONTROLS``)."""
    return {**HOST_ACTION_TITLES, **{cls.kind: spec.title for cls, spec in HOST_CONTROLS.items()}}


def _host_actions(record: SeriesRecord) -> _Section | None:
    rows = []
    titles = host_action_titles()
    for a in getattr(record, "host_actions", []):
        if a.get("action") not in titles:
            continue
        what = titles[a["action"]]
        if a.get("detail"):
            what += f": {a['detail']}"
        if a.get("undone"):
            what += " (undone)"
        rows.append(
            [a.get("host", ""), f"day {a.get('day')}, {a.get('phase')}", f"{float(a.get('at', 0)):.0f} s", what]
        )
    if not rows:
        return None
    return _Section("Host actions", table=_Table(["Host", "When", "Series time", "Action"], rows))


def load_record(source: str, series_id: int | None = None, *, reveal: bool = False) -> SeriesRecord:
    """The record of a stored series (replayed from its input log) or of a scenario file (played).

    The record names every Traitor and power, so a stored series that is still running is refused unless
    ``reveal`` is set: its secrets would reach whoever reads the export mid-series.

    Args:
        source: a series store (``series.db``) or a scenario file (``.toml``; ``docs/scenarios.md``).
        series_id: which series of the store (default: the newest).
        reveal: give the record of a series that is still running too.

    Raises:
        ConfigError: the file is missing, not a store or scenario, has no such series, does not replay, or
            the series is still running and ``reveal`` is not set.
    """
    from pathlib import Path

    from engine.errors import ConfigError, IllegalAction, InvalidCommand
    from engine.rulesets import replay

    if source.endswith(".toml"):
        from bridge.config.kinds import require_kind
        from bridge.config.play import play_scenario
        from bridge.config.scenario import load_scenario

        require_kind(source, "scenario")
        played: SeriesRecord = play_scenario(load_scenario(source)).record
        return played
    from bridge.loop.store import SeriesStore

    if not Path(source).is_file():
        raise ConfigError(f"{source}: no such series store")
    with SeriesStore(source, create=False) as store:
        sid = series_id if series_id is not None else store.latest()
        if sid is None:
            raise ConfigError(f"{source}: the store holds no series yet")
        if not reveal and not store.is_over(sid):
            raise ConfigError(
                f"{source}: series {sid} is still running and its record names every Traitor; "
                "add --reveal to print it anyway"
            )
        stored = store.load(sid)
    try:
        record: SeriesRecord = replay(stored.settings, stored.seed, stored.log).record
        return record
    except (IllegalAction, InvalidCommand) as exc:
        raise ConfigError(f"{source}: series {sid}: the input log does not replay ({exc})") from None


# ---------------------------------------------------------------------------------------------- text


def _pipe_row(cells: Sequence[str]) -> str:
    # An empty cell is "| |", as the rulebook's finale table writes it.
    return "|" + "|".join(f" {c} " if c else " " for c in cells) + "|"


def _render_text(sections: list[_Section], title: str = "The Traitors") -> str:
    out = [f"# {title}: series record"]
    for s in sections:
        out += ["", f"## {s.title}", ""]
        for label, values in s.facts:
            out.append(f"{label}: {', '.join(values)}")
        if s.table is not None:
            if s.facts:
                out.append("")
            t = s.table
            out.append(_pipe_row(t.header))
            out.append("|" + "|".join("---" for _ in t.header) + "|")
            out += [_pipe_row(r) for r in t.rows]
            if t.footer is not None:
                out.append(f"{t.footer[0]}: {', '.join(c for c in t.footer[1:] if c)}")
        if s.closing:
            if s.facts or s.table is not None:
                out.append("")
            out += s.closing
    return "\n".join(out)


# ---------------------------------------------------------------------------------------------- wiki


def _wiki_cells(cells: Sequence[str], sep: str) -> str:
    """One wiki row on one line: ``| a || b`` (``!`` for header cells)."""
    return (sep + (sep * 2).join(f" {c} " if c else " " for c in cells)).rstrip()


def _render_wiki(sections: list[_Section]) -> str:
    out: list[str] = []
    for s in sections:
        if out:
            out.append("")
        out.append(f"== {s.title} ==")
        t = s.table
        width = len(t.header) - 1 if t is not None else 1
        if s.facts or t is not None:
            out.append('{| class="wikitable"')
            first = True
            for label, values in s.facts:
                if not first:
                    out.append("|-")
                first = False
                out.append(f"! {label}")
                if len(values) == width or width <= 1:
                    out.append(_wiki_cells(values, "|"))
                else:
                    span = f'colspan="{width}" | ' if width > 1 else ""
                    out.append(f"| {span}{', '.join(values)}")
            if t is not None:
                if not first:
                    out.append("|-")
                out.append(_wiki_cells(t.header, "!"))
                for row in t.rows:
                    out.append("|-")
                    if t.row_headers:
                        out.append(f"! {row[0]}")
                        out.append(_wiki_cells(row[1:], "|"))
                    else:
                        out.append(_wiki_cells(row, "|"))
                if t.footer is not None:
                    out.append("|-")
                    out.append(f"! {t.footer[0]}")
                    out.append(_wiki_cells(t.footer[1:], "|"))
            out.append("|}")
        for k, line in enumerate(s.closing):
            if k or s.facts or t is not None:
                out.append("")
            out.append(f"'''{line}'''" if line in {w.title for w in Winner} else line)
    return "\n".join(out)


__all__ = ["FORMATS", "format_record", "host_action_titles", "left_text", "load_record", "summarize"]
