"""The night of a club series (house rules 1-4 of ``engine.rulesets.club.game``): the first night's
introductions, the wake order one step at a time, the team kills, and the resolution through the shared core
(``engine.core.night``).

Every function takes the series (``engine.rulesets.club.state.ClubState``); the night ends in the morning
(``engine.rulesets.club.day.begin_morning``).
"""

from __future__ import annotations

from collections import Counter

from engine.actions import SkipPower, UsePower
from engine.core import night as core
from engine.effects import Choice, Prompt, msg
from engine.ids import Place
from engine.rulesets.club import day, departures, morning
from engine.rulesets.club.settings import MEET, ClubPhase, Step
from engine.rulesets.club.state import ClubNightRecord, ClubState


def begin_night(game: ClubState) -> None:
    """The night begins (house rule 1): everyone goes home; the first night's introductions; the first step."""
    game.night_no += 1
    game.night_record = ClubNightRecord(game.night_no)
    game.record.events.append(game.night_record)
    game.step_index = -1
    game.visits = []
    game.blocked = frozenset()
    game.ballot = None
    game.announce("club.night", night=game.night_no)
    game.move(game.living(), Place.HOME)
    if game.night_no == game.rules.first_night:
        introduce(game)
    next_step(game)


def introduce(game: ClubState) -> None:
    """The first night opens: Mafia & Yakuza, the host names every role and the teams meet at once; Black
    Knights, the introduction is announced and each active role is met in its own step (``_meet``, BK2)."""
    px = game.rules.prefix
    if game.rules.intro:
        game.announce("bk.introduction")
        return
    counts = Counter(p.role for p in game.players.values())
    for code in game.rules.roles:
        if counts[code]:
            game.announce(f"{px}.setup.{code}", count=counts[code])
    for p in game.players.values():
        tell_team(game, p.name)


def tell_team(game: ClubState, name: str) -> None:
    """Tell ``name`` privately who their team is, if they know anyone (the first night's meeting)."""
    px = game.rules.prefix
    fellows = game.known_to(name)
    if fellows:
        members = tuple(msg("club.member", player=f, role=msg(f"{px}.role.{game.players[f].role}")) for f in fellows)
        game.whisper([name], f"{px}.team", players=members)


def meet(game: ClubState, step: Step) -> None:
    """An introduction step (BK2): the host meets each holder of the step's roles privately, one after
    another: their role, and who their team is. The step runs whether or not anyone holds the role."""
    for name in step_holders(game, step):
        game.whisper([name], "bk.intro.met", role=msg(f"{game.rules.prefix}.role.{game.players[name].role}"))
        tell_team(game, name)


def step_holders(game: ClubState, step: Step) -> list[str]:
    """The living contestants on the server who hold one of ``step``'s roles, in the step's role order then by
    seat (a once-per-game step leaves out who has spent it)."""
    rank = {r: i for i, r in enumerate(step.roles)}
    holders = [p for p in game.players.values() if p.alive and p.present and p.role in rank]
    holders.sort(key=lambda p: (rank[p.role], p.seat))
    return [p.name for p in holders if not (step.once and (p.name, step.name) in game.spent)]


def next_step(game: ClubState) -> None:
    """Open the next step of tonight's order (house rules 1-2): every step runs, for its whole clock, whether
    anyone is woken in it or not, so the night shows nobody who is dead, blocked or spent."""
    steps = game.night_steps()
    if game.step_index + 1 >= len(steps):
        resolve_night(game)
        return
    game.step_index += 1
    step = steps[game.step_index]
    game.picks = {}
    game.set_clock(ClubPhase.NIGHT, "night_step", "clock.night")
    if step.kind == MEET:
        game.pending = []
        meet(game, step)
        return
    game.pending = [h for h in step_holders(game, step) if targets(game, h, step)]
    for a in game.pending:
        prompt_step(game, a, step)


def prompt_step(game: ClubState, actor: str, step: Step) -> None:
    """Ask ``actor`` for their choice at ``step``: one button per target, and a pass. A blocked ``actor`` is
    told instead that they are not woken tonight, with one button to go back to sleep (house rule 2)."""
    if actor in game.blocked:
        sleep = Choice(msg("club.blocked.ok").text, SkipPower(actor))
        game.emit(Prompt(frozenset({actor}), msg("club.blocked"), (sleep,)))
        return
    choices = [Choice(t, UsePower(actor, t)) for t in targets(game, actor, step)]
    choices.append(Choice(msg("power.skip").text, SkipPower(actor)))
    game.emit(Prompt(frozenset({actor}), msg(f"{game.rules.prefix}.prompt.{step.name}"), tuple(choices)))


def targets(game: ClubState, actor: str, step: Step | None = None) -> list[str]:
    """Living contestants ``actor`` may target at ``step`` (house rule 4)."""
    step = step or game.current_step()
    out = []
    last = game.last_target.get((actor, step.name))
    for q in game.players.values():
        if not q.alive:
            continue
        if q.name == actor and not step.self_ok:
            continue
        if step.team and game.team_of(q.name) == step.team:
            continue
        if step.no_repeat and last is not None and last == (game.night_no - 1, q.name):
            continue
        out.append(q.name)
    return out


def apply_pick(game: ClubState, actor: str, target: str | None) -> None:
    """``actor``'s choice at the current step (``target``; ``None``: a pass), told to them and, for a team kill,
    to the team members awake (house rule 3). The step waits for its clock (house rule 1)."""
    step = game.current_step()
    game.pending.remove(actor)
    game.picks[actor] = target
    if actor in game.blocked:
        game.whisper([actor], "club.blocked.asleep")
    else:
        game.whisper([actor], "power.skipped" if target is None else "power.noted")
    if step.team and target is not None:
        game.whisper(awake(game, step, exclude=actor), "club.team.pick", player=actor, target=target)


def awake(game: ClubState, step: Step, exclude: str | None = None) -> list[str]:
    """The holders of ``step`` who act in it (not blocked), in the step's order: leader first (house rule 3)."""
    return [h for h in step_holders(game, step) if h not in game.blocked and h != exclude]


def close_step(game: ClubState) -> None:
    """End the current step (its clock ran out or the host moved on: who has not chosen passes) and record
    its visits."""
    step = game.current_step()
    assert game.night_record is not None
    rank = game.step_index
    for a in game.pending:
        game.picks.setdefault(a, None)
    game.pending = []
    picks = {a: t for a, t in game.picks.items() if a not in game.blocked}
    chosen: list[tuple[str, str]] = []
    if step.team:
        order = [m for m in awake(game, step) if m in picks]
        leader = order[0] if order else None
        decided = core.team_choice({m: picks[m] for m in order}, leader)
        if decided is not None:
            chosen.append((decided[1], decided[0]))
        elif any(t is not None for t in picks.values()):
            # A split the leader did not settle: the kill fails.
            game.night_record.acts.append({"step": step.name, "contestant": None, "target": None})
    else:
        chosen = [(a, t) for a, t in picks.items() if t is not None]
    for a, t in picks.items():
        if t is None:  # a pass is recorded for a team member as for anyone
            game.night_record.acts.append({"step": step.name, "contestant": a, "target": None})
    for a, t in chosen:
        role = game.rules.roles[game.players[a].role]
        game.visits.append(
            core.Visit(a, step.kind, t, rank, game.players[a].seat, role.cures_poison, role.demines, role.mine_immune)
        )
        game.night_record.acts.append({"step": step.name, "contestant": a, "target": t})
        if not step.team:
            game.last_target[(a, step.name)] = (game.night_no, t)
        if step.once:
            game.spent.add((a, step.name))
    if step.kind == core.BLOCK:
        game.blocked = core.blocked(v for v in game.visits if v.kind == core.BLOCK)
        game.night_record.blocked = sorted(game.blocked, key=lambda n: game.players[n].seat)
    game.picks = {}
    next_step(game)


def resolve_night(game: ClubState) -> None:
    """The night resolves all at once through the shared core; checks are answered privately."""
    assert game.night_record is not None
    rec = game.night_record
    outcome = core.resolve(
        game.visits,
        night=game.night_no,
        mines=game.mines,
        poisons=game.poisons,
        delay=game.rules.poison_delay,
        alive=game.living(),
    )
    said = morning.news(game, outcome)
    game.mines = outcome.mines
    game.poisons = dict(outcome.poisons)
    rec.deaths = dict(outcome.deaths)
    rec.saved = list(outcome.saved)
    rec.cured = list(outcome.cured)
    rec.mines = [list(m) for m in outcome.mine_events]
    for v in sorted(game.visits, key=lambda v: (v.rank, v.seat)):
        if v.kind != core.CHECK:
            continue
        step = game.rules.steps[v.rank]  # a visit's rank is its step's place in the wake order
        key = game.rules.check_answer(step.name, game.players[v.actor].role, game.players[v.target].role)
        watchers = [p.name for p in game.players.values() if p.alive and p.role in step.watchers and p.name != v.actor]
        game.whisper([v.actor, *watchers], key, player=v.target)
        rec.checks.append({"contestant": v.actor, "target": v.target, "answer": msg(key, player=v.target).text})
    game.news = list(outcome.deaths.items())
    departures.remove(game, [name for name, _cause in game.news], "killed", game.night_no)
    game.visits = []
    day.begin_morning(game, said)


__all__ = ["begin_night", "close_step", "prompt_step", "targets", "tell_team"]
