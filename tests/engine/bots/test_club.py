"""The club rulesets' smart bots (``engine.bots.club``): what they learn from their own messages, and what they
choose from it."""

from __future__ import annotations

import random
from collections import Counter

from bridge.app.demo import demo_settings
from engine.actions import AskRepeat, CastVote, HoldBack, KeepEveryone, NominateCandidate, SkipPower, UsePower
from engine.bots import SmartBot, make_bot
from engine.bots.club import ClubBot
from engine.bots.suspicion import SuspicionBot
from engine.sim import play_series
from engine.views import PlayerView, PublicView

NAMES = tuple(demo_settings(12, "black_knights").contestants)
ME = NAMES[0]


def view(
    allegiance: str, *, fellows: tuple[str, ...] = (), out: tuple[str, ...] = (), phase: str = "vote", me: str = ME
) -> PlayerView:
    """The view of ``me`` with every contestant but ``out`` still in."""
    public = PublicView(
        day=1,
        phase=phase,
        seats=tuple((n, i + 1) for i, n in enumerate(NAMES)),
        in_castle=tuple(n for n in NAMES if n not in out),
        out=(),
        winner=None,
        winners=(),
    )
    return PlayerView(me, public, True, allegiance, None, None, fellows, (), (), ())


def told(bot: ClubBot | SmartBot, key: str, **params: str) -> None:
    bot.observe(key, tuple(params.items()))


def club_bot(ruleset: str = "black_knights", me: str = ME) -> ClubBot:
    bot = make_bot("smart", me, random.Random(1), ruleset=ruleset)
    assert isinstance(bot, ClubBot)
    told(bot, f"{bot.rules.prefix if bot.rules else ''}.welcome", count=str(len(NAMES)))
    return bot


def votes(voter: str, *skip: str) -> list[CastVote]:
    return [CastVote(voter, n) for n in NAMES if n != voter and n not in skip]


def test_the_count_of_enemies_comes_from_the_deal_or_the_hosts_list() -> None:
    bk = club_bot("black_knights")
    assert bk.enemies_dealt() == 4  # 12: the Grey Cardinal, two Black Knights, the Mad Knight
    my = club_bot("mafia_yakuza")
    for code, count in (("don", 1), ("mafioso", 1), ("commissar", 1), ("maniac", 1), ("citizen", 3)):
        told(my, f"my.setup.{code}", count=str(count))
    assert my.enemies_dealt() == 3


def test_a_lords_check_points_the_vote_and_a_white_card_clears() -> None:
    lord = club_bot()
    target, dead = NAMES[5], NAMES[3]
    told(lord, "bk.check.lord.black", player=target)
    told(lord, "club.died", player=dead)
    told(lord, "bk.reveal.white_knight", player=dead)
    p = lord.chances(view("white_order", out=(dead,)), True)
    assert p[target] > 0.9 and p[dead] == 0.0 and p[ME] == 0.0
    choice = lord.choose(view("white_order", out=(dead,)), votes(ME, dead))
    assert choice == CastVote(ME, target)
    # A fellow White contestant who was not told the answer does not single the same contestant out.
    other = club_bot(me=NAMES[1])
    told(other, "club.died", player=dead)
    told(other, "bk.reveal.white_knight", player=dead)
    assert other.chances(view("white_order", out=(dead,), me=NAMES[1]), True)[target] < 0.5


def test_a_town_voter_never_keeps_everyone() -> None:
    bot = club_bot("mafia_yakuza")
    told(bot, "my.setup.don", count="4")
    legal = [*votes(ME), KeepEveryone(ME)]
    assert isinstance(bot.choose(view("town"), legal), CastVote)


def test_an_evil_voter_spares_a_fellow_the_town_does_not_suspect() -> None:
    bot = club_bot()
    fellow = NAMES[1]
    choice = bot.choose(view("black_order", fellows=(fellow,)), votes(ME))
    assert isinstance(choice, CastVote) and choice.target != fellow


def test_a_repeat_is_asked_for_a_good_card_by_the_good_and_for_a_fellow_by_the_evil() -> None:
    legal = [AskRepeat(ME, True), AskRepeat(ME, False)]
    for card, good_asks in (("white_knight", True), ("black_knight", False)):
        good, evil = club_bot(), club_bot()
        for bot in (good, evil):
            told(bot, "bk.leaves", player=NAMES[4])
            told(bot, f"bk.reveal.{card}", player=NAMES[4])
        assert good.choose(view("white_order"), legal) == AskRepeat(ME, good_asks)
        fellows = (NAMES[4],) if card == "black_knight" else ()
        assert evil.choose(view("black_order", fellows=fellows), legal) == AskRepeat(ME, not good_asks)


def test_a_speaker_holds_back_when_the_likeliest_enemy_is_a_candidate() -> None:
    bot = club_bot()
    target = NAMES[6]
    told(bot, "bk.check.lord.black", player=target)
    nominees = [NominateCandidate(ME, n) for n in NAMES[1:]]
    assert bot.choose(view("white_order"), [*nominees, HoldBack(ME)]) == NominateCandidate(ME, target)
    rest = [a for a in nominees if a.target != target]
    assert bot.choose(view("white_order"), [*rest, HoldBack(ME)]) == HoldBack(ME)


def test_the_doctor_cures_the_poisoned_and_nobody_visits_a_mine_but_a_commissar() -> None:
    bot = club_bot("mafia_yakuza")
    told(bot, "my.setup.don", count="4")
    poisoned, mined = NAMES[2], NAMES[3]
    told(bot, "my.news.poisoned", player=poisoned, night="3")
    told(bot, "my.news.mined", player=mined)
    uses = [UsePower(ME, n) for n in NAMES] + [SkipPower(ME)]
    told(bot, "my.prompt.heal")
    assert bot.choose(view("town", phase="night"), uses) == UsePower(ME, poisoned)
    told(bot, "my.prompt.mistress")
    assert bot.choose(view("town", phase="night"), uses[1:]) != UsePower(ME, mined)


def test_a_shot_that_missed_marks_a_contestant_to_vote_out() -> None:
    bot = club_bot("mafia_yakuza")
    told(bot, "my.setup.don", count="4")
    told(bot, "my.prompt.mafia_shot")
    shot = bot.choose(view("mafia", phase="night"), [UsePower(ME, n) for n in NAMES[1:]])
    assert isinstance(shot, UsePower)
    told(bot, "club.no_deaths")  # the next day the shot contestant is still in
    assert bot.choose(view("mafia"), votes(ME)) == CastVote(ME, shot.target)


def test_the_smart_kind_tells_the_ruleset_from_the_welcome() -> None:
    assert isinstance(make_bot("smart", ME, random.Random(1), ruleset="traitors"), SuspicionBot)
    bot = make_bot("smart", ME, random.Random(1))
    assert isinstance(bot, SmartBot) and bot.club is None
    told(bot, "my.welcome", count="12")
    assert bot.club is not None and bot.club.rules is not None and bot.club.rules.name == "mafia_yakuza"


def test_smart_white_order_beats_random_evil_teams() -> None:
    settings = demo_settings(12, "black_knights")
    bots = {"white_order": "smart", "black_order": "random", "alone": "random"}
    smart = Counter(play_series(settings, seed, bots)[1].winner for seed in range(20))
    plain = Counter(play_series(settings, seed, "random")[1].winner for seed in range(20))
    assert smart["white_order"] >= 13 > plain["white_order"]
