"""The day of a club series (house rules 5-6 of ``engine.rulesets.club.game``): the morning's news, Black
Knights' speeches, nominations, last word and repeat vote, Mafia & Yakuza's discussion in turn, the vote, and
the end.

Every function takes the series (``engine.rulesets.club.state.ClubState``). A step that leads on returns the next
node of the phase graph (``engine.rulesets.club.game.PHASES``), ``None`` when the series waits for a clock or an
input.
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
from engine.rulesets.club.settings import KEEP, ClubNode, ClubPhase, ClubStage
from engine.rulesets.club.state import ClubBallot, ClubDayRecord, ClubState
from engine.terms import term

SAID = {KEEP: term("term.keep")}
"""A vote option as said in a message: a name as it is, keeping everyone as a term each client translates."""


def begin_morning(game: ClubState, said: Sequence[tuple[str, Mapping[str, object]]]) -> None:
    """The day begins after the night: the night's deaths (and ``said``, the rest of the morning's news as
    ``(message key, params)``), the win check, then the morning's clock."""
    game.day += 1
    px = game.rules.prefix
    game.announce("club.morning", day=game.day)
    game.move(game.living(), Place.ROUND_TABLE)
    for name, _cause in game.news:
        p = game.players[name]
        p.publicly_out = True
        game.announce("club.died", player=name)
        if game.rules.reveal_role:
            p.revealed = departures.card(p)
            game.announce(f"{px}.reveal.{p.revealed}", player=name)
        game.emit(Eliminated(name, "killed"))
        game.move([name], Place.GATE)
    if not game.news:
        game.announce("club.no_deaths")
    for key, params in said:  # whatever else of the night affects this day and next night
        game.announce(key, **params)
    game.news = []
    game.day_record = ClubDayRecord(game.day, game.living())
    game.record.events.append(game.day_record)
    if win_check(game):
        return
    game.set_clock(ClubPhase.MORNING, "morning", "clock.morning")


def after_morning(game: ClubState) -> ClubNode | None:
    """The day's talk: every living contestant speaks in turn, in seat order, on their own clock (Black
    Knights' speeches; Mafia & Yakuza's discussion in turn, MY9); then the vote."""
    game.repeat_used = False
    game.candidates = []
    if not game.rules.nominations:
        game.announce("club.discussion", day=game.day)
    game.speakers = game.living()
    return next_speaker(game)


def next_speaker(game: ClubState) -> ClubNode | None:
    """The next contestant in turn speaks on their own clock; after the last, the vote (or the day ends)."""
    while game.speakers:
        name = game.speakers.pop(0)
        if not game.players[name].alive:
            continue
        game.speaker = name
        if not game.rules.nominations:  # Mafia & Yakuza: a turn of the discussion
            game.set_clock(ClubPhase.DISCUSSION, "discussion", "clock.speech")
            game.announce("my.turn", player=name, seconds=math.ceil(game.settings.duration("discussion")))
            return None
        game.set_clock(ClubPhase.SPEECH, "speech", "clock.speech")
        game.announce("bk.speech", player=name)
        if game.settings.day_execution:
            prompt_nominate(game, name)
        return None
    game.speaker = None
    if not game.rules.nominations:
        return open_first_vote(game)
    if not game.settings.day_execution:
        game.announce("bk.no_execution")
        return end_day(game)
    if not game.candidates:
        game.announce("bk.no_candidates")
        return end_day(game)
    return open_first_vote(game)


def prompt_nominate(game: ClubState, name: str) -> None:
    """Ask the speaker ``name`` to put one candidate forward, or to hold back."""
    choices = [Choice(t, NominateCandidate(name, t)) for t in nominees(game, name)]
    choices.append(Choice(msg("bk.hold_back").text, HoldBack(name)))
    game.emit(Prompt(frozenset({name}), msg("bk.prompt.nominate"), tuple(choices)))


def nominees(game: ClubState, name: str) -> list[str]:
    """Who the speaker ``name`` may put forward: every living contestant but themself and the candidates so far."""
    return [n for n in game.living() if n != name and n not in game.candidates]


def apply_nomination(game: ClubState, name: str, target: str | None) -> ClubNode | None:
    """The speaker ``name`` put ``target`` forward (``None``: held back); the next contestant speaks."""
    assert game.day_record is not None
    game.day_record.nominations[name] = target
    if target is None:
        game.announce("bk.held_back", player=name)
    else:
        game.candidates.append(target)
        game.announce("bk.nominated", player=name, target=target)
    return next_speaker(game)


def close_speech(game: ClubState) -> ClubNode | None:
    """A speaking turn's clock ran out, or the host moved on: a Black Knights speaker with the gallows on
    holds back; the next contestant speaks."""
    assert game.speaker is not None and game.day_record is not None
    if game.rules.nominations and game.settings.day_execution:
        return apply_nomination(game, game.speaker, None)
    return next_speaker(game)


def open_first_vote(game: ClubState) -> ClubNode | None:
    """The day's first vote: among the candidates (Black Knights) or everyone living (Mafia & Yakuza)."""
    options = tuple(game.candidates) if game.rules.nominations else tuple(game.living())
    return open_vote(game, "first", options + ((KEEP,) if game.rules.keep_option else ()))


def open_vote(game: ClubState, kind: str, options: tuple[str, ...]) -> ClubNode | None:
    """A vote (``kind``: ``first`` or ``revote``) among ``options``; with nobody to vote it closes at once."""
    # A voter needs someone to vote for: a lone candidate does not vote for themself (house rule 5).
    voters = tuple(
        n for n in game.living() if n != game.departing and (KEEP in options or any(o != n for o in options))
    )
    game.ballot = ClubBallot(kind, voters, options)
    game.announce(
        "club.vote.open" if kind == "first" else "club.vote.revote", options=tuple(SAID.get(o, o) for o in options)
    )
    game.set_clock(ClubPhase.VOTE, "vote" if kind == "first" else "revote", "clock.vote")
    for v in voters:
        prompt_vote(game, v, options)
    if not voters:
        return close_vote(game)
    return None


def prompt_vote(game: ClubState, voter: str, options: tuple[str, ...]) -> None:
    """Give ``voter`` the vote paper: one button per option but themself (and keeping everyone)."""
    choices = [Choice(c, CastVote(voter, c)) for c in options if c not in (voter, KEEP)]
    if KEEP in options:
        choices.append(Choice(msg("my.keep").text, KeepEveryone(voter)))
    if choices:
        game.emit(Prompt(frozenset({voter}), msg("club.vote.prompt"), tuple(choices)))


def apply_vote(game: ClubState, voter: str, option: str) -> ClubNode | None:
    """``voter`` votes for ``option``; the vote closes once everyone present has voted (house rule 5)."""
    assert game.ballot is not None
    game.ballot.votes[voter] = option
    game.whisper([voter], "club.vote.cast", target=SAID.get(option, option))
    if all_voted(game):
        return close_vote(game)
    return None


def all_voted(game: ClubState) -> bool:
    """Whether every voter on the server has voted in the open ballot (at least one is on the server)."""
    b = game.ballot
    assert b is not None
    here = [v for v in b.voters if game.players[v].present]
    return bool(here) and all(v in b.votes for v in here)


def close_vote(game: ClubState) -> ClubNode | None:
    """Rulebook: the most votes leaves; a tie → revote among the tied; a second tie → nobody (house rule 5)."""
    b, rec = game.ballot, game.day_record
    assert b is not None and rec is not None
    game.ballot = None
    tally: Counter[str] = Counter()
    for v in b.voters:
        choice = b.votes.get(v)
        if choice is None:
            game.announce("vote.reveal.none", voter=v)
        else:
            game.announce("vote.reveal", voter=v, target=SAID.get(choice, choice))
            tally[choice] += 1
    count = "-".join(str(c) for c in sorted(tally.values(), reverse=True)) or "0"
    rec.rounds.append(VoteRound(b.kind, {v: b.votes.get(v) for v in b.voters}, {}, list(b.options), count))
    game.announce("vote.count", count=count)
    best = max(tally.values(), default=0)
    top = [o for o in b.options if tally[o] == best] if best > 0 else []
    if not top:
        game.announce("club.nobody_leaves")
        return end_day(game)
    if len(top) > 1:
        if b.kind == "first":
            return open_vote(game, "revote", tuple(top))
        game.announce("club.second_tie")
        return end_day(game)
    if top[0] == KEEP:
        game.announce("my.kept")
        return end_day(game)
    return leaves(game, top[0])


def leaves(game: ClubState, name: str) -> ClubNode | None:
    """``name`` leaves by the vote: Black Knights' last word, or Mafia & Yakuza's expulsion and the day's end."""
    assert game.day_record is not None
    rec = game.day_record
    p = game.players[name]
    if game.rules.nominations:
        # Black Knights: the card is turned; a last word of one minute; maybe a repeat vote.
        game.departing = name
        rec.left = name
        rec.revealed = departures.card(p)
        game.announce("bk.leaves", player=name)
        game.announce(f"{game.rules.prefix}.reveal.{rec.revealed}", player=name)
        game.set_clock(ClubPhase.LAST_WORD, "last_word", "clock.last_word")
        game.announce("bk.last_word", player=name)
        return None
    # Mafia & Yakuza: expelled; the role is not announced.
    rec.left = name
    game.announce("my.expelled", player=name)
    finalize_leave(game, name, "expelled")
    return end_day(game)


def finalize_leave(game: ClubState, name: str, how: str) -> None:
    """``name`` leaves the series by the day's vote (``how``: ``left`` or ``expelled``): removed, shown as out, sent to
    the gate."""
    if game.rules.reveal_role:
        game.players[name].revealed = departures.card(game.players[name])
    departures.remove(game, [name], how, game.day)
    game.players[name].publicly_out = True
    game.emit(Eliminated(name, how))
    game.move([name], Place.GATE)


def after_last_word(game: ClubState) -> ClubNode | None:
    """The last word is over: the living are asked whether to repeat the vote (once a day), else the departed
    leaves."""
    voters = repeat_voters(game)
    if game.repeat_used or not voters:
        return depart(game)
    game.repeat_asks = {}
    game.set_clock(ClubPhase.REPEAT, "repeat", "clock.repeat")
    for v in voters:
        prompt_repeat(game, v)
    return None


def prompt_repeat(game: ClubState, voter: str) -> None:
    """Ask ``voter`` whether the vote should be repeated after the departed's last word."""
    yes = Choice(msg("bk.repeat.yes").text, AskRepeat(voter, True))
    no = Choice(msg("bk.repeat.no").text, AskRepeat(voter, False))
    game.emit(Prompt(frozenset({voter}), msg("bk.prompt.repeat", player=game.departing or ""), (yes, no)))


def repeat_voters(game: ClubState) -> list[str]:
    """Who answers the repeat question: every living contestant but the departing one (none when nobody departs)."""
    return [n for n in game.living() if n != game.departing] if game.departing else []


def apply_repeat(game: ClubState, name: str, ask: bool) -> ClubNode | None:
    """``name`` answers the repeat question; it closes once everyone present has answered."""
    game.repeat_asks[name] = ask
    game.whisper([name], "bk.repeat.noted")
    if all(v in game.repeat_asks for v in repeat_voters(game) if game.players[v].present):
        return close_repeat(game)
    return None


def close_repeat(game: ClubState) -> ClubNode | None:
    """A majority of the living asks for a repeat → the vote is repeated, the departed back among the
    candidates (at most once a day)."""
    assert game.day_record is not None and game.departing is not None
    voters = repeat_voters(game)
    asks = sum(1 for v in voters if game.repeat_asks.get(v))
    game.day_record.repeat_asks = dict(game.repeat_asks)
    if asks * 2 > len(voters):
        game.repeat_used = True
        game.day_record.repeat = True
        game.announce("bk.repeat", player=game.departing, count=asks)
        game.departing = None
        game.day_record.left = None
        game.day_record.revealed = None
        return open_vote(game, "first", tuple(game.candidates))
    if asks:
        game.announce("bk.no_repeat", count=asks)
    else:
        game.announce("bk.no_repeat.none")
    return depart(game)


def depart(game: ClubState) -> ClubNode | None:
    """The departed leaves for good; the day ends."""
    name = game.departing
    assert name is not None
    game.departing = None
    finalize_leave(game, name, "left")
    return end_day(game)


def end_day(game: ClubState) -> ClubStage | None:
    """The day is over (house rule 6): the win check, the day limit, else the night (``ClubStage.NIGHT``)."""
    if win_check(game):
        return None
    if game.day >= game.settings.max_days:
        game.announce("club.day_limit", days=game.day)
        end_series(game, Winner.NOBODY, (), Termination.DAY_LIMIT)
        return None
    return ClubStage.NIGHT


def win_check(game: ClubState) -> bool:
    """House rule 6: end the series (and say True) when nobody is alive or the rules' win check has a winner."""
    alive = {p.name: p.role for p in game.players.values() if p.alive}
    if not alive:
        end_series(game, Winner.NOBODY, (), Termination.ALL_DEAD)
        return True
    result = game.rules.win(alive, game.settings)
    if result is None:
        return False
    end_series(game, result[0], result[1], Termination.FACTION_WON)
    return True


def end_series(game: ClubState, winner: Winner, winners: tuple[str, ...], termination: Termination) -> None:
    """The series ends with ``winner`` and ``winners`` (house rule 6): the record, the announcement, every role
    revealed."""
    game.outcome = Outcome(winner, termination, winners)
    game.record.winner = winner.value
    game.record.termination = termination.value
    for c in game.record.contestants:
        c.winner = c.name in winners
    game.phase = ClubPhase.OVER
    game.deadline = None
    game.paused = None
    game.ballot = None
    game.pending = []
    if termination is Termination.HOST_ENDED:
        game.announce("series.over.host")
    elif winners:
        game.announce("series.over", winner=term(f"term.winner.{winner.value}"), winners=", ".join(winners))
    else:
        game.announce("series.over.nobody", winner=term(f"term.winner.{winner.value}"))
    for p in game.players.values():
        game.announce(f"{game.rules.prefix}.reveal.{departures.card(p)}", player=p.name)
    game.emit(ShowTitle(msg("title.series_over", winner=term(f"term.winner.{winner.value}"))))
    game.emit(SeriesOver(game.outcome))


__all__ = ["SAID", "begin_morning", "end_series", "win_check"]
