"""Mafia & Yakuza (``docs/rules/mafia-yakuza.md``): one scenario test (at least) per [rule] and [house] line,
named after the rulebook's sections."""

from __future__ import annotations

import pytest

from engine.actions import CastVote, KeepEveryone, UsePower
from engine.core.night import HEAL, SHOT, Visit, resolve, settle_attack, team_choice
from engine.errors import IllegalAction
from engine.outcome import Winner
from engine.rulesets.club.game import KEEP, ClubPhase
from engine.rulesets.club.mafia_yakuza import default_deal

MY = "mafia_yakuza"
MY14 = (
    ("Alex", "don"),
    ("Kai", "mafioso"),
    ("Zuri", "poisoner"),
    ("Steve", "oyabun"),
    ("Ari", "yakuza"),
    ("Noor", "sapper"),
    ("Sunny", "commissar"),
    ("Efe", "priest"),
    ("Makena", "doctor"),
    ("Lena", "shaman"),
    ("Omar", "mistress"),
    ("Rhea", "citizen"),
    ("Tomas", "maniac"),
    ("Ines", "bomber"),
)
ALL = {n for n, _ in MY14}


def next_night(d, votes=None):
    """From the morning: discussion, the vote (everyone keeps, unless ``votes``), then the next night."""
    d.to_day()
    d.discussion()
    d.vote(votes or dict.fromkeys(sorted(d.alive()), KEEP))
    assert d.phase is ClubPhase.NIGHT, d.phase


class TestSetup:
    @pytest.mark.parametrize("n", range(8, 17))
    def test_default_deal_house(self, n):
        roles = default_deal(n)
        assert len(roles) == n
        base = {"don", "oyabun", "commissar", "doctor", "mistress", "maniac"}
        assert base <= set(roles)
        assert ("mafioso" in roles) == (n >= 10) and ("yakuza" in roles) == (n >= 10)
        assert ("poisoner" in roles) == (n >= 12) and ("shaman" in roles) == (n >= 12)
        assert ("sapper" in roles) == (n >= 14) and ("priest" in roles) == (n >= 14)
        assert ("bomber" in roles) == (n >= 16)
        assert roles.count("citizen") == 2 + (n % 2) + (n >= 16)

    def test_outside_8_to_16_is_refused(self):
        from engine.errors import ConfigError

        with pytest.raises(ConfigError):
            default_deal(7)

    @pytest.mark.rule("MY5")
    def test_first_night_the_host_names_every_role(self, club):
        d = club(MY, MY14)
        named = {p["count"] and k.removeprefix("my.setup.") for k, p in d.said() if k.startswith("my.setup.")}
        assert named == {r for _, r in MY14}
        assert d.phase is ClubPhase.NIGHT and d.game.night_no == 1  # night 1 has actions

    @pytest.mark.rule("MY1")
    def test_secret_role_families_know_each_other(self, club):
        d = club(MY, MY14)
        assert d.game.known_to("Alex") == ("Kai", "Zuri") and d.game.known_to("Steve") == ("Ari", "Noor")
        assert d.game.known_to("Sunny") == () and d.game.view_for("Sunny").traitors == ()


class TestMechanics:
    @pytest.mark.rule("MY14", "MY20")
    def test_shot_kills_unless_healed(self, club):
        d = club(MY, MY14)
        d.night({"mafia_shot": {"Alex": "Rhea"}, "maniac": {"Tomas": "Omar"}, "heal": {"Makena": "Omar"}})
        assert d.game.night_record.deaths == {"Rhea": "shot"} and d.game.night_record.saved == ["Omar"]

    @pytest.mark.rule("MY14")
    def test_two_shots_against_one_heal_saved(self, club):
        """[house] A heal saves its target from every shot of that night."""
        d = club(MY, MY14)
        d.night(
            {
                "mafia_shot": {"Alex": "Rhea"},
                "yakuza_shot": {"Steve": "Rhea"},
                "maniac": {"Tomas": "Rhea"},
                "heal": {"Lena": "Rhea"},
            }
        )
        assert d.game.night_record.deaths == {} and "Rhea" in d.alive()

    def test_family_shot_don_decides_on_a_split(self, club):
        d = club(MY, MY14)
        d.night({"mafia_shot": {"Alex": "Rhea", "Kai": "Omar"}})
        assert d.game.night_record.deaths == {"Rhea": "shot"}

    @pytest.mark.rule("MY15")
    def test_poison_night_1_kills_at_the_end_of_night_3(self, club):
        d = club(MY, MY14)
        d.night({"poisoner": {"Zuri": "Rhea"}})
        assert "Rhea" in d.alive()
        next_night(d)
        d.night({"mistress": {"Omar": "Rhea"}})  # a block on the poisoned does not stop it
        assert "Rhea" in d.alive()
        next_night(d)
        d.night({})
        assert d.game.night_record.deaths == {"Rhea": "poison"} and d.game.night_no == 3

    @pytest.mark.rule("MY15", "MY20")
    def test_doctor_removes_poison(self, club):
        d = club(MY, MY14)
        d.night({"poisoner": {"Zuri": "Rhea"}})
        next_night(d)
        d.night({"heal": {"Makena": "Rhea"}})
        assert d.game.night_record.cured == ["Rhea"]
        next_night(d)
        d.night({})
        assert "Rhea" in d.alive()

    @pytest.mark.rule("MY15")
    def test_shaman_cannot_remove_poison(self, club):
        d = club(MY, MY14)
        d.night({"poisoner": {"Zuri": "Rhea"}, "heal": {"Lena": "Rhea"}})
        next_night(d)
        d.night({"heal": {"Lena": "Rhea"}})
        next_night(d)
        d.night({"heal": {"Lena": "Rhea"}})
        assert d.game.night_record.deaths == {"Rhea": "poison"}

    @pytest.mark.rule("MY21")
    def test_blocked_poisoner_does_not_poison(self, club):
        d = club(MY, MY14)
        d.night({"mistress": {"Omar": "Zuri"}, "poisoner": {"Zuri": "Rhea"}})
        assert d.game.poisons == {} and "club.blocked" in d.told("Zuri")

    @pytest.mark.rule("MY16", "MY20")
    def test_explosion_kills_through_a_heal_once_per_game(self, club):
        d = club(MY, MY14)
        d.night({"bomber": {"Ines": "Rhea"}, "heal": {"Makena": "Rhea"}})
        assert d.game.night_record.deaths == {"Rhea": "explosion"}
        next_night(d)
        assert all(s.name != "bomber" for s in [d.game.current_step()]) or "Ines" not in d.game.pending
        d.night({})
        assert not any(a["step"] == "bomber" for a in d.game.night_record.acts)

    @pytest.mark.rule("MY17")
    def test_mine_takes_the_first_visitor(self, club):
        d = club(MY, MY14)
        d.night({"sapper": {"Noor": "Rhea"}, "maniac": {"Tomas": "Rhea"}})
        assert d.game.night_record.deaths == {"Rhea": "mine", "Tomas": "mine"}

    @pytest.mark.rule("MY17")
    def test_mined_visited_by_a_doctor_and_a_commissar_the_same_night(self, club):
        """The Doctor comes first in the night order: the mine goes off, taking the Doctor (a heal cannot save
        the mined victim nor the Doctor); the Commissar's later visit finds no mine and still gets the answer."""
        d = club(MY, MY14)
        d.night({"sapper": {"Noor": "Rhea"}, "heal": {"Makena": "Rhea"}, "check": {"Sunny": "Rhea"}})
        assert d.game.night_record.deaths == {"Rhea": "mine", "Makena": "mine"}
        assert "my.check.commissar.town" in d.told("Sunny") and "Sunny" in d.alive()

    @pytest.mark.rule("MY17")
    def test_commissar_first_visitor_demines(self, club):
        d = club(MY, MY14)
        d.night({"sapper": {"Noor": "Rhea"}})
        assert d.game.mines == {"Rhea"}  # the mine lasts
        next_night(d)
        d.night({"check": {"Sunny": "Rhea"}})
        assert d.game.night_record.deaths == {} and d.game.mines == frozenset()
        assert d.game.night_record.mines == [["Rhea", "Sunny", "demined"]]

    @pytest.mark.rule("MY17")
    def test_priest_visiting_a_mine(self, club):
        """The Priest is a K: the mine does not take him along, but he does not de-mine: the mined dies."""
        d = club(MY, MY14)
        d.night({"sapper": {"Noor": "Rhea"}, "check": {"Efe": "Rhea"}})
        assert d.game.night_record.deaths == {"Rhea": "mine"} and "Efe" in d.alive()
        assert "my.check.priest.not_loner" in d.told("Efe")

    @pytest.mark.rule("MY19")
    @pytest.mark.parametrize(
        ("target", "answer"), [("Alex", "mafia"), ("Ari", "yakuza"), ("Rhea", "town"), ("Tomas", "loner")]
    )
    def test_commissar_checks_the_faction(self, club, target, answer):
        d = club(MY, MY14)
        d.night({"check": {"Sunny": target}})
        assert f"my.check.commissar.{answer}" in d.told("Sunny")

    @pytest.mark.rule("MY19")
    @pytest.mark.parametrize(("target", "answer"), [("Ines", "loner"), ("Alex", "not_loner")])
    def test_priest_checks_loner_or_not(self, club, target, answer):
        d = club(MY, MY14)
        d.night({"check": {"Efe": target}})
        assert f"my.check.priest.{answer}" in d.told("Efe")

    @pytest.mark.rule("MY21")
    def test_block_stops_the_active_ability(self, club):
        d = club(MY, MY14)
        d.night({"mistress": {"Omar": "Tomas"}, "maniac": {"Tomas": "Rhea"}})
        assert "Rhea" in d.alive() and "club.blocked" in d.told("Tomas")

    def test_blocked_don_the_mafioso_shoots(self, club):
        d = club(MY, MY14)
        d.night({"mistress": {"Omar": "Alex"}, "mafia_shot": {"Kai": "Rhea"}})
        assert d.game.night_record.deaths == {"Rhea": "shot"}


class TestCore:
    def test_team_choice(self):
        assert team_choice({"a": "x", "b": "x"}, "a") == ("x", "a")
        assert team_choice({"a": "x", "b": "y"}, "a") == ("x", "a")
        assert team_choice({"a": None, "b": "y"}, "a") == ("y", "b")
        assert team_choice({"a": None, "b": None}, "a") is None

    def test_settle_attack(self):
        assert settle_attack(False, [("shield", False), ("guard", True)]) == "guard"
        assert settle_attack(True, [("shield", True)]) is None

    def test_resolve_heal_and_shots(self):
        out = resolve([Visit("m", SHOT, "t", 1, 1), Visit("n", SHOT, "t", 2, 2), Visit("d", HEAL, "t", 3, 3)], night=1)
        assert out.deaths == {} and out.saved == ("t",)


class TestDay:
    @pytest.mark.rule("MY6", "MY24")
    def test_expel_a_suspect_role_not_announced(self, club):
        d = club(MY, MY14)
        d.night({})
        d.to_day()
        d.discussion()
        votes = dict.fromkeys(("Kai", "Zuri", "Steve", "Ari", "Noor", "Sunny"), "Alex")
        d.vote({**votes, "Alex": "Kai"})
        assert "Alex" not in d.alive() and d.game.players["Alex"].out == "expelled"
        assert not any(k.startswith("my.reveal") for k, _ in d.said())
        assert d.game.view_for("Kai").public.out[0].revealed is None

    @pytest.mark.rule("MY23")
    def test_keep_everyone(self, club):
        d = club(MY, MY14)
        d.night({})
        d.to_day()
        d.discussion()
        d.vote({"Alex": KEEP, "Kai": KEEP, "Zuri": "Rhea"})
        assert d.alive() == ALL and ("my.kept", {}) in d.said()

    @pytest.mark.rule("MY23")
    def test_tie_revote_second_tie_nobody(self, club):
        d = club(MY, MY14)
        d.night({})
        d.to_day()
        d.discussion()
        d.vote({"Alex": "Rhea", "Kai": KEEP})
        assert d.game.ballot.kind == "revote" and d.game.ballot.options == ("Rhea", KEEP)
        d.vote({"Alex": "Rhea", "Kai": KEEP})
        assert d.alive() == ALL and ("club.second_tie", {}) in d.said()

    @pytest.mark.parametrize("tie_first", [False, True])
    def test_nobody_votes_nobody_is_expelled(self, club, tie_first):
        """[house] No vote at all, not even "keep everyone" (in the first vote or the revote): nobody is
        expelled, as when the town keeps everyone; night falls."""
        d = club(MY, MY14)
        d.night({})
        d.to_day()
        d.discussion()
        if tie_first:
            d.vote({"Alex": "Rhea", "Kai": KEEP})
            assert d.game.ballot.kind == "revote"
        d.vote({})
        assert ("club.nobody_leaves", {}) in d.said() and d.alive() == ALL
        assert d.game.day_record.left is None and d.phase is ClubPhase.NIGHT

    def test_five_way_one_vote_tie(self, club):
        d = club(MY, MY14)
        d.night({})
        d.to_day()
        d.discussion()
        d.vote({"Alex": "Kai", "Kai": "Zuri", "Zuri": "Steve", "Steve": "Ari", "Ari": "Noor"})
        assert d.game.ballot.options == ("Kai", "Zuri", "Steve", "Ari", "Noor")
        d.vote({"Alex": "Kai"})
        assert "Kai" not in d.alive()

    def test_illegal_votes_change_nothing(self, club):
        d = club(MY, MY14)
        d.night({})
        with pytest.raises(IllegalAction):
            d.do(KeepEveryone("Alex"))  # not voting now
        d.to_day()
        d.discussion()
        with pytest.raises(IllegalAction):
            d.do(CastVote("Alex", "Alex"))
        d.do(KeepEveryone("Alex"))
        with pytest.raises(IllegalAction):
            d.do(CastVote("Alex", "Kai"))
        assert d.game.ballot.votes == {"Alex": KEEP}


class TestVictory:
    @pytest.mark.rule("MY7")
    def test_a_family_alone_wins_right_after_a_night_kill(self, club):
        deal = (("Alex", "don"), ("Kai", "mafioso"), ("Steve", "oyabun"), ("Rhea", "citizen"), ("Omar", "citizen"))
        d = club(MY, deal)
        d.night({"mafia_shot": {"Alex": "Steve"}, "yakuza_shot": {"Steve": "Rhea"}})
        # Steve and Rhea die the same night; Omar (town) remains with the Mafia: not over yet
        assert d.game.outcome is None
        d.to_day()
        d.discussion()
        d.vote({"Alex": "Omar", "Kai": "Omar"})
        assert d.game.outcome.winner is Winner.MAFIA and d.game.outcome.winners == ("Alex", "Kai")

    @pytest.mark.rule("MY7")
    def test_win_check_after_a_night_kill_leaves_one_family_alone(self, club):
        deal = (("Alex", "don"), ("Kai", "mafioso"), ("Steve", "oyabun"), ("Ari", "yakuza"))
        d = club(MY, deal)
        d.night({"mafia_shot": {"Alex": "Steve", "Kai": "Ari"}, "yakuza_shot": {"Steve": "Alex"}})
        assert d.game.night_record.deaths == {"Steve": "shot", "Alex": "shot"}
        assert d.game.outcome is None
        next_night(d, {"Kai": KEEP, "Ari": KEEP})
        d.night({"mafia_shot": {"Kai": "Ari"}})
        # The Mafia's shot leaves the Mafia alone: the win check runs right after the night kill.
        assert d.game.outcome.winner is Winner.MAFIA and d.phase is ClubPhase.OVER
        assert d.game.day == 2 and d.game.outcome.winners == ("Kai",)

    @pytest.mark.rule("MY8")
    def test_town_wins_when_all_threats_are_gone(self, club):
        deal = (("Alex", "don"), ("Sunny", "commissar"), ("Rhea", "citizen"), ("Omar", "citizen"))
        d = club(MY, deal)
        d.night({})
        d.to_day()
        d.discussion()
        d.vote({"Sunny": "Alex", "Rhea": "Alex", "Omar": "Alex"})
        assert d.game.outcome.winner is Winner.TOWN  # checked after the day

    @pytest.mark.rule("MY10")
    def test_maniac_wins_alive_with_at_most_one_other(self, club):
        deal = (("Tomas", "maniac"), ("Rhea", "citizen"), ("Omar", "citizen"))
        d = club(MY, deal)
        d.night({"maniac": {"Tomas": "Rhea"}})
        assert d.game.outcome.winner is Winner.LONERS and d.game.outcome.winners == ("Tomas",)

    def test_nobody_alive_nobody_wins(self, club):
        deal = (("Alex", "don"), ("Steve", "oyabun"))
        d = club(MY, deal)
        d.night({"mafia_shot": {"Alex": "Steve"}, "yakuza_shot": {"Steve": "Alex"}})
        assert d.game.outcome.winner is Winner.NOBODY

    @pytest.mark.rule("MY11", "MY18")
    def test_the_dead_cannot_affect_the_game(self, club):
        d = club(MY, MY14)
        d.night({"mafia_shot": {"Alex": "Omar"}})
        next_night(d)
        assert "Omar" not in d.game.pending and d.game.legal_actions("Omar") == []
        with pytest.raises(IllegalAction):
            d.do(UsePower("Omar", "Alex"))


def news(d, since: int = 0) -> list[tuple[str, dict]]:
    """The morning's news beyond the dead, announced after the ``since``-th announcement."""
    return [(k, p) for k, p in d.said()[since:] if k.startswith("my.news.")]


class TestMorningNews:
    """Game flow [rule]: "the host announces the dead and whatever else of the night affects this day and next
    night"; setting ``morning_news`` [house]."""

    @pytest.mark.rule("MY22", "MY3")
    def test_named_poison_and_mine_then_cure_and_demine(self, club):
        d = club(MY, MY14)
        d.night({"poisoner": {"Zuri": "Rhea"}, "sapper": {"Noor": "Lena"}})
        assert news(d) == [
            ("my.news.poisoned", {"player": "Rhea", "night": "3"}),
            ("my.news.mined", {"player": "Lena"}),
        ]
        actors = {"Zuri", "Noor"}
        assert not any(actors & {str(v) for v in p.values()} for _k, p in d.said())  # nobody who acted is named
        next_night(d)
        mark = len(d.said())
        d.night({"heal": {"Makena": "Rhea"}})  # the poison lasts one more night without this heal; the mine lasts
        mark2 = len(d.said())
        assert news(d, mark) == [("my.news.cured", {"player": "Rhea"}), ("my.news.mined", {"player": "Lena"})]
        next_night(d)
        d.night({"check": {"Sunny": "Lena"}})
        assert news(d, mark2) == [("my.news.demined", {"player": "Lena"})]

    @pytest.mark.rule("MY22")
    def test_a_lasting_poison_is_told_every_morning_until_it_kills(self, club):
        d = club(MY, MY14)
        d.night({"poisoner": {"Zuri": "Rhea"}})
        next_night(d)
        mark = len(d.said())
        d.night({})
        assert news(d, mark) == [("my.news.poisoned", {"player": "Rhea", "night": "3"})]
        next_night(d)
        mark = len(d.said())
        d.night({})
        assert news(d, mark) == [] and ("club.died", {"player": "Rhea"}) in d.said()[mark:]

    def test_unnamed_says_the_same_without_names(self, club):
        d = club(MY, MY14, morning_news="unnamed")
        d.night({"poisoner": {"Zuri": "Rhea"}, "sapper": {"Noor": "Lena"}, "bomber": {"Ines": "Omar"}})
        assert news(d) == [
            ("my.news.poisoned.unnamed", {"night": "3"}),
            ("my.news.mined.unnamed", {}),
            ("my.news.bomb_spent", {}),
        ]

    def test_dead_only_says_only_the_dead(self, club):
        d = club(MY, MY14, morning_news="dead_only")
        d.night({"poisoner": {"Zuri": "Rhea"}, "sapper": {"Noor": "Lena"}, "bomber": {"Ines": "Omar"}})
        assert news(d) == [] and ("club.died", {"player": "Omar"}) in d.said()

    def test_poison_cured_the_same_night_is_not_told(self, club):
        """Poisoned and healed in one night: nothing the table knew changed, so nobody learns the Doctor's pick."""
        d = club(MY, MY14)
        d.night({"poisoner": {"Zuri": "Rhea"}, "heal": {"Makena": "Rhea"}})
        assert news(d) == [] and d.game.night_record.cured == ["Rhea"]

    def test_an_expelled_poisoned_contestant_is_not_told(self, club):
        d = club(MY, MY14)
        d.night({"poisoner": {"Zuri": "Rhea"}})
        next_night(d, {n: "Rhea" for n in sorted(d.alive()) if n != "Rhea"} | {"Rhea": "Alex"})
        mark = len(d.said())
        d.night({})
        assert "Rhea" not in d.alive() and news(d, mark) == []

    def test_a_bad_setting_names_the_field(self, club):
        from engine.errors import ConfigError

        with pytest.raises(ConfigError, match=r"^morning_news: 'loud' \(known: named, unnamed, dead_only\)"):
            club(MY, MY14, morning_news="loud")
