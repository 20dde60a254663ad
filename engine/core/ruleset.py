"""The common interface of every ruleset's game (``engine.rulesets``): what the bridge (service, demo, scenarios,
export, the balance lab) may ask of a series, whatever its ruleset.

``Ruleset`` is what the registry holds for each ruleset: its game class and settings class, and what the bridge shows
of it (title, record headings, summary columns) and needs to build a series (contestant range, game family), so
that the bridge reads a ruleset's facts from its spec instead of picking the ruleset out by name.

A game class of a ruleset satisfies ``RulesetGame`` structurally (``typing.Protocol``): The Traitors'
``engine.rulesets.traitors.game.Game`` and the club rulesets' ``engine.rulesets.club.game.ClubGame``. What every
ruleset does the same way is shared by inheritance instead: the input step (``engine.core.step.InputStep``), the
castle's copy of the effects (``engine.tracking.CastleTracker``) and, for the club rulesets, the host controls
(``engine.core.host.HostControls``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.actions import Action
from engine.core.knobs import BalanceKnobs
from engine.core.settings_form import SettingsForm
from engine.effects import Effect, Label
from engine.ids import Enum, Item, Place
from engine.outcome import Outcome
from engine.record import SeriesRecord
from engine.tracking import WorldState
from engine.views import LazyView


class RulesetGame(Protocol):
    """One series of some ruleset: ``Game(settings, seed)``, then ``handle`` each input.

    Args:
        settings: the ruleset's settings (``engine.rulesets.Ruleset.settings``), validated by the constructor.
        seed: the seed of the series' one random generator (a secret: never in a view).

    Raises:
        ConfigError: the settings are invalid (the constructor).
    """

    def __init__(self, settings: Any, seed: int) -> None: ...

    @classmethod
    def replay(cls, settings: Any, seed: int, log: Iterable[dict[str, Any]]) -> RulesetGame:
        """Rebuild a series from its input log: the same state, views and record."""
        ...

    def handle(self, action: Action, *, now: float) -> list[Effect]:
        """Apply one input at ``now`` (seconds) and return its effects.

        Raises:
            InvalidCommand: an unknown contestant or an input of another ruleset.
            IllegalAction: the rules forbid it now; the state is unchanged.
        """
        ...

    def legal_actions(self, player: str) -> list[Action]:
        """Every input ``player`` (a contestant or host) may send now, one per choice, in a stable order."""
        ...

    def view_for(self, name: str) -> Any:
        """What contestant ``name`` may know now (``engine.views.PlayerView``)."""
        ...

    def lazy_view(self, name: str) -> LazyView:
        """``view_for(name)``, each field worked out when first read (``engine.views.LazyView``; valid until the
        next input)."""
        ...

    def seats(self) -> dict[str, int]:
        """Contestant → seat number (public)."""
        ...

    def contestants(self) -> list[str]:
        """Every contestant in seat order."""
        ...

    def living(self) -> list[str]:
        """Contestants still in the series (not banished, murdered or otherwise out), in seat order."""
        ...

    def present(self) -> list[str]:
        """Contestants still in the series whose players are on the server, in seat order."""
        ...

    def player_of(self, contestant: str) -> str:
        """The player who plays ``contestant``'s seat now (``ReplaceContestant``)."""
        ...

    def contestant_of(self, player: str) -> str | None:
        """The contestant whose seat ``player`` plays now, or ``None``."""
        ...

    def world_state(self) -> WorldState:
        """What the castle should look like now (the state to restore after a crash)."""
        ...

    @property
    def is_over(self) -> bool:
        """True once the series has ended."""
        ...

    @property
    def settings(self) -> Any:
        """The series settings."""
        ...

    @property
    def ruleset(self) -> str:
        """The ruleset's name in ``engine.rulesets.RULESETS``."""
        ...

    @property
    def hosts(self) -> frozenset[str]:
        """Who may use the host controls."""
        ...

    @property
    def started(self) -> bool:
        """True once ``StartSeries`` was taken."""
        ...

    @property
    def phase(self) -> Enum | None:
        """The current phase (``None`` before the start)."""
        ...

    @property
    def day(self) -> int:
        """The current day (0 before the first)."""
        ...

    @property
    def phase_seq(self) -> int:
        """The sequence number of the current phase clock (a ``TimerExpired`` names it)."""
        ...

    @property
    def deadline(self) -> float | None:
        """When the current phase clock runs out (seconds), or ``None`` (no clock, or paused)."""
        ...

    @property
    def outcome(self) -> Outcome | None:
        """The result once the series is over."""
        ...

    @property
    def log(self) -> Sequence[dict[str, Any]]:
        """The input log (``engine.core.step.InputLog``)."""
        ...

    @property
    def record(self) -> SeriesRecord:
        """The series record (secret until the end)."""
        ...

    @property
    def items(self) -> dict[str, list[tuple[Item, Label]]]:
        """What the engine has put in each contestant's inventory."""
        ...

    @property
    def places(self) -> dict[str, tuple[Place, int | None]]:
        """Where each contestant was last sent."""
        ...


@dataclass(frozen=True, slots=True)
class Ruleset:
    """One registered ruleset (``engine.rulesets.RULESETS``), declared by its own package.

    Args:
        name: the registry key (``"traitors"``, ``"black_knights"``, ``"mafia_yakuza"``), also the ``ruleset`` of
            its settings, games and records.
        title: the display name (the heading of its text record, the command line's help).
        game: the game class (the common interface, ``RulesetGame``).
        settings: the settings class its games take (``Settings``, ``ClubSettings``); a club settings value
            takes the ruleset's name first.
        rulebook: the ruleset's rules page under ``docs/rules/``.
        family: the game its series play, which the bridge's per-game tables (the web grimoire's readers, the
            demo's settings and summary lines) are keyed by: ``"traitors"`` (The Traitors' own game,
            ``engine.rulesets.traitors``) or ``"club"`` (the club game, ``engine.rulesets.club``).
        sizes: the contestant range ``(fewest, most)`` of a series, both included.
        hand: the two headings of what a contestant was dealt in the record's "Contestants" table (``("Allegiance",
            "Power")``, ``("Team", "Role")``).
        survivor: the record's word for a contestant still in when the series ended (``"Finalist"``).
        columns: the counted columns of the record's summary in table order, ``(heading, summary key)``
            (``bridge.app.summary.summarize`` counts every key it knows).
        castle_places: the castle's places each contestant needs one of (``"seats"`` at the round table,
            ``"homes"``, ``"breakfast"`` places for The Traitors' breakfast, rulebook §10), checked against the
            castle before a series is served.
        form: the settings' keys (``engine.core.settings_form.SettingsForm``): what a series file and the store's
            JSON take, how they are read into ``settings`` and written back, the check, a cast's usual settings.
        twists: the twists a host may start or cancel (``engine.ids.Twist`` values, ``StartTwist``), in the
            order the web grimoire lists them; ``()`` for a ruleset without twists.
        rules: a club ruleset's rules table (``engine.rulesets.club.settings.ClubRules``: roles, wake order,
            switches), which its settings are checked against and the club bots read; ``None`` for a ruleset
            with a game of its own (The Traitors).
        messages: the ruleset's own English messages (catalogue key → text, keys under its prefix), merged into
            ``engine.messages.CATALOG`` when the ruleset is registered (``engine.rulesets.register``).
        good_side: the side that wins by finding the hidden enemies (``engine.outcome.Winner`` value:
            ``"faithful"``, ``"white_order"``, ``"town"``): the club bots' good team, the balance lab's good side.
        rule_text: the rule text the rules page restates, a file under ``docs/rules/source/`` (the authority).
        rule_id: the pattern of the page's rule ids (a regular expression: ``T\\d+\\.\\d+``, ``BK\\d+``), its
            leading capitals the ids' prefix; the rules trace (``docs/rules/trace.md``) reads both.
        powers: the power tables of a ruleset with powers, for the host's night-order sheet
            (``bridge/web/sheets.py``): The Traitors' ``engine.rulesets.traitors.powers`` (``POWERS``,
            ``NIGHT_ORDER``, ``VISIT_ORDER``, the stage ``TURRET``, the steps ``MURDER`` and ``GUESS``); ``None``
            for a ruleset without powers.
        balance: the setups the balance lab compares (``engine.core.knobs.BalanceKnobs``); ``None``: the lab
            does not offer the ruleset.
        twist_table: the twist registry of a ruleset with twists, which the host's console (the twists' titles)
            and the trigger table (the twists' numbers and inputs) read: The Traitors'
            ``engine.rulesets.traitors.twists`` (``SPECS``, ``TITLES``, ``INPUTS``, ``REVISION``); ``None`` for a
            ruleset without twists.
        console_phases: the phase each phase-bound button of the castle's host console is meant for, by the
            button's name in lower case (``"open_vote"`` → the phase the vote opens from); a button the ruleset
            binds no phase to tells the host it is not the time.
    """

    name: str
    title: str
    game: type[RulesetGame]
    settings: type[Any]
    rulebook: str
    family: str
    sizes: tuple[int, int]
    hand: tuple[str, str]
    survivor: str
    columns: tuple[tuple[str, str], ...]
    form: SettingsForm
    castle_places: tuple[str, ...] = ("seats", "homes")
    twists: tuple[str, ...] = ()
    # What a ruleset declares for the engine's shared parts (the club game, the catalogue, the bots, the lab).
    rules: Any = None
    messages: Mapping[str, str] = field(default_factory=dict)
    good_side: str = ""
    rule_text: str = ""
    rule_id: str = ""
    powers: Any = None
    balance: BalanceKnobs | None = None
    twist_table: Any = None
    console_phases: Mapping[str, Enum] = field(default_factory=dict)


__all__ = ["Ruleset", "RulesetGame"]
