"""The day (rulebook §3, §4): breakfast, discussion, the round table, the vote, the tie rules, deadlock and
banishment.

Every function takes the series (``engine.rulesets.traitors.context.Table``). A step that leads on returns the next
node of the phase graph (``engine.rulesets.traitors.rules.PHASES``), ``None`` when the series waits for a clock or
an input.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.actions import (
    Action,
    CastVote,
)
from engine.effects import (
    Effect,
    Eliminated,
    Revealed,
    announce,
    give,
    take,
    whisper,
)
from engine.errors import IllegalAction
from engine.ids import Allegiance, Item, Place, Twist
from engine.outcome import Termination
from engine.record import BreakfastRecord, RoundTableRecord, VoteRound
from engine.rulesets.traitors import heads, twists
from engine.rulesets.traitors.choices import (
    vote_paper,
)
from engine.rulesets.traitors.context import Table
from engine.rulesets.traitors.losses import murder
from engine.rulesets.traitors.phases import Node, Phase, Stage
from engine.rulesets.traitors.state import Ballot
from engine.terms import allegiance_term


def begin_breakfast(game: Table) -> None:
    """Rulebook §3: a new day; everyone arrives at breakfast in a seeded order and the night's murders are announced."""
    game.day += 1
    game.double_vote_holder = game.double_vote_next if game.twist_on(game.day, Twist.DOUBLE_VOTE) else None
    game.double_vote_next = None
    if game.double_vote_holder is not None and not game.players[game.double_vote_holder].alive:
        game.double_vote_holder = None
    arrivals = game.living()
    game.rng.shuffle(arrivals)
    game.announce("phase.breakfast", day=game.day)
    game.move(arrivals, Place.BREAKFAST_ROOM)
    heads.arrive(game, arrivals)  # each arrival announced, their head set at their place (§10)
    murdered = list(game.news)
    game.news.clear()
    for victim in murdered:
        game.players[victim].publicly_out = True
        game.announce("breakfast.murdered", player=victim)
        game.emit(Eliminated(victim, "murdered"))
        game.record_out(victim)
    if not murdered:
        game.announce("breakfast.no_murder")
    game.record.events.append(BreakfastRecord(game.day, arrivals, murdered))
    if game.settings.end_when_no_traitors and not game.living_traitors():
        # [house] setting, off by default: rulebook §9 "A series will end only when all players are in agreement,
        # or when only two players remain", so by default the series plays on to the finale.
        game.announce("series.no_traitors")
        game.end_series(Termination.NO_TRAITORS)
        return
    twists.breakfast(game)  # TWIST HOOK: the Trial's news, the Traitors' Response book
    if game.double_vote_holder is not None:
        game.whisper([game.double_vote_holder], "diary.double_vote")
    game.start_clock(Phase.BREAKFAST, "breakfast", "clock.breakfast")


def begin_discussion(game: Table) -> None:
    """Rulebook §3: everyone meets in the foyer to talk (the twists' discussion items)."""
    game.announce("phase.discussion", day=game.day)
    game.move(game.living(), Place.FOYER)
    game.start_clock(Phase.DISCUSSION, "discussion", "clock.discussion")
    twists.begin_discussion(game)  # TWIST HOOK: the Sacred Sword, the confession chests


def return_jokers(game: Table, key: str) -> None:
    """Rulebook §6, §9 (T6.3): at the final round table, or at the finale when none was held (an alerted
    Survivor's murder after a round table of six, T9.2), the Joker returns to their Faithful power: each holder
    is told privately (message ``key``) and nobody holds the Joker any more. Holding none, nothing happens."""
    pw = game.powers
    for j in sorted(pw.jokers):
        game.whisper([j], key)
    pw.jokers.clear()


def begin_round_table(game: Table) -> Node | None:
    """Rulebook §4: the round table opens (the twists' nominee first); the night's round-table powers are announced."""
    if twists.before_round_table(game):  # TWIST HOOK: discussion items collected; the Guess/Seer nominee
        return None
    living = game.living()
    game.table = RoundTableRecord(day=game.day, present=living, double_vote=game.double_vote_holder)
    game.record.events.append(game.table)
    game.revote_used = False
    game.announce("phase.round_table", day=game.day)
    game.move(living, Place.ROUND_TABLE)
    pw = game.powers
    if len(living) <= game.settings.finalists + 1:
        return_jokers(game, "joker.returned")
    # Rulebook §4 "Events at the round table": the silence is announced when the round table opens.
    game.table.silenced = [n for n in living if n in pw.silenced]
    for n in game.table.silenced:
        game.announce("round_table.silenced", player=n)
    if pw.protected is not None and game.players[pw.protected].alive:
        game.table.protected = pw.protected
    accused, pw.accusation = pw.accusation, None
    if accused is not None and game.players[accused].alive:
        # Rulebook §5 The Sheriff: announced before the vote; a registered Traitor is banished at once.
        game.table.accused = accused
        game.announce("sheriff.accuses", player=accused)
        if not pw.accusation_fails and game.registers_as(accused) is Allegiance.TRAITOR:
            if not game.table.finale and game.table.protected == accused:
                # Rulebook §4: the Judge's protection holds against the accusation too; [house] it also holds
                # in the vote that follows (the protection covers the whole round table).
                game.table.accusation = "protected"
                game.announce("judge.protects.accused", player=accused)
                game.start_clock(Phase.ROUND_TABLE, "round_table", "clock.round_table")
                return None
            game.table.accusation = "banished"
            game.announce("sheriff.success", player=accused)
            return banish(game, accused)
        game.table.accusation = "failed"
        game.announce("sheriff.failed", player=accused)
    game.start_clock(Phase.ROUND_TABLE, "round_table", "clock.round_table")
    return None


def open_first_vote(game: Table) -> Node | None:
    """The round table's first vote: everyone present votes among everyone present."""
    assert game.table
    present = tuple(game.table.present)
    return open_vote(game, "first", present, present)


def open_vote(game: Table, kind: str, voters: tuple[str, ...], candidates: tuple[str, ...]) -> Node | None:
    """Rulebook §4: every eligible contestant gets a vote paper (the holder a double vote paper); with no voter the
    vote closes at once."""
    assert game.table
    holder = None if game.table.finale else game.double_vote_holder
    voters = tuple(v for v in voters if v not in game.table.silenced)
    weights = {v: (2 if v == holder else 1) for v in voters}
    game.ballot = Ballot(kind, voters, candidates, weights, papers={v: vote_paper(v, candidates) for v in voters})
    if kind == "first":
        game.announce("vote.open")
    game.start_clock(Phase.VOTE, "revote" if kind == "revote" else "vote", "clock.vote")
    papers = game.ballot.papers
    handed: list[Effect] = []  # each voter's paper, then its prompt, sent at once
    for v in voters:
        handed += (give(v, Item.DOUBLE_VOTE_PAPER if weights[v] == 2 else Item.VOTE_PAPER), papers[v].prompt)
    game.emit(*handed)
    if not voters:
        return close_vote(game)
    return None


def prompt_vote(game: Table, voter: str) -> None:
    """Ask ``voter`` for their vote in the ballot in progress."""
    assert game.ballot
    game.emit(game.ballot.papers[voter].prompt)


def apply_vote(game: Table, action: CastVote) -> Node | None:
    """Take the voter's paper and give back the cast one; the vote closes when everyone present has voted."""
    b = game.ballot
    assert b
    b.votes[action.actor] = action.target
    paper = Item.DOUBLE_VOTE_PAPER if b.weights[action.actor] == 2 else Item.VOTE_PAPER
    game.emit(
        take(paper, (action.actor,)),
        give(action.actor, Item.CAST_VOTE_PAPER, action.target),
        whisper(action.actor, "vote.cast", target=action.target),
    )
    if everyone_present_voted(game, b):
        return close_vote(game)
    return None


def close_vote(game: Table) -> Node | None:
    """Reveal the papers in seat order, count, then banish or apply the tie rules (rulebook §4)."""
    b, table = game.ballot, game.table
    assert b and table
    game.ballot = None
    voters = list(b.voters)
    tally, count = reveal_votes(game, b, table)
    game.announce("vote.count", count=count)
    present = list(table.present)
    if b.kind == "second":
        best = max((tally.get(c, 0) for c in b.candidates), default=0)
        top = [c for c in b.candidates if tally.get(c, 0) == best]
        if len(top) == 1 and protects(game, top[0]):
            rest = [c for c in b.candidates if c != top[0]]
            best = max((tally.get(c, 0) for c in rest), default=0)
            top = [c for c in rest if tally.get(c, 0) == best]
        if len(top) == 1:
            return banish(game, top[0])
        return deadlock(game, top)
    # first vote (or the everyone-on-one revote)
    if not game.revote_used and (
        (len(present) >= 2 and all(tally.get(c) == 1 for c in present))
        or (not tally and game.settings.no_votes == "revote")
    ):
        # Rulebook §4: every contestant at the table received exactly one vote → a little extra time, everyone
        # votes again. Anyone at the table on no vote (not named, no paper, silenced) makes it an ordinary tie.
        # [house] Nobody voted: everyone is tied too (on none), and gets the same extra vote (no_votes).
        game.revote_used = True
        game.announce("vote.revote" if tally else "vote.revote.none")
        return open_vote(game, "revote", tuple(voters), tuple(present))
    best = max(tally.values(), default=0)
    top = [c for c in present if tally.get(c, 0) == best] if best > 0 else list(present)
    if len(top) == 1 and protects(game, top[0]):
        # Rulebook §4: the contestant with the next most votes is banished; a tie follows the tie rules.
        rest = [c for c in present if c != top[0]]
        best = max((tally.get(c, 0) for c in rest), default=0)
        top = [c for c in rest if tally.get(c, 0) == best]
    if len(top) == 1:
        return banish(game, top[0])
    others = tuple(p for p in present if p not in top)
    if not others:
        # Every contestant at the table is tied: nobody can vote in a second vote → deadlock ([house] §4).
        return deadlock(game, top)
    game.announce("vote.second", players=", ".join(top))
    return open_vote(game, "second", others, tuple(top))


def reveal_votes(game: Table, b: Ballot, table: RoundTableRecord) -> tuple[dict[str, int], str]:
    """Collect the papers and reveal them in seat order (one announcement each); record the round.

    Returns:
        Candidate → votes, and the count as announced ("5-3-1"; "0" when nobody voted).
    """
    voters = list(b.voters)
    fx: list[Effect] = []
    fx += [take(item, b.voters) for item in (Item.VOTE_PAPER, Item.DOUBLE_VOTE_PAPER, Item.CAST_VOTE_PAPER)]
    fx.append(announce("vote.closed"))
    tally: dict[str, int] = {}  # not a Counter: its Python-level constructor, every ballot
    for v in voters:  # the papers are revealed in seat order (one announcement each)
        target = b.votes.get(v)
        if target is None:
            fx.append(announce("vote.reveal.none", voter=v))
        elif b.weights[v] == 2:
            fx.append(announce("vote.reveal.double", voter=v, target=target))
            tally[target] = tally.get(target, 0) + 2
        else:
            fx.append(announce("vote.reveal", voter=v, target=target))
            tally[target] = tally.get(target, 0) + 1
    count = "-".join(str(c) for c in sorted(tally.values(), reverse=True)) or "0"
    table.rounds.append(
        VoteRound(
            kind=b.kind,
            votes={p: b.votes.get(p) for p in table.present},
            weights={v: w for v, w in b.weights.items() if w != 1},
            candidates=list(b.candidates),
            count=count,
        )
    )
    game.emit(*fx)
    return tally, count


def deadlock(game: Table, tied: list[str]) -> Node | None:
    """Rulebook §4 [house]: the k tied draw from k chests; k−1 deadlock shields; the empty chest is banished."""
    assert game.table
    game.table.deadlock = list(tied)
    game.announce("deadlock.start", players=", ".join(tied), count=len(tied))
    drawable = list(tied)
    protected = game.table.protected
    if protected in tied and len(tied) > 1 and protects(game, protected):
        # The Judge's protected contestant cannot draw the empty chest (rulebook §4 Judge's protection).
        drawable = [n for n in tied if n != protected]
    empty = game.draw(drawable)
    for n in tied:
        if n != empty:
            game.emit(give(n, Item.DEADLOCK_SHIELD))
            game.announce("deadlock.shield", player=n)
    game.announce("deadlock.empty", player=empty)
    return banish(game, empty)


def protects(game: Table, name: str) -> bool:
    """True (and announced, once) when the Judge's protection saves ``name`` from banishment (§4)."""
    assert game.table
    if game.table.finale or game.table.protected != name or game.table.protection_used:
        return False
    game.table.protection_used = True
    game.announce("judge.protects", player=name)
    return True


def banish(game: Table, name: str) -> Node | None:
    """Rulebook §4: the banished reveals Faithful or Traitor, unless five or fewer remain or in the finale; then
    the finale's torches, the night, or the end."""
    assert game.table
    table = game.table
    p = game.players[name]
    p.alive = False
    p.publicly_out = True
    p.out = "banished"
    p.out_day = game.day
    game.last_removed = name
    game.record_out(name)
    table.banished = name
    game.announce("banish.result", player=name)
    game.emit(Eliminated(name, "banished"))
    if name in game.powers.jokers:
        game.powers.jokers.discard(name)
        if not game.impaired(name):
            # Rulebook §6: if the Joker is banished, the series ends at once.
            table.joker = True
            game.announce("joker.banished", player=name)
            game.end_series(Termination.JOKER_BANISHED, joker=name)
            return None
    reveal = not table.finale and len(table.present) > game.settings.no_reveal_from
    if reveal:
        table.revealed = p.allegiance.value
        game.emit(Revealed(name, p.allegiance))
        game.announce("banish.reveal", player=name, allegiance=allegiance_term(p.allegiance))
    else:
        game.announce("banish.no_reveal", player=name)
    game.emit(take(Item.DEADLOCK_SHIELD))
    game.move([name], Place.GATE)
    alerted, game.powers.alerted = game.powers.alerted, None
    if (
        alerted is not None
        and alerted != name
        and game.players[alerted].alive
        and p.allegiance is not Allegiance.TRAITOR
    ):
        # Rulebook §4, §5: the alerted Survivor is murdered right after a round table that fails to banish
        # a Traitor.
        table.survivor_murdered = alerted
        murder(game, alerted)
        game.players[alerted].publicly_out = True
        game.record_out(alerted)
        game.announce("survivor.murdered", player=alerted)
        game.emit(Eliminated(alerted, "murdered"))
    living = game.living()
    if table.finale or len(living) <= game.settings.finalists:
        if len(living) <= 2:
            game.announce("finale.two_left")
            game.end_series(Termination.TWO_LEFT)
            return None
        if not table.finale:
            game.announce("phase.finale")
        return Stage.TORCHES
    return Stage.NIGHT


def everyone_present_voted(game: Table, b: Ballot) -> bool:
    """The vote closes early when every voter still present has cast a paper; an absent voter's paper then
    counts as No vote. With no voter present at all it waits for its clock or the host, so a server
    restart (everyone gone at once) never closes a vote by itself (docs/house-rules.md)."""
    players, votes = game.players, b.votes
    anyone_here = False
    for v in b.voters:
        if players[v].present:
            if v not in votes:
                return False
            anyone_here = True
    return anyone_here


def check_vote(game: Table, action: CastVote) -> None:
    """Raise ``IllegalAction`` unless ``action`` is a vote the open ballot accepts (rulebook §4)."""
    b = game.ballot
    if game.phase is not Phase.VOTE or b is None:
        raise IllegalAction("illegal.vote.not_open")
    if action.actor not in b.voters:
        raise IllegalAction("illegal.vote.not_eligible")
    if action.actor in b.votes:
        raise IllegalAction("illegal.vote.twice")
    if action.target == action.actor:
        raise IllegalAction("illegal.vote.self")
    if action.target not in b.candidates:
        raise IllegalAction("illegal.vote.target", target=action.target)


def list_vote(game: Table, player: str) -> Sequence[Action]:
    """The vote paper's options, for a voter who has not voted (the voters are the papers' holders)."""
    b = game.ballot
    if b and player in b.papers and player not in b.votes:
        return b.papers[player].inputs
    return ()
