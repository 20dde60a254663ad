"""The phases of a Traitors series and what ends each one (rulebook §3, §4, §7, §9).

House rules of the phases:

1. Every phase has a clock (``Settings.durations``). When it runs out, or the host moves on early
   (``Advance``), the phase ends as its row of the phase graph says (``engine.rulesets.traitors.rules.PHASES``). A phase never ends twice: each clock carries the
   phase sequence number and a ``TimerExpired`` for any other number is ignored.
2. Some phases also end early when everyone has acted: the vote when every paper is cast; and, only without
   ``night_fixed_length`` (house rule 9), the Oath after the third answer, the Turret when every Traitor has
   chosen, the offer when it is answered, the Traitor-power phase and the host visit when every contestant
   prompted has used their power or passed, the Confession when the response is sent and the Faithful's
   nomination when every vote is in. The finale vote
   never ends early: a vote can be changed until the host (or the clock) locks it, and the lock waits for the host's
   question whether everybody is happy with their decision (``engine.rulesets.traitors.finale``).
3. Day zero has no round table. The night after day zero is for the Oath and the Turret's nominations; it
   has a murder only with ``first_night_murder``.
4. A night that begins with ``finalists + 1`` or fewer contestants has no event (no murder, seduction or
   ultimatum), so that the final round table always leaves ``finalists`` contestants for the finale.
5. A night runs: Oath → Turret (event, nominations) → Traitor powers → offer (seduce/ultimatum: the Traitors
   meet the contestant at home) → the Traitors go home (the Trial begins) → host visit → the night resolves in
   ``engine.rulesets.traitors.powers.NIGHT_ORDER`` → breakfast. The Traitor-power and host-visit phases
   happen on the nights that may have an event (from night 1, or night 0 with ``first_night_murder``); which
   of them run, and for how long, is house rule 9.
6. Twists (``engine.rulesets.traitors.twists``) add two phases: the Faithful's nomination vote at the start of host visiting
   (``NOMINATION``) and the nominee's Guess or Seer visit before the round table (``NOMINEE``); each ends early
   when everyone asked has answered.
7. The night is one public stage: every clock of a night phase (the Oath, the Turret, the Traitor powers, the
   offer, the host visit, the nomination) is shown to everyone as "Night", and the public view names the phase
   ``night`` (``public_phase``), and the host's visit is told to each one visited, not announced, so which of
   them run tonight (a recruit's Oath, an offer, a usable power) is not told to anyone outside them.
8. The series ends at breakfast when no Traitor is left ([house] rulebook §9), at the finale when every
   finalist holds the end-game torch or two remain (rulebook §9).
9. [house] With ``night_fixed_length`` (the default) the night's public clocks are the same whatever happened
   in secret: every night stage runs its whole clock, whoever answered (the host's ``Advance`` still ends one
   early, for everyone to see), and every stage the night may have runs even when nobody acts in it: one Oath
   clock on every night after night zero (one per Traitor dealt on night zero), the Turret as before (it runs
   when the night has something to decide, which everyone can work out), the Traitor powers on every night
   with powers, the offer on every night that may have an event (the Traitors go home as it starts when there
   is no offer), and the host's visit on every night with powers. Private prompts come and go inside these
   clocks. Without it, a stage ends when everyone in it has answered and is left out when nobody acts there.
"""

from __future__ import annotations

from engine.ids import Enum


class Phase(Enum):
    """Where the series is."""

    DAY_ZERO = "day_zero"
    BREAKFAST = "breakfast"
    DISCUSSION = "discussion"
    ROUND_TABLE = "round_table"
    VOTE = "vote"
    OATH = "oath"
    TURRET = "turret"
    OFFER = "offer"
    TRAITOR_POWERS = "traitor_powers"
    """The Turret, after the night's event is chosen: each Traitor uses their power (rulebook §5, §7.2)."""
    HOST_VISIT = "host_visit"
    """The host visits each Faithful with something to do, in the night order (rulebook §7.4)."""
    NOMINATION = "nomination"
    """Host visiting: the Faithful vote to nominate for the Guess or Seer twist (rulebook §7.4, §8)."""
    NOMINEE = "nominee"
    """Before the round table: the nominee makes the Guess or visits the Seer; the round table waits (§3.3)."""
    TORCHES = "torches"
    OVER = "over"


class Stage(Enum):
    """A node of the phase graph between phases (``engine.rulesets.traitors.rules.PHASES``): a step of play that
    another phase module's step (or a twist) leads to. A step names the stage it leads to by returning it, and a
    twist by ``Table.go``."""

    NIGHT = "night"
    """After the round table: the breakfast heads are taken away and the night begins (rulebook §7)."""
    AFTER_TURRET = "after_turret"
    """The Turret is over: the Traitor powers, then the offer or host visiting (rulebook §5, §7.2)."""
    TURRET_ANSWERED = "turret_answered"
    """A Traitor chose in the Turret: it closes if every Traitor has made every choice tonight."""
    END_CONFESSION = "end_confession"
    """The Confession is over: the Traitors make the night's decisions (rule T8.4)."""
    OFFER = "offer"
    """The Traitors meet the contestant they seduce (or give an ultimatum) at home (rulebook §7.2)."""
    NO_OFFER = "no_offer"
    """No offer tonight: the Traitors go home and the offer's clock runs anyway (house rule 9)."""
    HOST_VISIT = "host_visit"
    """Host visiting begins (rulebook §7.4)."""
    END_NIGHT = "end_night"
    """The night ends: murders are settled and day breaks (rulebook §7.5)."""
    BREAKFAST = "breakfast"
    """A new day begins at breakfast (rulebook §3)."""
    ROUND_TABLE = "round_table"
    """The round table opens (rulebook §4)."""
    TORCHES = "torches"
    """The finale's torches (rulebook §9)."""


Node = Phase | Stage
"""A node of the Traitors' phase graph."""

NIGHT_PHASES: frozenset[Phase] = frozenset(
    {Phase.OATH, Phase.TURRET, Phase.TRAITOR_POWERS, Phase.OFFER, Phase.HOST_VISIT, Phase.NOMINATION}
)
"""The phases of the night (house rule 7): shown to everyone as the one public stage "Night"."""

NIGHT_LABEL = "clock.night"
"""The public clock's label of every phase in ``NIGHT_PHASES`` (house rule 7)."""


def public_phase(phase: Phase | None) -> str:
    """The phase's name as everyone may know it (``PublicView.phase``, house rule 7): ``"night"`` for a phase of
    ``NIGHT_PHASES``, ``"not_started"`` before the start, else the phase's value."""
    if phase is None:
        return "not_started"
    return "night" if phase in NIGHT_PHASES else phase.value


def clock_label(phase: Phase, label: str) -> str:
    """The message key the public clock shows for ``phase`` (house rule 7): ``NIGHT_LABEL`` at night, else
    ``label``."""
    return NIGHT_LABEL if phase in NIGHT_PHASES else label
