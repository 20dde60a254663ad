"""A rules lawyer's cases for the club rulesets: Black Knights (``docs/rules/source/black-knights-rules.ru.txt``,
``docs/rules/black-knights.md``) and Mafia & Yakuza (``docs/rules/source/mafia-yakuza-rules.uk.txt``,
``docs/rules/mafia-yakuza.md``). Each case is played through the engine and checks what each contestant was told.

Each case pins the rule as the texts say it; where the rule texts leave a choice open, the case names the
``[house]`` line of ``docs/house-rules.md`` that decides it.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.actions import Advance, CastVote, HoldBack, NominateCandidate, SkipPower, UsePower
from engine.effects import Announce, Prompt, Whisper
from engine.errors import IllegalAction
from engine.outcome import Winner
from engine.rulesets.club.game import KEEP, ClubPhase

BK = "black_knights"
MY = "mafia_yakuza"


def whispers(d: Any, name: str, since: int = 0) -> list[tuple[str, str]]:
    """(key, text) of every private message and prompt ``name`` received since ``since``."""
    return [
        (e.message.key, e.message.text) for e in d.effects[since:] if isinstance(e, (Whisper, Prompt)) and name in e.to
    ]


def said(d: Any, since: int = 0) -> list[tuple[str, str]]:
    """(key, text) of every public announcement since ``since``."""
    return [(e.message.key, e.message.text) for e in d.effects[since:] if isinstance(e, Announce)]


def dead(d: Any, deal: tuple[tuple[str, str], ...]) -> set[str]:
    return {n for n, _ in deal} - d.alive()


# ---------------------------------------------------------------------------------------------- Black Knights


def bk_night(club: Any, deal: tuple[tuple[str, str], ...], **kw: Any) -> Any:
    """Past the introduction night and a day one with nobody put forward: night one."""
    d = club(BK, deal, **kw)
    d.to_day()
    d.speeches({})
    assert d.phase is ClubPhase.NIGHT
    return d


def bk_day(d: Any, noms: dict[str, str], votes: dict[str, str], repeat: dict[str, bool] | None = None) -> None:
    """From the morning: speeches with ``noms``, the vote, the last word and the repeat question."""
    d.to_day()
    d.speeches(noms)
    d.vote(votes)
    if d.phase is ClubPhase.LAST_WORD:
        d.advance()
    if d.phase is ClubPhase.REPEAT:
        d.repeat(repeat or {})


@pytest.mark.rule("BK1")
def test_bk_each_card_is_seen_only_by_its_holder(club, bk8) -> None:
    """BK1: «Игрок должен незаметно для остальных участников ознакомиться со своей картой и ролью.» (a player must
    look at their card unseen by the others). Each contestant is shown their own card privately; no public message
    and no one else's private message names another's card at the deal."""
    d = club(BK, bk8)
    deal_end = next(i for i, e in enumerate(d.effects) if isinstance(e, Announce) and e.message.key == "club.night")
    for name, role in bk8:
        mine = whispers(d, name)[:1]
        assert mine and mine[0][0] == f"bk.deal.{role}"
    for e in d.effects[:deal_end]:
        if isinstance(e, Announce):
            assert not e.message.key.startswith("bk.deal")
        if isinstance(e, Whisper):
            assert len(e.to) == 1


@pytest.mark.rule("BK2")
def test_bk_the_introduction_meets_each_active_role_in_the_wake_order(club, bk8) -> None:
    """BK2: «Ведущий (монах) знакомится с каждым игроком, который имеет активную роль.» (the host meets each player
    who has an active role) … «Очередность знакомств: 1. Куртизанка 2. Серый кардинал 3. Черные рыцари 4. Безумный
    рыцарь 5. Лорд и Наследник 6. Лекарь» (the order of the introductions). On the introduction night every active
    role is met, privately, one after another in that order, and each is told the role the monk meets; the White
    Knight (no active role) is told nothing."""
    d = club(BK, bk8)
    start = next(i for i, e in enumerate(d.effects) if isinstance(e, Announce) and e.message.key == "club.night")
    end = next(i for i, e in enumerate(d.effects) if isinstance(e, Announce) and e.message.key == "club.morning")
    met = []
    for e in d.effects[start:end]:
        if isinstance(e, (Whisper, Prompt)):
            met += [n for n in sorted(e.to) if n not in met]
    roles = {
        "Alex": "Courtesan",
        "Kai": "Grey Cardinal",
        "Zuri": "Black Knight",
        "Steve": "Mad Knight",
        "Ari": "Lord",
        "Noor": "Heir",
        "Sunny": "Healer",
    }
    assert met == list(roles)
    night = d.effects[start:end]
    for name, role in roles.items():
        intro = [
            e.message.text
            for e in night
            if isinstance(e, Whisper) and e.to == {name} and e.message.key == "bk.intro.met"
        ]
        assert intro == [f"The monk meets you: you are the {role}."], name
    assert not any(isinstance(e, (Whisper, Prompt)) and "Efe" in e.to for e in night)


@pytest.mark.rule("BK3")
@pytest.mark.parametrize(("execution", "key"), [(True, "bk.day_execution.on"), (False, "bk.day_execution.off")])
def test_bk_the_gallows_decision_is_announced_before_the_game(club, bk8, execution: bool, key: str) -> None:
    """BK3: «Будет ли отправлен днем кто-то на виселицу, решать игрокам перед началом игры.» (whether anyone goes to
    the gallows by day is decided before the game starts). The decision is told to everyone before the first
    night."""
    d = club(BK, bk8, day_execution=execution)
    keys = [k for k, _ in said(d)]
    assert key in keys and keys.index(key) < keys.index("club.night")


@pytest.mark.rule("BK9", "BK4")
def test_bk_the_grey_cardinals_check_comes_after_the_kill_and_only_he_sees_the_sign(club, bk8) -> None:
    """BK9: «Серый Кардинал – после совершения злодеяния просыпается отдельно или не засыпает вовсе. Указывает на
    любого игрока в попытке найти Лорда или Лекаря.» (after the kill the Grey Cardinal wakes separately and points
    at any player). Kai is asked for his check only after the Black Order's kill is chosen; his answer (a syringe:
    Sunny is the Healer) goes to him alone, not to Zuri (the Black Knight)."""
    d = bk_night(club, bk8)
    d.night({"black_kill": {"Kai": "Efe", "Zuri": "Efe"}, "cardinal_check": {"Kai": "Sunny"}})
    kai = [k for k, _ in whispers(d, "Kai")]
    assert kai.index("bk.prompt.black_kill") < kai.index("bk.prompt.cardinal_check")
    assert "bk.check.cardinal.syringe" in kai
    assert not any(k.startswith("bk.check.cardinal") for k, _ in whispers(d, "Zuri"))
    assert not any(k.startswith("bk.check") for k, _ in said(d))


@pytest.mark.rule("BK6")
def test_bk_the_courtesan_a_new_one_each_night_but_may_return_later(club, bk8) -> None:
    """BK6: «Каждую ночь должна выбирать нового игрока.» (each night she must choose a new player). After a night
    with Ari she cannot choose Ari the next night; a night later she may (the page: never the one of the night
    before). The chosen Ari is told he is not woken and is not asked."""
    d = bk_night(club, bk8)
    d.night({"courtesan": {"Alex": "Ari"}})
    assert ("club.blocked", "You are not woken tonight.") in whispers(d, "Ari")
    d.to_day()
    d.speeches({})
    with pytest.raises(IllegalAction):
        d.do(UsePower("Alex", "Ari"))
    d.night({"courtesan": {"Alex": "Efe"}})
    d.to_day()
    d.speeches({})
    d.do(UsePower("Alex", "Ari"))


@pytest.mark.rule("BK7")
def test_bk_without_the_grey_cardinal_the_black_knights_still_choose(club, bk8) -> None:
    """BK7: «Черные Рыцари и Серый Кардинал – выбирают, кто из игроков станет жертвой» (the Black Knights and the
    Grey Cardinal choose the victim). The Grey Cardinal (Kai) goes to the gallows on day one; on night one Zuri, the
    last Black Knight, alone chooses Efe, who does not wake."""
    d = club(BK, bk8)
    others = [n for n, _ in bk8 if n != "Kai"]
    bk_day(d, {"Alex": "Kai"}, dict.fromkeys(others, "Kai"))
    assert "Kai" not in d.alive() and d.phase is ClubPhase.NIGHT
    d.night({"black_kill": {"Zuri": "Efe"}})
    assert dead(d, bk8) == {"Kai", "Efe"}
    assert ("club.died", {"player": "Efe"}) in d.said()


@pytest.mark.rule("BK8", "BK15")
def test_bk_two_deaths_in_one_night_each_card_turned_and_no_last_word(club, bk8) -> None:
    """BK8: «Игрок, на которого совершено нападение, утром не просыпается. Права последнего слова не имеет.
    Исключение: игрока вылечил Лекарь.» BK15: «его свеча гаснет и он не имеет последнего слова. Карта игрока
    вскрывается.» The Black Order attacks Efe and the Mad Knight attacks Alex, while the Healer heals Noor (not
    attacked): both victims do not wake, both cards are turned, nobody gets a last word, and the morning says
    nothing of the heal."""
    d = bk_night(club, bk8)
    mark = len(d.effects)
    d.night({"black_kill": {"Kai": "Efe", "Zuri": "Efe"}, "mad_knight": {"Steve": "Alex"}, "healer": {"Sunny": "Noor"}})
    assert dead(d, bk8) == {"Efe", "Alex"}
    keys = dict(said(d, mark))
    news = [k for k, _ in said(d, mark)]
    assert news.count("club.died") == 2 and "bk.reveal.white_knight" in news and "bk.reveal.courtesan" in news
    assert "bk.last_word" not in news
    assert not any("Noor" in t or "heal" in t.lower() for t in keys.values())


@pytest.mark.rule("BK8", "BK10", "BK14")
def test_bk_a_blocked_healer_saves_nobody(club, bk8) -> None:
    """BK8: the attacked does not wake «Исключение: игрока вылечил Лекарь» (unless the Healer healed them). BK10:
    the Mad Knight attacks any player. BK14: the Healer heals one player. The Courtesan spends the night with the
    Healer: Sunny is not woken, so the Mad Knight's victim (Ari) dies."""
    d = bk_night(club, bk8)
    d.night({"courtesan": {"Alex": "Sunny"}, "mad_knight": {"Steve": "Ari"}, "healer": {"Sunny": "Ari"}})
    assert "club.blocked" in [k for k, _ in whispers(d, "Sunny")]
    assert not any(k == "bk.prompt.healer" for k, _ in whispers(d, "Sunny"))
    assert dead(d, bk8) == {"Ari"}


@pytest.mark.rule("BK10", "BK15")
def test_bk_the_mad_knight_may_kill_a_black_knight_whose_card_is_turned(club, bk8) -> None:
    """BK10: «Безумный Рыцарь – просыпается и выбирает любого игрока, на которого совершит нападение.» (the Mad
    Knight attacks any player). He attacks Zuri, a Black Knight: Zuri does not wake and everyone sees his card."""
    d = bk_night(club, bk8)
    d.night({"mad_knight": {"Steve": "Zuri"}})
    assert dead(d, bk8) == {"Zuri"}
    assert ("bk.reveal.black_knight", {"player": "Zuri"}) in d.said()


@pytest.mark.rule("BK11")
@pytest.mark.parametrize(("target", "answer"), [("Alex", "white"), ("Zuri", "black"), ("Steve", "mad")])
def test_bk_the_lords_sign_goes_to_the_lord_and_the_heir_only(club, bk8, target: str, answer: str) -> None:
    """BK11: «Ведущий дает ответ: палец вверх – Черный Рыцарь, палец вниз – Белый Рыцарь или Куртизанка, палец по
    горлу – Безумный Рыцарь.» (thumb up: a Black Knight; thumb down: a White Knight or the Courtesan; a finger across
    the throat: the Mad Knight) and «Наследник выполняет только наблюдательную функцию» (the Heir only watches).
    The answer reaches Ari (the Lord) and Noor (the Heir), and nobody else."""
    d = bk_night(club, bk8)
    d.night({"lord": {"Ari": target}})
    for name, _ in bk8:
        got = [k for k, _ in whispers(d, name) if k.startswith("bk.check.lord")]
        assert got == ([f"bk.check.lord.{answer}"] if name in ("Ari", "Noor") else [])
    assert not any(k == "bk.prompt.lord" for k, _ in whispers(d, "Noor"))


@pytest.mark.rule("BK13", "BK18")
def test_bk_the_lord_sent_to_the_gallows_makes_the_heir_lord(club, bk8) -> None:
    """BK13: «Если в процессе игры Лорд из нее выбывает, то Наследник занимает его роль и имеет право проверки
    любого игрока.» (if the Lord leaves the game, the Heir takes his role and may check any player). Ari (the Lord)
    leaves by the day vote, card turned: Noor is told privately (no public message names her) and checks on the
    next night, the answer coming to her."""
    d = club(BK, bk8)
    others = [n for n, _ in bk8 if n != "Ari"]
    d.to_day()
    d.speeches({"Alex": "Ari"})
    d.vote(dict.fromkeys(others, "Ari"))
    mark = len(d.effects)  # from the departure on
    d.advance()
    d.repeat({})
    assert "Ari" not in d.alive() and ("bk.reveal.lord", {"player": "Ari"}) in d.said()
    assert "bk.promoted.lord" in [k for k, _ in whispers(d, "Noor", mark)]
    assert not any("Noor" in t or "Heir" in t for _, t in said(d, mark))
    d.night({"lord": {"Noor": "Steve"}})
    assert "bk.check.lord.mad" in [k for k, _ in whispers(d, "Noor")]


@pytest.mark.rule("BK13", "BK19")
def test_bk_a_lord_who_wins_the_repeat_vote_stays_lord(club, bk8) -> None:
    """BK19: «Если он/она сможет переубедить игроков, голосование повторяется.» (if he wins the players over, the
    vote is repeated). BK13: the Heir takes the role only «Если в процессе игры Лорд из нее выбывает» (if the Lord
    leaves the game). Ari (the Lord) is voted out, wins the repeat, and Efe leaves instead: Noor is never told she
    is the Lord, and Ari still checks at night."""
    d = club(BK, bk8)
    mark = len(d.effects)
    d.to_day()
    d.speeches({"Alex": "Ari", "Kai": "Efe"})
    d.vote({n: "Ari" for n, _ in bk8 if n != "Ari"})
    d.advance()  # the last word
    d.repeat({n: True for n, _ in bk8 if n != "Ari"})
    d.vote({n: "Efe" for n, _ in bk8 if n != "Efe"})
    d.advance()
    assert "Ari" in d.alive() and "Efe" not in d.alive() and d.phase is ClubPhase.NIGHT
    assert "bk.promoted.lord" not in [k for k, _ in whispers(d, "Noor", mark)]
    d.night({"lord": {"Ari": "Zuri"}})
    assert "bk.check.lord.black" in [k for k, _ in whispers(d, "Ari")]


@pytest.mark.rule("BK14")
def test_bk_the_healer_may_not_heal_the_same_one_two_nights_running(club, bk8) -> None:
    """BK14: «Лекарь – указывает на одного игрока, которого будет лечить этой ночью. Каждую ночь должен выбирать
    нового игрока.» (each night he must choose a new player). Sunny heals Efe against the Black Order: Efe wakes.
    The next night Sunny cannot heal Efe again."""
    d = bk_night(club, bk8)
    d.night({"black_kill": {"Kai": "Efe", "Zuri": "Efe"}, "healer": {"Sunny": "Efe"}})
    assert "Efe" in d.alive() and ("club.no_deaths", {}) in d.said()
    d.to_day()
    d.speeches({})
    while d.game.current_step().name != "healer":
        for a in list(d.game.pending):
            d.do(SkipPower(a))
        d.expire()
    with pytest.raises(IllegalAction):
        d.do(UsePower("Sunny", "Efe"))


@pytest.mark.rule("BK16", "BK17")
def test_bk_speeches_in_seat_order_of_the_living_one_candidate_each(club, bk8) -> None:
    """BK16: «Каждому оставшемуся в игре игроку дается 1 минута для высказывания.» (each player still in the game
    has a minute to speak). BK17: «В конце высказывания игрок может выставить ОДНУ кандидатуру на голосование.»
    (at the end of the speech a player may put forward ONE candidate). After Efe's death at night the speeches go
    in seat order without Efe; nobody can put forward the dead Efe, nor a second candidate."""
    d = bk_night(club, bk8)
    d.night({"black_kill": {"Kai": "Efe", "Zuri": "Efe"}})
    d.to_day()
    speakers = []
    while d.phase is ClubPhase.SPEECH:
        s = d.game.speaker
        speakers.append(s)
        with pytest.raises(IllegalAction):
            d.do(NominateCandidate(s, "Efe"))
        d.do(NominateCandidate(s, "Kai") if s == "Alex" else HoldBack(s))
        with pytest.raises(IllegalAction):
            d.do(NominateCandidate(s, "Zuri"))
    assert speakers == [n for n, _ in bk8 if n != "Efe"]
    assert d.game.candidates == ["Kai"]


# ---------------------------------------------------------------------------------------------- Mafia & Yakuza


def to_vote(d: Any) -> None:
    """From the morning to the day's vote."""
    d.to_day()
    while d.phase is ClubPhase.DISCUSSION:
        d.advance()
    assert d.phase is ClubPhase.VOTE, d.phase


def keep_day(d: Any) -> None:
    """From the morning: everyone votes to keep everyone; night follows."""
    to_vote(d)
    d.vote(dict.fromkeys(sorted(d.alive()), KEEP))
    assert d.phase is ClubPhase.NIGHT, d.phase


def expel(d: Any, who: str) -> None:
    to_vote(d)
    d.vote({n: who for n in sorted(d.alive()) if n != who})


@pytest.mark.rule("MY5", "MY1")
def test_my_the_first_night_names_every_role_and_only_families_know_each_other(club) -> None:
    """MY5: «У першу ніч ведучий називає всі ролі (включаючи неактивні) для ознайомлення.» (on the first night the
    host names all the roles, inactive ones included). MY1: each role kept secret. Ten contestants: every role is
    named with its count (two Citizens), nobody is named with a role; the Mafia's and the Yakuza's members learn
    their own family; the Commissar, the Maniac and the Citizens learn nobody's role."""
    deal = (
        ("Alex", "don"),
        ("Kai", "mafioso"),
        ("Steve", "oyabun"),
        ("Ari", "yakuza"),
        ("Sunny", "commissar"),
        ("Makena", "doctor"),
        ("Omar", "mistress"),
        ("Tomas", "maniac"),
        ("Rhea", "citizen"),
        ("Efe", "citizen"),
    )
    d = club(MY, deal)
    setup = [(k, t) for k, t in said(d) if k.startswith("my.setup")]
    assert {k.split(".")[-1] for k, _ in setup} == {r for _, r in deal}
    assert ("my.setup.citizen", "In the game: Citizen × 2.") in setup
    assert not any(n in t for _, t in said(d) for n, _ in deal)
    team = {n: [t for k, t in whispers(d, n) if k == "my.team"] for n, _ in deal}
    assert team["Alex"] == ["Your family: Kai (Mafioso)."] and team["Steve"] == ["Your family: Ari (Yakuza)."]
    for n in ("Sunny", "Tomas", "Rhea", "Efe", "Omar", "Makena"):
        assert team[n] == []
        assert not any(m in t for _, t in whispers(d, n)[1:] for m, _ in deal if m != n)


@pytest.mark.rule("MY21", "MY12")
def test_my_a_blocked_family_member_sleeps_through_the_familys_shot(club, my14) -> None:
    """MY21: «Блокування - активна дія, яка забороняє обраному гравцю використовувати його активну здібність.» (the
    blocked player may not use their active ability). MY12: «Всі інші сплять (очікують).» (everyone else sleeps),
    and «Заборонено підглядати за активними діями вночі.» (peeking at night actions is forbidden). The Mistress
    visits Ari (Yakuza): he is told he is not woken, and must not learn whom the Oyabun shoots tonight."""
    d = club(MY, my14)
    mark = len(d.effects)
    d.night({"mistress": {"Omar": "Ari"}, "yakuza_shot": {"Steve": "Rhea"}})
    ari = whispers(d, "Ari", mark)
    assert ("club.blocked", "You are not woken tonight.") in ari
    assert not any("Rhea" in t for _, t in ari)


@pytest.mark.rule("MY21")
def test_my_a_blocked_doctor_heals_nobody(club, my14) -> None:
    """MY21: the blocked player cannot use their active ability. The Mistress visits Makena (the Doctor), who is
    told she is not woken and is not asked; the Maniac's victim Rhea dies though Makena would have healed her."""
    d = club(MY, my14)
    d.night({"mistress": {"Omar": "Makena"}, "maniac": {"Tomas": "Rhea"}, "heal": {"Makena": "Rhea"}})
    keys = [k for k, _ in whispers(d, "Makena")]
    assert "club.blocked" in keys and not any(k.startswith("my.prompt.doctor") for k in keys)
    assert dead(d, my14) == {"Rhea"}


@pytest.mark.rule("MY3", "MY22")
def test_my_the_morning_names_the_mined_never_the_sapper(club, my14) -> None:
    """MY3: «Нічні дії виконуються анонімно через ведучого гри.» (night actions are anonymous, through the host).
    MY22: the morning tells the night's actions that bear on the day and the next night. Noor (the Sapper) mines
    Rhea: the morning says Rhea is mined and nothing names Noor or the Sapper's seat."""
    d = club(MY, my14)
    mark = len(d.effects)
    d.night({"sapper": {"Noor": "Rhea"}})
    news = said(d, mark)
    assert any(k == "my.news.mined" and "Rhea" in t for k, t in news)
    assert not any("Noor" in t or "Sapper" in t for _, t in news)


@pytest.mark.rule("MY14")
def test_my_one_heal_saves_from_two_shots(club, my14) -> None:
    """MY14: «Постріл - одна з дій активних ролей, що вбиває ціль, якщо та не буде врятована активною чи пасивною
    здатністю своєї або іншої ролі.» (a shot kills unless an ability saves the target). The Mafia and the Maniac
    both shoot Rhea; the Shaman heals her: everyone wakes."""
    d = club(MY, my14)
    d.night({"mafia_shot": {"Alex": "Rhea", "Kai": "Rhea"}, "maniac": {"Tomas": "Rhea"}, "heal": {"Lena": "Rhea"}})
    assert dead(d, my14) == set() and ("club.no_deaths", {}) in d.said()


@pytest.mark.rule("MY15", "MY20")
def test_my_the_doctor_cures_the_poison_on_its_last_night(club, my14) -> None:
    """MY15: «Отрута - отруєний гравець помре через 2 ночі (не враховуючи ніч в яку його отруїли). Гравці-лікарі
    (D) (окрім Шамана (D)) можуть зняти отруту.» (the poisoned dies after 2 nights, not counting the night of
    poisoning; doctors but the Shaman can remove the poison). Rhea, poisoned on night 1, is told (as everyone) she
    dies at the end of night 3; the Doctor heals her on night 3: she wakes, and the morning says she is cured."""
    d = club(MY, my14)
    d.night({"poisoner": {"Zuri": "Rhea"}})
    assert any(k == "my.news.poisoned" and "Rhea" in t and "night 3" in t for k, t in said(d))
    keep_day(d)
    d.night({})
    keep_day(d)
    mark = len(d.effects)
    d.night({"heal": {"Makena": "Rhea"}})
    assert "Rhea" in d.alive()
    assert "my.news.cured" in [k for k, _ in said(d, mark)]


@pytest.mark.rule("MY15", "MY11")
def test_my_the_poison_outlives_the_expelled_poisoner_and_kills_after_two_nights(club, my14) -> None:
    """MY15: the poisoned dies after 2 nights, not counting the night of poisoning. Rhea is poisoned on night 1;
    the Poisoner (Zuri) is expelled on day 1. Rhea wakes after night 2 and dies at the end of night 3."""
    d = club(MY, my14)
    d.night({"poisoner": {"Zuri": "Rhea"}})
    expel(d, "Zuri")
    assert "Zuri" not in d.alive()
    d.night({})
    assert "Rhea" in d.alive()
    keep_day(d)
    d.night({})
    assert "Rhea" not in d.alive()


@pytest.mark.rule("MY15", "MY20", "MY14")
def test_my_the_shamans_heal_stops_a_shot_but_not_the_poison(club, my14) -> None:
    """MY20: «Лікування - дозволяє врятувати від пострілу чи отрути.» (a heal saves from a shot or poison) and
    MY15: «окрім Шамана» (except the Shaman) for poison. Rhea is poisoned and shot on night 1 and the Shaman heals
    her: she wakes (the shot is stopped) but stays poisoned, and dies at the end of night 3."""
    d = club(MY, my14)
    d.night({"maniac": {"Tomas": "Rhea"}, "poisoner": {"Zuri": "Rhea"}, "heal": {"Lena": "Rhea"}})
    assert "Rhea" in d.alive()
    assert any(k == "my.news.poisoned" and "Rhea" in t for k, t in said(d))
    keep_day(d)
    d.night({"heal": {"Lena": "Rhea"}})
    keep_day(d)
    d.night({})
    assert "Rhea" not in d.alive()


@pytest.mark.rule("MY16", "MY20")
def test_my_the_explosion_kills_through_a_heal_and_there_is_one_bomb(club, my14) -> None:
    """MY16: «Вибух - вбиває ціль без можливості врятуватись.» (an explosion kills with no chance of rescue). MY20:
    a heal «Не рятує від вибухів» (does not save from explosions). The Bomber blows up Rhea, whom the Doctor heals:
    Rhea dies. The next night the Bomber is not asked again."""
    d = club(MY, my14)
    d.night({"bomber": {"Ines": "Rhea"}, "heal": {"Makena": "Rhea"}})
    assert dead(d, my14) == {"Rhea"}
    keep_day(d)
    mark = len(d.effects)
    d.night({})
    assert not any(k.startswith("my.prompt.bomber") for k, _ in whispers(d, "Ines", mark))


@pytest.mark.rule("MY17")
@pytest.mark.parametrize(
    ("picks", "died"),
    [
        ({"mistress": {"Omar": "Rhea"}}, {"Rhea", "Omar"}),
        ({"check": {"Sunny": "Rhea"}}, set()),
        ({"check": {"Efe": "Rhea"}}, {"Rhea"}),
        ({"heal": {"Makena": "Rhea"}}, {"Rhea", "Makena"}),
        ({"mistress": {"Omar": "Rhea"}, "heal": {"Makena": "Rhea"}}, {"Rhea", "Omar"}),
        ({"bomber": {"Ines": "Rhea"}}, {"Rhea", "Ines"}),
    ],
)
def test_my_a_mine_takes_the_first_guest_unless_a_commissar(club, my14, picks: dict[str, Any], died: set[str]) -> None:
    """MY17: «при візиті інших активних ролей до замінованого гравця, замінований гравцець помре і забере першого
    гостя з собою, окрім гравця-комісара (K). Гравці-комісари (K) (окрім Священника (K)) розміновують жертву при
    візиті. Гравці-лікарі (D) не можуть врятувати жертву чи себе.» Rhea is mined on night 1; on night 2: the
    Mistress visiting dies with her; the Commissar clears the mine (nobody dies); the Priest (a K) survives but
    does not clear it; the Doctor cannot save her or himself; only the first guest is taken; the Bomber's visit
    takes the Bomber."""
    d = club(MY, my14)
    d.night({"sapper": {"Noor": "Rhea"}})
    keep_day(d)
    d.night(picks)
    assert dead(d, my14) == died


@pytest.mark.rule("MY17", "MY19")
def test_my_the_commissar_clearing_a_mine_still_gets_his_answer(club, my14) -> None:
    """MY17: «Гравці-комісари (K) ... розміновують жертву при візиті» (commissars clear the mine when they visit).
    MY19: a check tells the faction. Sunny (the Commissar) checks the mined Rhea: he is told
    Rhea is with the town, and the morning tells everyone the mine is gone."""
    d = club(MY, my14)
    d.night({"sapper": {"Noor": "Rhea"}})
    keep_day(d)
    mark = len(d.effects)
    d.night({"check": {"Sunny": "Rhea"}})
    assert "my.check.commissar.town" in [k for k, _ in whispers(d, "Sunny", mark)]
    assert "my.news.demined" in [k for k, _ in said(d, mark)]


@pytest.mark.rule("MY17")
def test_my_a_mined_doctor_healing_himself_is_no_guest(club, my14) -> None:
    """MY17: the mine goes off «при візиті інших активних ролей» (when OTHER active roles visit). Makena (the
    Doctor) is mined and heals herself: nobody else visits her, so nobody dies."""
    d = club(MY, my14)
    d.night({"sapper": {"Noor": "Makena"}})
    keep_day(d)
    d.night({"heal": {"Makena": "Makena"}})
    assert dead(d, my14) == set()


@pytest.mark.rule("MY19")
@pytest.mark.parametrize(
    ("checker", "target", "key"),
    [
        ("Sunny", "Zuri", "my.check.commissar.mafia"),
        ("Sunny", "Noor", "my.check.commissar.yakuza"),
        ("Sunny", "Omar", "my.check.commissar.town"),
        ("Sunny", "Ines", "my.check.commissar.loner"),
        ("Efe", "Tomas", "my.check.priest.loner"),
        ("Efe", "Alex", "my.check.priest.not_loner"),
    ],
)
def test_my_each_check_answers_the_faction_privately(club, my14, checker: str, target: str, key: str) -> None:
    """MY19: «Перевірка - активна дія, яка дозволяє перевірити приналежність гравця до певної фракції.» (a check
    tells whether a player belongs to a certain faction). The answer reaches the checker alone."""
    d = club(MY, my14)
    d.night({"check": {checker: target}})
    for name, _ in my14:
        got = [k for k, _ in whispers(d, name) if k.startswith("my.check")]
        assert got == ([key] if name == checker else [])


@pytest.mark.rule("MY7")
def test_my_the_yakuza_wins_when_it_is_the_only_faction_left(club) -> None:
    """MY7: «Фракція Мафія/Якудза перемагає, якщо залишається єдиною фракцією в грі.» (the Mafia/Yakuza wins when
    it is the only faction left). The Yakuza shoots the Don while the Don shoots the last Citizen: only the Yakuza
    is left, and wins (its two members)."""
    deal = (
        ("Alex", "don"),
        ("Steve", "oyabun"),
        ("Ari", "yakuza"),
        ("Rhea", "citizen"),
        ("Efe", "citizen"),
        ("Kai", "citizen"),
        ("Omar", "citizen"),
        ("Lena", "citizen"),
    )
    d = club(MY, deal)
    for who in ("Efe", "Kai", "Omar"):
        d.night({})
        expel(d, who)
    d.night({"mafia_shot": {"Alex": "Rhea"}, "yakuza_shot": {"Steve": "Lena", "Ari": "Lena"}})
    assert d.game.outcome is None and d.alive() == {"Alex", "Steve", "Ari"}
    expel(d, "Alex")
    assert d.game.outcome.winner is Winner.YAKUZA and d.game.outcome.winners == ("Steve", "Ari")


@pytest.mark.rule("MY8", "MY10")
def test_my_the_town_wins_only_when_the_last_loner_is_gone(club) -> None:
    """MY8: «Комісари та Жителі виграють, якщо всі загрози знешкоджені (не залишилось Мафії, Якудзи чи Одинаків).»
    (the town wins when no Mafia, Yakuza or Loners are left). With the Don and the Oyabun expelled the Maniac still
    lives: no winner yet; once he is expelled, the town wins."""
    deal = (
        ("Alex", "don"),
        ("Steve", "oyabun"),
        ("Tomas", "maniac"),
        ("Sunny", "commissar"),
        ("Makena", "doctor"),
        ("Omar", "mistress"),
        ("Rhea", "citizen"),
        ("Efe", "citizen"),
    )
    d = club(MY, deal)
    for who in ("Alex", "Steve"):
        d.night({})
        expel(d, who)
    assert d.game.outcome is None
    d.night({})
    expel(d, "Tomas")
    assert d.game.outcome.winner is Winner.TOWN
    assert set(d.game.outcome.winners) == {"Sunny", "Makena", "Omar", "Rhea", "Efe"}


@pytest.mark.rule("MY23")
def test_my_a_tie_with_keep_everyone_is_revoted_and_a_second_tie_expels_nobody(club, my14) -> None:
    """MY23: «Якщо кількість голосів рівна, відбувається переголосування; якщо результат знову рівний, у цей день
    ніхто не виганяється.» (equal votes: a revote; equal again: nobody is expelled that day). Five keep everyone,
    five name Alex, four name Rhea: a revote between Alex and keeping everyone; it ties again: nobody leaves."""
    d = club(MY, my14)
    d.night({})
    to_vote(d)
    names = sorted(d.alive())
    plan = {n: KEEP if i < 5 else "Alex" if i < 10 and n != "Alex" else "Rhea" for i, n in enumerate(names)}
    assert list(plan.values()).count(KEEP) == 5 and list(plan.values()).count("Alex") == 5
    d.vote(plan)
    assert d.game.ballot.kind == "revote" and d.game.ballot.options == ("Alex", KEEP)
    half = names[:7]
    d.vote({n: KEEP if n in half else "Alex" for n in names if n != "Alex"} | {"Alex": KEEP})
    assert d.phase is ClubPhase.NIGHT and d.alive() == {n for n, _ in my14}


@pytest.mark.rule("MY24", "MY22")
def test_my_neither_the_expelled_nor_the_dead_have_their_role_or_cause_told(club, my14) -> None:
    """MY24: «Якщо гравця вигнано, його роль не оголошується» (an expelled player's role is not announced). MY22:
    the morning announces the dead. The Don is expelled, and the Doctor is shot at night: no public message
    names either's role, nor how the Doctor died."""
    d = club(MY, my14)
    d.night({})
    mark = len(d.effects)
    expel(d, "Alex")
    d.night({"maniac": {"Tomas": "Makena"}})
    assert dead(d, my14) == {"Alex", "Makena"}
    text = " ".join(t for _, t in said(d, mark))
    for word in ("Don", "Doctor", "shot", "Maniac", "Mafia"):
        assert word not in text
    assert "Makena did not wake up." in text


@pytest.mark.rule("MY11", "MY13")
def test_my_the_expelled_cannot_act_and_only_the_host_moves_on(club, my14) -> None:
    """MY11: «Вбиті та вигнані гравці не можуть впливати на ігровий процес» (the killed and the expelled cannot
    affect the game). MY13: «Ведучий має остаточне слово у всіх спірних питаннях.» (the host has the final word).
    The expelled Commissar is never asked at night and his check is refused; a contestant cannot move the game
    on."""
    d = club(MY, my14)
    d.night({})
    expel(d, "Sunny")
    with pytest.raises(IllegalAction):
        d.do(Advance("Alex"))
    mark = len(d.effects)
    while d.phase is ClubPhase.NIGHT:
        with pytest.raises(IllegalAction):
            d.do(UsePower("Sunny", "Alex"))
        for a in list(d.game.pending):
            d.do(SkipPower(a))
        d.expire()
    assert whispers(d, "Sunny", mark) == []
    with pytest.raises(IllegalAction):
        d.do(CastVote("Sunny", "Alex"))
