"""Every message a contestant or host is shown reads wholly in the client's language.

Values the engine puts inside a sentence (a power's name, an allegiance, a torch, a twist, a winner, a role in a
list) are translation keys of their own, and counts take the plural form each language asks for. The messages
come from whole series played by bots in every ruleset, the host's twist, clock and undo inputs, and refused
inputs; each is rendered through the bridge's component builder and resolved against the resource pack's
``en_us``, ``ru_ru`` and ``uk_ua`` files as a client in that language would (``bridge.sandbox.text``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from bridge.minecraft.lang import LANGUAGES, load
from bridge.minecraft.plurals import CLASSES, RULES, category, count_class
from bridge.minecraft.render import choice_label
from bridge.minecraft.text import message_component
from bridge.sandbox.text import plain_text
from engine import sim
from engine.actions import CancelTwist, ChooseTorch, ExtendPhase, PauseClock, StartTwist, UndoHostAction
from engine.effects import Announce, ClockStarted, Message, Prompt, ShowTitle, Whisper, msg
from engine.errors import IllegalAction, InvalidCommand
from engine.ids import Drink, Torch, Twist
from engine.messages import CATALOG, counted, placeholders
from engine.messages_terms import PLURALS
from engine.rulesets.club.game import ClubSettings
from engine.rulesets.traitors.settings import Settings
from engine.rulesets.traitors.twists.bar import TakeDrink

NAMES = ("Alex", "Kai", "Zuri", "Steve", "Ari", "Noor", "Sunny", "Efe", "Makena", "Lena", "Omar", "Rhea")
HOST = "Hostess"
ALL_TWISTS = {
    1: (Twist.CONFESSION,),
    2: (Twist.DOUBLE_VOTE, Twist.GUESS),
    3: (Twist.MURDER,),
    4: (Twist.SEER, Twist.TRIAL),
}
FREE_TEXT = frozenset({"text"})
"""Placeholders whose value is what a contestant wrote (a confession): shown as written."""
TABLES = {lang: load(lang) for lang in LANGUAGES}


def _said(effects: object) -> Iterator[tuple[Message, object]]:
    """(message, effect) for every message an effect shows; a prompt's choice labels as components."""
    for e in effects:  # type: ignore[attr-defined]
        if isinstance(e, (Announce, Whisper, Prompt)):
            yield e.message, e
        elif isinstance(e, ShowTitle):
            yield e.title, e
            if e.subtitle is not None:
                yield e.subtitle, e
        elif isinstance(e, ClockStarted):
            yield e.label, e


def _series_messages(monkeypatch: pytest.MonkeyPatch, settings: object, seeds: range) -> tuple[list, list]:
    """Every message and every prompt of whole bot series (``engine.sim.play_series``)."""
    seen: list = []
    deliver = sim._Table.deliver

    def recording(table, effects, *args):  # type: ignore[no-untyped-def]
        effects = list(effects)
        seen.extend(effects)
        return deliver(table, effects, *args)

    monkeypatch.setattr(sim._Table, "deliver", recording)
    for seed in seeds:
        sim.play_series(settings, seed)
    monkeypatch.undo()
    return [m for m, _ in _said(seen)], [e for e in seen if isinstance(e, Prompt)]


def _host_messages() -> list[Message]:
    """What the host is told starting, cancelling and refusing twists, pausing, extending and undoing, plus
    refused contestant inputs (a drink, a torch out of the finale)."""
    game = sim.new_game(Settings(contestants=NAMES, traitors=3, hosts=(HOST,)), 3)
    effects = list(game.handle(sim.StartSeries(), now=0.0))
    out: list[Message] = []
    actions = [
        *(StartTwist(HOST, t) for t in Twist),
        *(StartTwist(HOST, t) for t in Twist),
        *(CancelTwist(HOST, t) for t in Twist),
        PauseClock(HOST),
        UndoHostAction(HOST),
        ExtendPhase(HOST, 60),
        UndoHostAction(HOST),
        ExtendPhase(HOST, 1),
        UndoHostAction(HOST),
        TakeDrink("Alex", Drink.FAITHFUL_FANCY),
        ChooseTorch("Alex", Torch.END_GAME),
    ]
    for action in actions:
        try:
            effects += game.handle(action, now=1.0)
        except (IllegalAction, InvalidCommand) as exc:
            out.append(Message(exc.reason, tuple(exc.params.items())))
    return out + [m for m, _ in _said(effects)]


def _names(message: Message) -> set[str]:
    """The plain-text values of a message and of its nested values (names, numbers, what someone wrote)."""
    out: set[str] = set()
    for _k, v in message.params:
        for item in v if isinstance(v, tuple) else (v,):
            if isinstance(item, Message):
                out |= _names(item)
            else:
                out.add(item)
    return out


def _foreign(text: str, allowed: set[str]) -> str:
    """What is left of ``text`` in Latin letters once the allowed names are taken out."""
    for name in sorted(allowed, key=len, reverse=True):
        text = text.replace(name, " ")
    return " ".join(re.findall(r"[A-Za-z][A-Za-z']*", text))


def _check(message: Message, people: set[str], problems: dict[str, str]) -> None:
    component = message_component(message).to_nbt()
    free = {v for k, v in message.params if k in FREE_TEXT and isinstance(v, str)}
    allowed = people | free | {v for v in _names(message) if not re.search("[A-Za-z]", v)}
    english = plain_text(component, TABLES["en_us"])
    assert english == message.text, message  # the English client sees exactly the engine's English
    for lang in ("ru_ru", "uk_ua"):
        left = _foreign(plain_text(component, TABLES[lang]), allowed)
        if left:
            problems.setdefault(f"{lang} {message.key}", f"{left!r} in {plain_text(component, TABLES[lang])!r}")


@pytest.fixture(scope="module")
def every_message() -> tuple[list[Message], list[Prompt]]:
    monkeypatch = pytest.MonkeyPatch()
    traitors = Settings(contestants=NAMES, traitors=3, drunk="possible", twists=ALL_TWISTS, joker_night=2)
    messages, prompts = _series_messages(monkeypatch, traitors, range(6))
    for ruleset in ("black_knights", "mafia_yakuza"):
        more, more_prompts = _series_messages(monkeypatch, ClubSettings(ruleset, NAMES), range(6))
        messages += more
        prompts += more_prompts
    return messages + _host_messages(), prompts


def test_no_english_value_inside_a_russian_or_ukrainian_message(every_message) -> None:
    messages, _ = every_message
    people = set(NAMES) | {HOST}
    problems: dict[str, str] = {}
    for message in set(messages):
        _check(message, people, problems)
    keys = {m.key for m in messages}
    # the values that used to stay English are all among what was shown
    assert {
        "deal.faithful",
        "oath.sworn",
        "banish.reveal",
        "series.over",
        "finale.torch.reveal",
        "twist.started",
        "result.researcher",
        "turret.choice",
        "bk.team",
        "my.team",
        "host.undone",
    } <= keys
    assert not problems, "\n".join(f"{k}: {v}" for k, v in sorted(problems.items()))


def test_choice_labels_are_translated_too(every_message) -> None:
    _, prompts = every_message
    people = set(NAMES) | {HOST}
    problems = set()
    for prompt in prompts:
        for choice in prompt.choices:
            label = choice_label(choice).to_nbt()
            for lang in ("ru_ru", "uk_ua"):
                left = _foreign(plain_text(label, TABLES[lang]), people)
                if left:
                    problems.add((lang, choice.action.kind, left))
    assert not problems, sorted(problems)


def _sample(key: str) -> Message:
    """A message with a sample value for every placeholder: a name, or a count for a counted phrase."""
    phrases = counted(key)
    return msg(key, **{n: (7 if n in phrases else "Alex") for n in placeholders(key)})


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_catalogue_message_renders_in_every_language(language: str) -> None:
    """Each key resolves to a filled text (no key shown raw, no ``%1$s`` left), with no Latin word of its own in
    ru and uk."""
    table = TABLES[language]
    for key in CATALOG:
        text = plain_text(message_component(_sample(key)).to_nbt(), table)
        assert text != "traitors." + key and "%" not in text.replace("%%", ""), (key, text)
        if language != "en_us":  # the language's own words only, none left in English
            own = re.sub(
                r"%\d+\$s|/trigger traitors\.[a-z_]+|Minecraft", "", table["traitors." + key]
            )  # proper names stay
            assert not re.search("[A-Za-z]", own), (key, text)


COUNTS = (0, 1, 2, 3, 4, 5, 11, 12, 14, 20, 21, 22, 25, 101, 111, 112, 121, 1000, 1001)


def test_each_count_class_takes_one_category_in_every_language() -> None:
    """The classes refine every shipped language's plural rule: two counts of one class never differ in any
    language's category, so one key per class can always hold the right form."""
    for n in range(0, 2000):
        c = count_class(n)
        for lang in RULES:
            assert RULES[lang](n) == category(lang, c), (n, lang)
    assert CLASSES == ("n0", "n1", "n2", "n21")


def test_the_plural_rules_are_cldrs() -> None:
    """``bridge.minecraft.plurals.RULES`` gives every count the category of the CLDR data that Babel ships (the bridge keeps
    its own two rules: importing Babel's locale data would add about 90 ms to every service start)."""
    from babel import Locale

    for lang, rule in RULES.items():
        cldr = Locale.parse(lang).plural_form
        assert [rule(n) for n in range(2000)] == [cldr(n) for n in range(2000)], lang


@pytest.mark.parametrize(
    ("n", "english", "russian", "ukrainian"),
    [
        (1, "1 Traitor action", "1 действие предателей", "1 дія зрадників"),
        (2, "2 Traitor actions", "2 действия предателей", "2 дії зрадників"),
        (5, "5 Traitor actions", "5 действий предателей", "5 дій зрадників"),
        (11, "11 Traitor actions", "11 действий предателей", "11 дій зрадників"),
        (21, "21 Traitor actions", "21 действие предателей", "21 дія зрадників"),
        (0, "0 Traitor actions", "0 действий предателей", "0 дій зрадників"),
    ],
)
def test_a_count_reads_right_in_each_language(n: int, english: str, russian: str, ukrainian: str) -> None:
    component = message_component(msg("result.detective", player="Ari", count=n)).to_nbt()
    assert plain_text(component, TABLES["en_us"]) == f"Ari was targeted by {english} tonight."
    assert russian in plain_text(component, TABLES["ru_ru"])
    assert ukrainian in plain_text(component, TABLES["uk_ua"])
    assert msg("result.detective", player="Ari", count=n).text == f"Ari was targeted by {english} tonight."


def test_every_counted_phrase_has_a_form_for_every_class_and_count() -> None:
    for phrase in PLURALS:
        for n in COUNTS:
            for lang, table in TABLES.items():
                text = table[f"traitors.plural.{phrase}.{count_class(n)}"]
                assert text.count("%1$s") == 1, (lang, phrase, text)


def test_the_sandbox_reads_nested_components_as_an_english_client_would() -> None:
    """``plain_text`` (the demo's and the tests' reader) resolves nested translate components with ``en_us``."""
    from engine.terms import power_term

    message = msg("result.researcher", player="Ari", first=power_term("The Spy"), second=power_term(None))
    component = message_component(message).to_nbt()
    component["fallback"] = "stale"  # the language file wins over the fallback, as on a client with the pack
    assert plain_text(component) == "Ari holds The Spy or no power."
    assert (
        plain_text({"translate": "traitors.no.such.key", "fallback": "%s and %s", "with": ["a", {"text": "b"}]})
        == "a and b"
    )
    assert plain_text({"translate": "x.y", "with": ["a"]}, {"x.y": "%2$s"}) == "%2$s"  # a missing argument: as is
    assert plain_text({"translate": "x.y", "with": ["a"]}, {"x.y": "50%% %1$s"}) == "50% a"
