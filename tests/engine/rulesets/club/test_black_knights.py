"""Black Knights (``docs/rules/black-knights.md``): one scenario test (at least) per [rule] and [house] line,
named after the rulebook's sections."""

from __future__ import annotations

import pytest

from engine.actions import CastVote, NominateCandidate, UsePower
from engine.errors import IllegalAction
from engine.outcome import Termination, Winner
from engine.rulesets.club.black_knights import default_deal
from engine.rulesets.club.game import ClubPhase
from engine.rulesets.club.night import targets

BK = "black_knights"
BK8 = (
    ("Alex", "courtesan"),
    ("Kai", "grey_cardinal"),
    ("Zuri", "black_knight"),
    ("Steve", "mad_knight"),
    ("Ari", "lord"),
    ("Noor", "heir"),
    ("Sunny", "healer"),
    ("Efe", "white_knight"),
)
BK11 = (*BK8, ("Lena", "black_knight"), ("Omar", "white_knight"), ("Rhea", "white_knight"))


def first_night(club, deal=BK8, **kw):
    """A game past the introduction night and day 1 (nobody put forward), at night 1."""
    d = club(BK, deal, **kw)
    d.to_day()
    d.speeches({})
    assert d.phase is ClubPhase.NIGHT and d.game.night_no == 1
    return d


class TestRoles:
    @pytest.mark.parametrize(
        ("n", "black", "white"), [(8, 1, 1), (9, 1, 2), (10, 1, 3), (11, 2, 3), (14, 3, 5), (16, 3, 7)]
    )
    def test_default_deal_house(self, n, black, white):
        roles = default_deal(n)
        assert len(roles) == n
        for one in ("grey_cardinal", "courtesan", "mad_knight", "lord", "heir", "healer"):
            assert roles.count(one) == 1
        assert roles.count("black_knight") == black and roles.count("white_knight") == white

    def test_random_deal_uses_the_default_deal(self, club):
        from engine.actions import StartSeries
        from engine.rulesets import new_game
        from engine.rulesets.club.game import ClubSettings

        names = tuple(n for n, _ in BK11)
        g = new_game(ClubSettings(BK, names), 4)
        g.handle(StartSeries(), now=0)
        assert sorted(p.role for p in g.players.values()) == sorted(default_deal(11))


class TestStart:
    @pytest.mark.rule("BK1")
    def test_each_contestant_looks_at_their_card_secretly(self, club):
        d = club(BK, BK8)
        for name, role in BK8:
            whispers = [e for e in d.effects if getattr(e, "to", None) == frozenset({name})]
            assert any(e.message.key == f"bk.deal.{role}" for e in whispers if hasattr(e, "message"))

    @pytest.mark.rule("BK2")
    def test_introduction_night_no_kills_teams_meet(self, club):
        d = club(BK, BK8)
        assert d.game.night_record.acts == [] and d.game.night_record.deaths == {}
        assert d.phase is ClubPhase.MORNING and d.alive() == {n for n, _ in BK8}
        assert d.game.known_to("Kai") == ("Zuri",) and d.game.known_to("Zuri") == ("Kai",)
        assert d.game.known_to("Ari") == ("Noor",) and d.game.known_to("Noor") == ("Ari",)
        assert d.game.known_to("Steve") == () and d.game.known_to("Alex") == ()

    @pytest.mark.rule("BK3")
    def test_day_execution_off_nobody_to_the_gallows(self, club):
        d = club(BK, BK8, day_execution=False)
        d.to_day()
        assert d.game.legal_actions("Alex") == []  # nobody nominates
        while d.phase is ClubPhase.SPEECH:
            d.advance()
        assert d.phase is ClubPhase.NIGHT and ("bk.no_execution", {}) in d.said()


class TestNight:
    @pytest.mark.rule("BK4")
    def test_wake_order(self, club):
        d = first_night(club)
        seen = []
        while d.phase is ClubPhase.NIGHT:
            seen.append((d.game.current_step().name, tuple(d.game.pending)))
            for a in list(d.game.pending):
                from engine.actions import SkipPower

                d.do(SkipPower(a))
            d.expire()
        assert seen == [
            ("courtesan", ("Alex",)),
            ("black_kill", ("Kai", "Zuri")),
            ("cardinal_check", ("Kai",)),
            ("mad_knight", ("Steve",)),
            ("lord", ("Ari",)),
            ("healer", ("Sunny",)),
        ]

    @pytest.mark.rule("BK6")
    def test_courtesan_blocks_an_active_role_and_a_new_one_each_night(self, club):
        """BK6: «Каждую ночь должна выбирать нового игрока.» (each night she must choose a new player). [house] "New"
        is read as: not the one of the night before."""
        d = first_night(club)
        d.night({"courtesan": {"Alex": "Ari"}, "lord": {"Ari": "Kai"}})
        assert "club.blocked" in d.told("Ari")
        assert not any(k.startswith("bk.check.lord") for k in d.told("Ari"))
        d.to_day()
        d.speeches({})
        assert "Ari" not in targets(d.game, "Alex")
        with pytest.raises(IllegalAction):
            d.do(UsePower("Alex", "Ari"))

    @pytest.mark.rule("BK10")
    def test_courtesan_blocks_the_mad_knight(self, club):
        d = first_night(club)
        d.night({"courtesan": {"Alex": "Steve"}, "mad_knight": {"Steve": "Efe"}})
        assert "club.blocked" in d.told("Steve")
        assert "Efe" in d.alive() and d.game.night_record.deaths == {}
        assert not any(a["step"] == "mad_knight" for a in d.game.night_record.acts)

    @pytest.mark.rule("BK7", "BK8")
    def test_black_kill_unanimous(self, club):
        d = first_night(club)
        d.night({"black_kill": {"Kai": "Efe", "Zuri": "Efe"}})
        assert d.game.night_record.deaths == {"Efe": "shot"}

    @pytest.mark.rule("BK7")
    def test_black_kill_split_grey_cardinal_decides(self, club):
        """BK7: «В случае сомнений, итоговое решение принимает Серый Кардинал.» (in case of doubt, the Grey Cardinal
        decides). [house] Doubt is a split of the picks; the others are told the Grey Cardinal's pick."""
        d = first_night(club)
        d.night({"black_kill": {"Kai": "Efe", "Zuri": "Sunny"}})
        assert d.game.night_record.deaths == {"Efe": "shot"}
        assert "club.team.pick" in d.told("Zuri")

    def test_blocked_grey_cardinal_has_no_say(self, club):
        d = first_night(club)
        d.night(
            {
                "courtesan": {"Alex": "Kai"},
                "black_kill": {"Kai": "Efe", "Zuri": "Sunny"},
                "cardinal_check": {"Kai": "Ari"},
            }
        )
        assert d.game.night_record.deaths == {"Sunny": "shot"}
        assert not any(k.startswith("bk.check.cardinal") for k in d.told("Kai"))  # the check is blocked

    def test_black_kill_fails_only_if_every_black_member_is_blocked(self, club):
        d = club(BK, (("Alex", "courtesan"), ("Kai", "grey_cardinal"), *BK8[3:]))
        d.to_day()
        d.speeches({})
        d.night({"courtesan": {"Alex": "Kai"}})
        assert "black_kill" not in {a["step"] for a in d.game.night_record.acts}
        assert "club.blocked" in d.told("Kai")

    @pytest.mark.rule("BK9")
    @pytest.mark.parametrize(
        ("target", "answer"), [("Ari", "crown"), ("Sunny", "syringe"), ("Efe", "neither"), ("Steve", "neither")]
    )
    def test_grey_cardinal_check(self, club, target, answer):
        d = first_night(club)
        d.night({"cardinal_check": {"Kai": target}})
        assert f"bk.check.cardinal.{answer}" in d.told("Kai")

    @pytest.mark.rule("BK10", "BK8")
    def test_mad_knight_attack_kills_unless_healed(self, club):
        d = first_night(club)
        d.night({"mad_knight": {"Steve": "Efe"}, "healer": {"Sunny": "Alex"}})
        assert d.game.night_record.deaths == {"Efe": "shot"}

    @pytest.mark.parametrize(
        ("target", "answer"),
        [
            ("Zuri", "black"),
            ("Kai", "black"),
            ("Steve", "mad"),
            ("Efe", "white"),
            ("Alex", "white"),
            ("Noor", "white"),
            ("Sunny", "white"),
        ],
    )
    @pytest.mark.rule("BK11")
    def test_lord_check_heir_watches(self, club, target, answer):
        d = first_night(club)
        d.night({"lord": {"Ari": target}})
        assert f"bk.check.lord.{answer}" in d.told("Ari")
        assert f"bk.check.lord.{answer}" in d.told("Noor")
        assert not any(k.startswith("bk.check.lord") for k in d.told("Efe"))

    @pytest.mark.rule("BK13")
    def test_heir_becomes_lord_and_checks(self, club):
        d = first_night(club)
        d.night({"black_kill": {"Kai": "Ari", "Zuri": "Ari"}})
        assert "Ari" not in d.alive()
        assert d.game.players["Noor"].role == "lord" and "bk.promoted.lord" in d.told("Noor")
        d.to_day()
        d.speeches({})
        d.night({"courtesan": {"Alex": "Efe"}, "cardinal_check": {"Kai": "Noor"}, "lord": {"Noor": "Zuri"}})
        assert "bk.check.lord.black" in d.told("Noor")
        assert "bk.check.cardinal.crown" in d.told("Kai")

    @pytest.mark.rule("BK8")
    def test_heal_saves_from_every_attack_of_the_night(self, club):
        """BK8: «Исключение: игрока вылечил Лекарь.» (exception: the Healer healed the player). [house] The heal holds
        against every attack of the night, though the Healer wakes last."""
        d = first_night(club)
        d.night(
            {"black_kill": {"Kai": "Efe", "Zuri": "Efe"}, "mad_knight": {"Steve": "Efe"}, "healer": {"Sunny": "Efe"}}
        )
        assert d.game.night_record.deaths == {} and d.game.night_record.saved == ["Efe"]

    @pytest.mark.rule("BK14")
    def test_healer_a_new_one_each_night(self, club):
        """BK14: «Каждую ночь должен выбирать нового игрока.» (each night he must choose a new player). [house] "New"
        is read as: not the one of the night before; passing a night is allowed."""
        d = first_night(club)
        d.night({"healer": {"Sunny": "Sunny"}})
        d.to_day()
        d.speeches({})
        d.night({})
        assert True  # passing is allowed
        d.to_day()
        d.speeches({})
        d.night({"healer": {"Sunny": "Efe"}})
        d.to_day()
        d.speeches({})
        while d.game.current_step().name != "healer":
            for a in list(d.game.pending):
                from engine.actions import SkipPower

                d.do(SkipPower(a))
            d.expire()
        assert "Efe" not in targets(d.game, "Sunny") and "Sunny" in targets(d.game, "Sunny")


class TestDay:
    @pytest.mark.rule("BK15", "BK8")
    def test_night_death_card_turned_no_last_word(self, club):
        d = first_night(club)
        d.night({"black_kill": {"Kai": "Efe", "Zuri": "Efe"}})
        assert ("club.died", {"player": "Efe"}) in d.said()
        assert ("bk.reveal.white_knight", {"player": "Efe"}) in d.said()
        assert "bk.last_word" not in [k for k, _ in d.said()]
        assert d.game.view_for("Alex").public.out[0].revealed == "white_knight"

    @pytest.mark.rule("BK16", "BK17")
    def test_speeches_one_nomination_each_or_hold_back(self, club):
        d = club(BK, BK8)
        d.to_day()
        assert d.game.speaker == "Alex" and d.game.settings.duration("speech") == 60.0
        d.do(NominateCandidate("Alex", "Kai"))
        assert d.game.speaker == "Kai"
        with pytest.raises(IllegalAction):
            d.do(NominateCandidate("Zuri", "Alex"))  # not Zuri's turn
        with pytest.raises(IllegalAction):
            d.do(NominateCandidate("Kai", "Kai"))
        d.speeches({"Kai": "Steve"})
        assert d.game.candidates == ["Kai", "Steve"]
        assert d.game.day_record.nominations["Zuri"] is None
        assert d.phase is ClubPhase.VOTE and d.game.ballot.options == ("Kai", "Steve")

    @pytest.mark.rule("BK18", "BK19")
    def test_most_votes_leaves_card_turned_last_word_one_minute(self, club):
        d = club(BK, BK8)
        d.to_day()
        d.speeches({"Alex": "Kai", "Ari": "Steve"})
        d.vote({"Alex": "Kai", "Zuri": "Steve", "Ari": "Kai", "Noor": "Kai", "Efe": "Kai"})
        assert d.phase is ClubPhase.LAST_WORD and d.game.settings.duration("last_word") == 60.0
        assert ("bk.reveal.grey_cardinal", {"player": "Kai"}) in d.said()
        d.advance()
        d.repeat(dict.fromkeys(("Alex", "Zuri", "Steve", "Ari", "Noor", "Sunny", "Efe"), False))
        assert "Kai" not in d.alive() and d.phase is ClubPhase.NIGHT
        assert d.game.players["Kai"].out == "left"

    @pytest.mark.rule("BK19")
    def test_repeat_vote_when_a_majority_asks(self, club):
        """BK19: «Если он/она сможет переубедить игроков, голосование повторяется.» (if he or she wins the players over,
        the vote is repeated). [house] Winning them over is a majority of the living asking for a repeat; at most
        one repeat a day, with the departing contestant back among the candidates."""
        d = club(BK, BK8)
        d.to_day()
        d.speeches({"Alex": "Kai", "Ari": "Steve"})
        d.vote({"Alex": "Kai", "Ari": "Kai", "Noor": "Kai"})
        d.advance()  # the last word ends
        d.repeat({"Alex": True, "Zuri": True, "Steve": True, "Ari": True, "Noor": False})  # 4 of 7
        assert d.game.day_record.repeat and d.phase is ClubPhase.VOTE
        assert "Kai" in d.game.ballot.voters and d.game.ballot.options == ("Kai", "Steve")
        d.vote({"Alex": "Steve", "Kai": "Steve", "Ari": "Steve"})
        assert d.phase is ClubPhase.LAST_WORD
        d.advance()
        assert d.phase is ClubPhase.NIGHT  # at most one repeat per day
        assert "Steve" not in d.alive() and "Kai" in d.alive()

    @pytest.mark.rule("BK19")
    def test_repeat_needs_a_majority_of_the_living(self, club):
        d = club(BK, BK8)
        d.to_day()
        d.speeches({"Alex": "Kai"})
        d.vote({"Alex": "Kai"})
        d.advance()
        d.repeat({"Alex": True, "Zuri": True, "Steve": True, "Ari": False})  # 3 of 7: no majority
        assert "Kai" not in d.alive() and not d.game.day_record.repeat

    def test_tie_revote_among_the_tied_second_tie_nobody(self, club):
        d = club(BK, BK8)
        d.to_day()
        d.speeches({"Alex": "Kai", "Kai": "Efe", "Zuri": "Steve"})
        d.vote({"Alex": "Kai", "Kai": "Efe", "Zuri": "Steve", "Steve": "Kai", "Ari": "Efe"})
        assert d.game.ballot.kind == "revote" and d.game.ballot.options == ("Kai", "Efe")
        d.vote({"Alex": "Kai", "Kai": "Efe"})
        assert ("club.second_tie", {}) in d.said() and d.alive() == {n for n, _ in BK8}
        assert d.phase is ClubPhase.NIGHT

    def test_five_way_one_vote_tie(self, club):
        d = club(BK, BK8)
        d.to_day()
        d.speeches({"Alex": "Kai", "Kai": "Zuri", "Zuri": "Steve", "Steve": "Ari", "Ari": "Noor"})
        d.vote({"Alex": "Kai", "Kai": "Zuri", "Zuri": "Steve", "Steve": "Ari", "Ari": "Noor"})
        assert d.game.day_record.rounds[0].count == "1-1-1-1-1"
        assert d.game.ballot.kind == "revote" and d.game.ballot.options == ("Kai", "Zuri", "Steve", "Ari", "Noor")
        d.vote({"Alex": "Kai", "Kai": "Zuri", "Zuri": "Steve", "Steve": "Ari", "Ari": "Noor"})
        assert d.alive() == {n for n, _ in BK8} and d.phase is ClubPhase.NIGHT

    @pytest.mark.parametrize("tie_first", [False, True])
    def test_nobody_votes_nobody_leaves(self, club, tie_first):
        """[house] No vote at all (in the first vote or the revote among the tied): nobody is sent away, as
        nobody has the most votes; the day ends and night falls."""
        d = club(BK, BK8)
        d.to_day()
        d.speeches({"Alex": "Kai", "Kai": "Efe"})
        if tie_first:
            d.vote({"Alex": "Kai", "Kai": "Efe"})
            assert d.game.ballot.kind == "revote"
        d.vote({})
        assert ("club.nobody_leaves", {}) in d.said() and d.alive() == {n for n, _ in BK8}
        assert d.game.day_record.left is None and d.game.day_record.rounds[-1].count == "0"
        assert d.phase is ClubPhase.NIGHT

    def test_a_vote_cannot_be_cast_twice_or_for_oneself(self, club):
        d = club(BK, BK8)
        d.to_day()
        d.speeches({"Alex": "Kai"})
        snapshot = d.game.record.to_dict()
        with pytest.raises(IllegalAction):
            d.do(CastVote("Kai", "Kai"))
        d.do(CastVote("Alex", "Kai"))
        with pytest.raises(IllegalAction):
            d.do(CastVote("Alex", "Kai"))
        assert snapshot["contestants"] == d.game.record.to_dict()["contestants"]


class TestEnd:
    def test_white_order_wins_when_no_black_order_member_remains(self, club):
        deal = (
            ("Alex", "courtesan"),
            ("Kai", "grey_cardinal"),
            ("Ari", "lord"),
            ("Sunny", "healer"),
            ("Efe", "white_knight"),
        )
        d = club(BK, deal)
        d.to_day()
        d.speeches({"Alex": "Kai"})
        d.vote({"Alex": "Kai", "Ari": "Kai", "Sunny": "Kai"})
        d.advance()
        d.repeat({})
        assert d.game.outcome.winner is Winner.WHITE_ORDER and d.game.outcome.winners == ("Alex", "Ari", "Sunny", "Efe")

    def test_black_order_wins_when_no_white_remains_after_a_night_kill(self, club):
        deal = (("Kai", "grey_cardinal"), ("Zuri", "black_knight"), ("Efe", "white_knight"))
        d = club(BK, deal)
        d.to_day()
        d.speeches({})
        d.night({"black_kill": {"Kai": "Efe", "Zuri": "Efe"}})
        assert d.game.outcome.winner is Winner.BLACK_ORDER and d.phase is ClubPhase.OVER
        assert d.game.outcome.termination is Termination.FACTION_WON

    def test_mad_knight_wins_alone_with_one_other_when_set(self, club):
        deal = (("Kai", "grey_cardinal"), ("Steve", "mad_knight"), ("Efe", "white_knight"))
        d = club(BK, deal, mad_knight_solo_win=True)
        d.to_day()
        d.speeches({})
        d.night({"mad_knight": {"Steve": "Efe"}})
        assert d.game.outcome.winner is Winner.MAD_KNIGHT and d.game.outcome.winners == ("Steve",)

    def test_checked_after_every_day(self, club):
        deal = (("Kai", "grey_cardinal"), ("Steve", "mad_knight"), ("Efe", "white_knight"), ("Ari", "lord"))
        d = club(BK, deal)
        d.to_day()
        d.speeches({"Kai": "Efe"})
        d.vote({"Kai": "Efe", "Steve": "Efe", "Ari": "Efe"})
        d.advance()
        d.repeat({})
        assert d.game.outcome is None and d.phase is ClubPhase.NIGHT  # Kai, Steve, Ari: nobody has won
        d.night({"black_kill": {"Kai": "Ari"}})
        assert d.game.outcome.winner is Winner.BLACK_ORDER  # no White Order member is left

    def test_the_dead_never_act(self, club):
        d = first_night(club)
        d.night({"black_kill": {"Kai": "Efe", "Zuri": "Efe"}})
        assert d.game.legal_actions("Efe") == []
        d.to_day()
        with pytest.raises(IllegalAction):
            d.do(NominateCandidate("Efe", "Kai"))
