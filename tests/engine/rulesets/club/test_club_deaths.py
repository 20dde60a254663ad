"""Every death announcement of the club rulesets: each kind of death, and deaths that come together in one night.

Black Knights ("Day" [rule]): a contestant who died at night is announced in the morning and their card is
turned; one sent away by the vote has their card turned before the last word. The card is the one dealt (an
Heir who became the Lord still holds the Heir's card). Mafia & Yakuza: the dead are announced, no role is,
until the series ends and every card is shown.
"""

from __future__ import annotations

import pytest

from engine.effects import Announce
from engine.rulesets.club.game import KEEP, ClubPhase

BK = "black_knights"
MY = "mafia_yakuza"


def announced(d, since: int) -> list[tuple[str, dict]]:
    """Public announcements (key, params) among the effects from index ``since`` on."""
    return [(e.message.key, dict(e.message.params)) for e in d.effects[since:] if isinstance(e, Announce)]


def death_news(d, since: int, prefix: str) -> list[tuple[str, dict]]:
    """The morning's death lines: "did not wake up" and the card turned."""
    return [(k, p) for k, p in announced(d, since) if k == "club.died" or k.startswith(f"{prefix}.reveal.")]


def night_news(d, picks, prefix: str = "bk") -> list[tuple[str, dict]]:
    """Play the night with ``picks``; return its death lines."""
    since = len(d.effects)
    d.night(picks)
    return death_news(d, since, prefix)


def each_card_follows_its_death(news, dead, role) -> bool:
    """Every dead contestant's "did not wake up" is followed at once by their own dealt card, and that is all."""
    pairs = [news[i : i + 2] for i in range(0, len(news), 2)]
    return len(news) == 2 * len(dead) and sorted((p[0][1]["player"], p[0][0], p[1]) for p in pairs) == sorted(
        (n, "club.died", (f"bk.reveal.{role[n]}", {"player": n})) for n in dead
    )


def bk_night_one(club, deal):
    """Black Knights after the introduction night and day 1 (nobody put forward): night 1."""
    d = club(BK, deal)
    d.to_day()
    d.speeches({})
    assert d.phase is ClubPhase.NIGHT
    return d


def bk_next_night(d):
    d.to_day()
    d.speeches({})
    assert d.phase is ClubPhase.NIGHT


def my_next_night(d):
    d.to_day()
    d.discussion()
    d.vote(dict.fromkeys(sorted(d.alive()), KEEP))
    assert d.phase is ClubPhase.NIGHT


class TestBlackKnightsNight:
    @pytest.mark.parametrize(
        ("picks", "dead"),
        [
            ({"black_kill": {"Kai": "Efe", "Zuri": "Efe"}}, ["Efe"]),  # the Black kill
            ({"mad_knight": {"Steve": "Sunny"}}, ["Sunny"]),  # the Mad Knight's attack
            ({"black_kill": {"Kai": "Ari", "Zuri": "Ari"}}, ["Ari"]),  # the Lord alone: the Heir takes over
            ({"black_kill": {"Kai": "Noor", "Zuri": "Noor"}}, ["Noor"]),  # the Heir alone
            ({"mad_knight": {"Steve": "Kai"}}, ["Kai"]),  # the Grey Cardinal
        ],
    )
    @pytest.mark.rule("BK15")
    def test_each_kind_of_night_death_turns_the_dealt_card(self, club, bk8, picks, dead):
        d = bk_night_one(club, bk8)
        news = night_news(d, picks)
        assert list(d.game.night_record.deaths) == dead
        assert each_card_follows_its_death(news, dead, dict(bk8))

    @pytest.mark.parametrize(
        "picks",
        [
            {"black_kill": {"Kai": "Ari", "Zuri": "Ari"}, "mad_knight": {"Steve": "Noor"}},  # Lord settled first
            {"black_kill": {"Kai": "Noor", "Zuri": "Noor"}, "mad_knight": {"Steve": "Ari"}},  # Heir settled first
        ],
    )
    def test_lord_and_heir_the_same_night_each_card_is_their_own(self, club, bk8, picks):
        d = bk_night_one(club, bk8)
        news = night_news(d, picks)
        assert set(d.game.night_record.deaths) == {"Ari", "Noor"}
        assert each_card_follows_its_death(news, ["Ari", "Noor"], {"Ari": "lord", "Noor": "heir"})
        # The Heir died too: nobody became the Lord and the dead Heir was told nothing.
        assert d.game.players["Noor"].role == "heir" and d.game.promoted == []
        assert "bk.promoted.lord" not in d.told("Noor")
        assert {e.name: e.revealed for e in d.game.view_for("Efe").public.out} == {"Ari": "lord", "Noor": "heir"}

    @pytest.mark.parametrize(
        ("picks", "dead"),
        [
            ({"black_kill": {"Kai": "Ari", "Zuri": "Ari"}, "mad_knight": {"Steve": "Sunny"}}, {"Ari", "Sunny"}),
            ({"black_kill": {"Kai": "Efe", "Zuri": "Efe"}, "mad_knight": {"Steve": "Zuri"}}, {"Efe", "Zuri"}),
            ({"black_kill": {"Kai": "Steve", "Zuri": "Steve"}, "mad_knight": {"Steve": "Alex"}}, {"Steve", "Alex"}),
        ],
    )
    def test_other_same_night_pairs(self, club, bk8, picks, dead):
        d = bk_night_one(club, bk8)
        news = night_news(d, picks)
        assert set(d.game.night_record.deaths) == dead
        assert each_card_follows_its_death(news, dead, dict(bk8))

    @pytest.mark.rule("BK13", "BK15")
    def test_a_promoted_heir_killed_later_shows_the_heirs_card(self, club, bk8):
        d = bk_night_one(club, bk8)
        d.night({"black_kill": {"Kai": "Ari", "Zuri": "Ari"}})
        assert d.game.players["Noor"].role == "lord" and "bk.promoted.lord" in d.told("Noor")
        bk_next_night(d)
        news = night_news(d, {"courtesan": {"Alex": "Efe"}, "mad_knight": {"Steve": "Noor"}})
        assert news == [("club.died", {"player": "Noor"}), ("bk.reveal.heir", {"player": "Noor"})]


class TestBlackKnightsDay:
    @pytest.mark.rule("BK18")
    def test_sent_away_by_the_vote_card_turned_before_the_last_word(self, club, bk8):
        d = club(BK, bk8)
        d.to_day()
        d.speeches({"Alex": "Zuri"})
        since = len(d.effects)
        d.vote(dict.fromkeys(("Alex", "Kai", "Steve", "Ari", "Noor", "Sunny", "Efe"), "Zuri"))
        said = [k for k, _ in announced(d, since)]
        assert said.index("bk.leaves") < said.index("bk.reveal.black_knight") < said.index("bk.last_word")
        assert d.game.day_record.revealed == "black_knight"

    def test_a_promoted_heir_sent_away_shows_the_heirs_card(self, club, bk8):
        d = bk_night_one(club, bk8)
        d.night({"black_kill": {"Kai": "Ari", "Zuri": "Ari"}})
        d.to_day()
        d.speeches({"Alex": "Noor"})
        since = len(d.effects)
        d.vote(dict.fromkeys(sorted(d.alive() - {"Noor"}), "Noor"))
        assert ("bk.reveal.heir", {"player": "Noor"}) in announced(d, since)
        assert not any(k == "bk.reveal.lord" for k, _ in announced(d, since))
        assert d.game.day_record.revealed == "heir"
        d.advance()  # the last word
        d.repeat({})
        assert {e.name: e.revealed for e in d.game.view_for("Efe").public.out}["Noor"] == "heir"

    def test_the_end_of_the_series_shows_every_dealt_card(self, club):
        deal = (
            ("Kai", "grey_cardinal"),
            ("Ari", "lord"),
            ("Noor", "heir"),
            ("Efe", "white_knight"),
            ("Rhea", "white_knight"),
        )
        d = bk_night_one(club, deal)
        d.night({"black_kill": {"Kai": "Ari"}})
        d.to_day()
        d.speeches({"Noor": "Kai"})
        d.vote({"Noor": "Kai", "Efe": "Kai", "Rhea": "Kai"})
        d.advance()
        d.repeat({})
        assert d.phase is ClubPhase.OVER
        final = [(k, p["player"]) for k, p in announced(d, 0) if k.startswith("bk.reveal.")][-len(deal) :]
        assert final == [(f"bk.reveal.{r}", n) for n, r in deal]


class TestMafiaYakuza:
    @pytest.mark.parametrize(
        ("picks", "dead"),
        [
            ({"mafia_shot": {"Alex": "Rhea", "Kai": "Rhea"}}, {"Rhea": "shot"}),
            ({"yakuza_shot": {"Steve": "Omar", "Ari": "Omar"}}, {"Omar": "shot"}),
            ({"maniac": {"Tomas": "Lena"}}, {"Lena": "shot"}),
            ({"bomber": {"Ines": "Efe"}}, {"Efe": "explosion"}),
            ({"sapper": {"Noor": "Rhea"}, "maniac": {"Tomas": "Rhea"}}, {"Rhea": "mine", "Tomas": "mine"}),
            ({"mafia_shot": {"Alex": "Rhea"}, "yakuza_shot": {"Steve": "Alex"}}, {"Rhea": "shot", "Alex": "shot"}),
            ({"bomber": {"Ines": "Sunny"}, "maniac": {"Tomas": "Makena"}}, {"Sunny": "explosion", "Makena": "shot"}),
        ],
    )
    @pytest.mark.rule("MY22", "MY18")
    def test_each_kind_of_night_death_names_the_dead_not_the_role(self, club, my14, picks, dead):
        d = club(MY, my14)
        news = night_news(d, picks, "my")
        assert d.game.night_record.deaths == dead
        assert news == [("club.died", {"player": n}) for n in dead]
        assert all(e.revealed is None for e in d.game.view_for("Kai").public.out)

    def test_poison_with_a_shot_the_same_night(self, club, my14):
        d = club(MY, my14)
        d.night({"poisoner": {"Zuri": "Rhea"}})
        my_next_night(d)
        d.night({})
        my_next_night(d)
        news = night_news(d, {"maniac": {"Tomas": "Omar"}}, "my")
        assert d.game.night_record.deaths == {"Omar": "shot", "Rhea": "poison"}
        assert news == [("club.died", {"player": "Omar"}), ("club.died", {"player": "Rhea"})]

    @pytest.mark.rule("MY24")
    def test_expelled_then_every_role_at_the_end(self, club):
        deal = (("Alex", "don"), ("Sunny", "commissar"), ("Rhea", "citizen"), ("Omar", "citizen"))
        d = club(MY, deal)
        d.night({"mafia_shot": {"Alex": "Omar"}})
        d.to_day()
        d.discussion()
        since = len(d.effects)
        d.vote({"Sunny": "Alex", "Rhea": "Alex", "Alex": "Rhea"})
        said = announced(d, since)
        assert ("my.expelled", {"player": "Alex"}) in said
        assert d.phase is ClubPhase.OVER
        assert [(k, p["player"]) for k, p in said if k.startswith("my.reveal.")] == [
            (f"my.reveal.{r}", n) for n, r in deal
        ]
