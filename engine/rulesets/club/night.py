"""The night of a club series (house rules 1-4 of ``engine.rulesets.club.game``): the first night's
introductions, the wake order one step at a time, the team kills, and the resolution through the shared core
(``engine.core.night``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engine.actions import SkipPower, UsePower
from engine.core import night as core
from engine.effects import Choice, Prompt, msg
from engine.ids import Place
from engine.rulesets.club import departures, morning
from engine.rulesets.club.settings import MEET, ClubPhase, Step
from engine.rulesets.club.state import ClubNightRecord, ClubState


class ClubNight(ClubState):
    """The night's rules of a club series (a base of ``ClubGame``)."""

    def _begin_night(self) -> None:
        self.night_no += 1
        self.night_record = ClubNightRecord(self.night_no)
        self.record.events.append(self.night_record)
        self.step_index = -1
        self.visits = []
        self.blocked = frozenset()
        self.ballot = None
        self.announce("club.night", night=self.night_no)
        self.move(self.living(), Place.HOME)
        if self.night_no == self.rules.first_night:
            self._introduce()
        self._next_step()

    def _introduce(self) -> None:
        """The first night opens: Mafia & Yakuza, the host names every role and the teams meet at once; Black
        Knights, the introduction is announced and each active role is met in its own step (``_meet``, BK2)."""
        px = self.rules.prefix
        if self.rules.intro:
            self.announce("bk.introduction")
            return
        counts = Counter(p.role for p in self.players.values())
        for code in self.rules.roles:
            if counts[code]:
                self.announce(f"{px}.setup.{code}", count=counts[code])
        for p in self.players.values():
            self._tell_team(p.name)

    def _tell_team(self, name: str) -> None:
        """Tell ``name`` privately who their team is, if they know anyone (the first night's meeting)."""
        px = self.rules.prefix
        fellows = self.known_to(name)
        if fellows:
            members = tuple(msg("club.member", player=f, role=msg(f"{px}.role.{self.players[f].role}")) for f in fellows)
            self.whisper([name], f"{px}.team", players=members)

    def _meet(self, step: Step) -> None:
        """An introduction step (BK2): the host meets each holder of the step's roles privately, one after
        another: their role, and who their team is. The step runs whether or not anyone holds the role."""
        for name in self._step_holders(step):
            self.whisper([name], "bk.intro.met", role=msg(f"{self.rules.prefix}.role.{self.players[name].role}"))
            self._tell_team(name)

    def _step_holders(self, step: Step) -> list[str]:
        rank = {r: i for i, r in enumerate(step.roles)}
        holders = [p for p in self.players.values() if p.alive and p.present and p.role in rank]
        holders.sort(key=lambda p: (rank[p.role], p.seat))
        return [p.name for p in holders if not (step.once and (p.name, step.name) in self.spent)]

    def _next_step(self) -> None:
        """Open the next step of tonight's order (house rules 1-2): every step runs, for its whole clock, whether
        anyone is woken in it or not, so the night shows nobody who is dead, blocked or spent."""
        steps = self._night_steps()
        if self.step_index + 1 >= len(steps):
            self._resolve_night()
            return
        self.step_index += 1
        step = steps[self.step_index]
        self.picks = {}
        self._clock(ClubPhase.NIGHT, "night_step", "clock.night")
        if step.kind == MEET:
            self.pending = []
            self._meet(step)
            return
        self.pending = [h for h in self._step_holders(step) if self._targets(h, step)]
        for a in self.pending:
            self._prompt_step(a, step)

    def _prompt_step(self, actor: str, step: Step) -> None:
        """Ask ``actor`` for their choice at ``step``: one button per target, and a pass. A blocked ``actor`` is
        told instead that they are not woken tonight, with one button to go back to sleep (house rule 2)."""
        if actor in self.blocked:
            sleep = Choice(msg("club.blocked.ok").text, SkipPower(actor))
            self.emit(Prompt(frozenset({actor}), msg("club.blocked"), (sleep,)))
            return
        choices = [Choice(t, UsePower(actor, t)) for t in self._targets(actor, step)]
        choices.append(Choice(msg("power.skip").text, SkipPower(actor)))
        self.emit(Prompt(frozenset({actor}), msg(f"{self.rules.prefix}.prompt.{step.name}"), tuple(choices)))

    def _targets(self, actor: str, step: Step | None = None) -> list[str]:
        """Living contestants ``actor`` may target at ``step`` (house rule 4)."""
        step = step or self._step()
        out = []
        last = self.last_target.get((actor, step.name))
        for q in self.players.values():
            if not q.alive:
                continue
            if q.name == actor and not step.self_ok:
                continue
            if step.team and self._team(q.name) == step.team:
                continue
            if step.no_repeat and last is not None and last == (self.night_no - 1, q.name):
                continue
            out.append(q.name)
        return out

    def _apply_pick(self, actor: str, target: str | None) -> None:
        step = self._step()
        self.pending.remove(actor)
        self.picks[actor] = target
        if actor in self.blocked:
            self.whisper([actor], "club.blocked.asleep")
        else:
            self.whisper([actor], "power.skipped" if target is None else "power.noted")
        if step.team and target is not None:
            self.whisper(self._awake(step, exclude=actor), "club.team.pick", player=actor, target=target)

    def _awake(self, step: Step, exclude: str | None = None) -> list[str]:
        """The holders of ``step`` who act in it (not blocked), in the step's order: leader first (house rule 3)."""
        return [h for h in self._step_holders(step) if h not in self.blocked and h != exclude]

    def _close_step(self) -> None:
        """End the current step (its clock ran out or the host moved on: who has not chosen passes) and record
        its visits."""
        step = self._step()
        assert self.night_record is not None
        rank = self.step_index
        for a in self.pending:
            self.picks.setdefault(a, None)
        self.pending = []
        picks = {a: t for a, t in self.picks.items() if a not in self.blocked}
        chosen: list[tuple[str, str]] = []
        if step.team:
            order = [m for m in self._awake(step) if m in picks]
            leader = order[0] if order else None
            decided = core.team_choice({m: picks[m] for m in order}, leader)
            if decided is not None:
                chosen.append((decided[1], decided[0]))
            elif any(t is not None for t in picks.values()):
                # A split the leader did not settle: the kill fails.
                self.night_record.acts.append({"step": step.name, "contestant": None, "target": None})
        else:
            chosen = [(a, t) for a, t in picks.items() if t is not None]
        for a, t in picks.items():
            if t is None:  # a pass is recorded for a team member as for anyone
                self.night_record.acts.append({"step": step.name, "contestant": a, "target": None})
        for a, t in chosen:
            role = self.rules.roles[self.players[a].role]
            self.visits.append(
                core.Visit(a, step.kind, t, rank, self.players[a].seat, role.cures_poison, role.demines, role.mine_immune)
            )
            self.night_record.acts.append({"step": step.name, "contestant": a, "target": t})
            if not step.team:
                self.last_target[(a, step.name)] = (self.night_no, t)
            if step.once:
                self.spent.add((a, step.name))
        if step.kind == core.BLOCK:
            self.blocked = core.blocked(v for v in self.visits if v.kind == core.BLOCK)
            self.night_record.blocked = sorted(self.blocked, key=lambda n: self.players[n].seat)
        self.picks = {}
        self._next_step()

    def _resolve_night(self) -> None:
        """The night resolves all at once through the shared core; checks are answered privately."""
        assert self.night_record is not None
        rec = self.night_record
        outcome = core.resolve(
            self.visits, night=self.night_no, mines=self.mines, poisons=self.poisons,
            delay=self.rules.poison_delay, alive=self.living(),
        )  # fmt: skip
        said = morning.news(self, outcome)
        self.mines = outcome.mines
        self.poisons = dict(outcome.poisons)
        rec.deaths = dict(outcome.deaths)
        rec.saved = list(outcome.saved)
        rec.cured = list(outcome.cured)
        rec.mines = [list(m) for m in outcome.mine_events]
        for v in sorted(self.visits, key=lambda v: (v.rank, v.seat)):
            if v.kind != core.CHECK:
                continue
            step = self.rules.steps[v.rank]  # a visit's rank is its step's place in the wake order
            key = self.rules.check_answer(step.name, self.players[v.actor].role, self.players[v.target].role)
            watchers = [
                p.name for p in self.players.values() if p.alive and p.role in step.watchers and p.name != v.actor
            ]
            self.whisper([v.actor, *watchers], key, player=v.target)
            rec.checks.append({"contestant": v.actor, "target": v.target, "answer": msg(key, player=v.target).text})
        self.news = list(outcome.deaths.items())
        self._remove([name for name, _cause in self.news], "killed", self.night_no)
        self.visits = []
        self._begin_morning(said)

    def _remove(self, names: Sequence[str], how: str, when: int) -> None:
        """``names`` leave the game together; a successor role passes on (``engine.rulesets.club.departures``)."""
        departures.remove(self, names, how, when)


__all__ = ["ClubNight"]
