"""The day of a club series (house rules 5-6 of ``engine.rulesets.club.game``): the morning's news, Black
Knights' speeches, nominations, last word and repeat vote, Mafia & Yakuza's discussion in turn, the vote, and
the end.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence

from engine.actions import AskRepeat, CastVote, HoldBack, KeepEveryone, NominateCandidate
from engine.effects import Choice, Eliminated, Prompt, SeriesOver, ShowTitle, msg
from engine.ids import Place
from engine.outcome import Outcome, Termination, Winner
from engine.record import VoteRound
from engine.rulesets.club import departures
from engine.rulesets.club.night import ClubNight
from engine.rulesets.club.settings import KEEP, ClubPhase
from engine.rulesets.club.state import ClubBallot, ClubDayRecord
from engine.terms import term

SAID = {KEEP: term("term.keep")}
"""A vote option as said in a message: a name as it is, keeping everyone as a term each client translates."""


class ClubDay(ClubNight):
    """The day's rules of a club series, and its end (a base of ``ClubGame``)."""

    def _begin_morning(self, said: Sequence[tuple[str, Mapping[str, object]]]) -> None:
        self.day += 1
        px = self.rules.prefix
        self.announce("club.morning", day=self.day)
        self.move(self.living(), Place.ROUND_TABLE)
        for name, _cause in self.news:
            p = self.players[name]
            p.publicly_out = True
            self.announce("club.died", player=name)
            if self.rules.reveal_role:
                p.revealed = departures.card(p)
                self.announce(f"{px}.reveal.{p.revealed}", player=name)
            self.emit(Eliminated(name, "killed"))
            self.move([name], Place.GATE)
        if not self.news:
            self.announce("club.no_deaths")
        for key, params in said:  # whatever else of the night affects this day and next night
            self.announce(key, **params)
        self.news = []
        self.day_record = ClubDayRecord(self.day, self.living())
        self.record.events.append(self.day_record)
        if self._win_check():
            return
        self._clock(ClubPhase.MORNING, "morning", "clock.morning")

    def _after_morning(self) -> None:
        """The day's talk: every living contestant speaks in turn, in seat order, on their own clock (Black
        Knights' speeches; Mafia & Yakuza's discussion in turn, MY9); then the vote."""
        self.repeat_used = False
        self.candidates = []
        if not self.rules.nominations:
            self.announce("club.discussion", day=self.day)
        self.speakers = self.living()
        self._next_speaker()

    def _next_speaker(self) -> None:
        while self.speakers:
            name = self.speakers.pop(0)
            if not self.players[name].alive:
                continue
            self.speaker = name
            if not self.rules.nominations:  # Mafia & Yakuza: a turn of the discussion
                self._clock(ClubPhase.DISCUSSION, "discussion", "clock.speech")
                self.announce("my.turn", player=name, seconds=math.ceil(self.settings.duration("discussion")))
                return
            self._clock(ClubPhase.SPEECH, "speech", "clock.speech")
            self.announce("bk.speech", player=name)
            if self.settings.day_execution:
                self._prompt_nominate(name)
            return
        self.speaker = None
        if not self.rules.nominations:
            self._open_first_vote()
        elif not self.settings.day_execution:
            self.announce("bk.no_execution")
            self._end_day()
        elif not self.candidates:
            self.announce("bk.no_candidates")
            self._end_day()
        else:
            self._open_first_vote()

    def _prompt_nominate(self, name: str) -> None:
        """Ask the speaker ``name`` to put one candidate forward, or to hold back."""
        choices = [Choice(t, NominateCandidate(name, t)) for t in self._nominees(name)]
        choices.append(Choice(msg("bk.hold_back").text, HoldBack(name)))
        self.emit(Prompt(frozenset({name}), msg("bk.prompt.nominate"), tuple(choices)))

    def _nominees(self, name: str) -> list[str]:
        return [n for n in self.living() if n != name and n not in self.candidates]

    def _apply_nomination(self, name: str, target: str | None) -> None:
        assert self.day_record is not None
        self.day_record.nominations[name] = target
        if target is None:
            self.announce("bk.held_back", player=name)
        else:
            self.candidates.append(target)
            self.announce("bk.nominated", player=name, target=target)
        self._next_speaker()

    def _close_speech(self) -> None:
        """A speaking turn's clock ran out, or the host moved on: a Black Knights speaker with the gallows on
        holds back; the next contestant speaks."""
        assert self.speaker is not None and self.day_record is not None
        if self.rules.nominations and self.settings.day_execution:
            self._apply_nomination(self.speaker, None)
        else:
            self._next_speaker()

    def _open_first_vote(self) -> None:
        options = tuple(self.candidates) if self.rules.nominations else tuple(self.living())
        self._open_vote("first", options + ((KEEP,) if self.rules.keep_option else ()))

    def _open_vote(self, kind: str, options: tuple[str, ...]) -> None:
        # A voter needs someone to vote for: a lone candidate does not vote for themself (house rule 5).
        voters = tuple(
            n for n in self.living() if n != self.departing and (KEEP in options or any(o != n for o in options))
        )
        self.ballot = ClubBallot(kind, voters, options)
        self.announce("club.vote.open" if kind == "first" else "club.vote.revote", options=tuple(SAID.get(o, o) for o in options))
        self._clock(ClubPhase.VOTE, "vote" if kind == "first" else "revote", "clock.vote")
        for v in voters:
            self._prompt_vote(v, options)
        if not voters:
            self._close_vote()

    def _prompt_vote(self, voter: str, options: tuple[str, ...]) -> None:
        """Give ``voter`` the vote paper: one button per option but themself (and keeping everyone)."""
        choices = [Choice(c, CastVote(voter, c)) for c in options if c not in (voter, KEEP)]
        if KEEP in options:
            choices.append(Choice(msg("my.keep").text, KeepEveryone(voter)))
        if choices:
            self.emit(Prompt(frozenset({voter}), msg("club.vote.prompt"), tuple(choices)))

    def _apply_vote(self, voter: str, option: str) -> None:
        assert self.ballot is not None
        self.ballot.votes[voter] = option
        self.whisper([voter], "club.vote.cast", target=SAID.get(option, option))
        if self._all_voted():
            self._close_vote()

    def _all_voted(self) -> bool:
        b = self.ballot
        assert b is not None
        here = [v for v in b.voters if self.players[v].present]
        return bool(here) and all(v in b.votes for v in here)

    def _close_vote(self) -> None:
        """Rulebook: the most votes leaves; a tie → revote among the tied; a second tie → nobody (house rule 5)."""
        b, rec = self.ballot, self.day_record
        assert b is not None and rec is not None
        self.ballot = None
        tally: Counter[str] = Counter()
        for v in b.voters:
            choice = b.votes.get(v)
            if choice is None:
                self.announce("vote.reveal.none", voter=v)
            else:
                self.announce("vote.reveal", voter=v, target=SAID.get(choice, choice))
                tally[choice] += 1
        count = "-".join(str(c) for c in sorted(tally.values(), reverse=True)) or "0"
        rec.rounds.append(
            VoteRound(b.kind, {v: b.votes.get(v) for v in b.voters}, {}, list(b.options), count)
        )
        self.announce("vote.count", count=count)
        best = max(tally.values(), default=0)
        top = [o for o in b.options if tally[o] == best] if best > 0 else []
        if not top:
            self.announce("club.nobody_leaves")
            self._end_day()
        elif len(top) > 1:
            if b.kind == "first":
                self._open_vote("revote", tuple(top))
            else:
                self.announce("club.second_tie")
                self._end_day()
        elif top[0] == KEEP:
            self.announce("my.kept")
            self._end_day()
        else:
            self._leaves(top[0])

    def _leaves(self, name: str) -> None:
        assert self.day_record is not None
        rec = self.day_record
        p = self.players[name]
        if self.rules.nominations:
            # Black Knights: the card is turned; a last word of one minute; maybe a repeat vote.
            self.departing = name
            rec.left = name
            rec.revealed = departures.card(p)
            self.announce("bk.leaves", player=name)
            self.announce(f"{self.rules.prefix}.reveal.{rec.revealed}", player=name)
            self._clock(ClubPhase.LAST_WORD, "last_word", "clock.last_word")
            self.announce("bk.last_word", player=name)
            return
        # Mafia & Yakuza: expelled; the role is not announced.
        rec.left = name
        self.announce("my.expelled", player=name)
        self._finalize_leave(name, "expelled")
        self._end_day()

    def _finalize_leave(self, name: str, how: str) -> None:
        if self.rules.reveal_role:
            self.players[name].revealed = departures.card(self.players[name])
        self._remove([name], how, self.day)
        self.players[name].publicly_out = True
        self.emit(Eliminated(name, how))
        self.move([name], Place.GATE)

    def _after_last_word(self) -> None:
        voters = self._repeat_voters()
        if self.repeat_used or not voters:
            self._depart()
            return
        self.repeat_asks = {}
        self._clock(ClubPhase.REPEAT, "repeat", "clock.repeat")
        for v in voters:
            self._prompt_repeat(v)

    def _prompt_repeat(self, voter: str) -> None:
        """Ask ``voter`` whether the vote should be repeated after the departed's last word."""
        yes = Choice(msg("bk.repeat.yes").text, AskRepeat(voter, True))
        no = Choice(msg("bk.repeat.no").text, AskRepeat(voter, False))
        self.emit(Prompt(frozenset({voter}), msg("bk.prompt.repeat", player=self.departing or ""), (yes, no)))

    def _repeat_voters(self) -> list[str]:
        return [n for n in self.living() if n != self.departing] if self.departing else []

    def _apply_repeat(self, name: str, ask: bool) -> None:
        self.repeat_asks[name] = ask
        self.whisper([name], "bk.repeat.noted")
        if all(v in self.repeat_asks for v in self._repeat_voters() if self.players[v].present):
            self._close_repeat()

    def _close_repeat(self) -> None:
        """A majority of the living asks for a repeat → the vote is repeated, the departed back among the
        candidates (at most once a day)."""
        assert self.day_record is not None and self.departing is not None
        voters = self._repeat_voters()
        asks = sum(1 for v in voters if self.repeat_asks.get(v))
        self.day_record.repeat_asks = dict(self.repeat_asks)
        if asks * 2 > len(voters):
            self.repeat_used = True
            self.day_record.repeat = True
            self.announce("bk.repeat", player=self.departing, count=asks)
            self.departing = None
            self.day_record.left = None
            self.day_record.revealed = None
            self._open_vote("first", tuple(self.candidates))
            return
        if asks:
            self.announce("bk.no_repeat", count=asks)
        else:
            self.announce("bk.no_repeat.none")
        self._depart()

    def _depart(self) -> None:
        name = self.departing
        assert name is not None
        self.departing = None
        self._finalize_leave(name, "left")
        self._end_day()

    def _end_day(self) -> None:
        if self._win_check():
            return
        if self.day >= self.settings.max_days:
            self.announce("club.day_limit", days=self.day)
            self._end_series(Winner.NOBODY, (), Termination.DAY_LIMIT)
            return
        self._begin_night()

    # ------------------------------------------------------------------ the end

    def _win_check(self) -> bool:
        alive = {p.name: p.role for p in self.players.values() if p.alive}
        if not alive:
            self._end_series(Winner.NOBODY, (), Termination.ALL_DEAD)
            return True
        result = self.rules.win(alive, self.settings)
        if result is None:
            return False
        self._end_series(result[0], result[1], Termination.FACTION_WON)
        return True

    def _end_series(self, winner: Winner, winners: tuple[str, ...], termination: Termination) -> None:
        self.outcome = Outcome(winner, termination, winners)
        self.record.winner = winner.value
        self.record.termination = termination.value
        for c in self.record.contestants:
            c.winner = c.name in winners
        self.phase = ClubPhase.OVER
        self.deadline = None
        self.paused = None
        self.ballot = None
        self.pending = []
        if termination is Termination.HOST_ENDED:
            self.announce("series.over.host")
        elif winners:
            self.announce("series.over", winner=term(f"term.winner.{winner.value}"), winners=", ".join(winners))
        else:
            self.announce("series.over.nobody", winner=term(f"term.winner.{winner.value}"))
        for p in self.players.values():
            self.announce(f"{self.rules.prefix}.reveal.{departures.card(p)}", player=p.name)
        self.emit(ShowTitle(msg("title.series_over", winner=term(f"term.winner.{winner.value}"))))
        self.emit(SeriesOver(self.outcome))


__all__ = ["SAID", "ClubDay"]
