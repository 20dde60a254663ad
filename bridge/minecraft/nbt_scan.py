"""mecha's SNBT grammar read in one pass (``docs/minecraft.md#command-syntax-checking``).

mecha parses an SNBT value token by token through its token stream, which costs most of what parsing a Castle
command costs: the text components of ``tellraw`` and ``dialog``, and the batches of ``function traitors:run``,
are SNBT. ``ScannedNbtParser`` stands in for mecha's ``nbt`` parser. It enters the same token syntax mecha's
``NbtParser`` enters, so it matches the same regular expression at the same places; it walks the tokens with that
parser's grammar (its own patterns, number suffixes, ``true``/``false`` aliases and quote helper) and builds the
same tree, node for node and location for location; then it moves the stream past the value as one token.

Anything it does not follow exactly is left to mecha's own parser from where the value starts: a token the
grammar does not expect (so every error is mecha's, at mecha's location), an escape mecha's quote rules refuse, an
array element of the wrong type, a text that the stream's preprocessor changed, a value running past its line or
nested deeper than ``MAX_DEPTH``. The trees and errors are checked equal to mecha's, locations included, for every
command engine series of the three rulesets render, for deep values and for random SNBT-like texts
(``tests/bridge/minecraft/test_nbt_scan.py``). Where Python's stack runs out is the one place the two can differ: the
reader adds one call above mecha's parser when it leaves a value to it, so at the exact depth where mecha would just
fit, it runs out one frame sooner (that depth moves with the caller's own depth anyway).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, TypeVar

from mecha import (
    AstChildren,
    AstNbt,
    AstNbtByteArray,
    AstNbtCompound,
    AstNbtCompoundEntry,
    AstNbtCompoundKey,
    AstNbtIntArray,
    AstNbtList,
    AstNbtLongArray,
    AstNbtValue,
)
from mecha.parse import NbtParser
from nbtlib import Byte, Double, Int, Long, OutOfRange, String
from tokenstream import SourceLocation, Token, TokenStream

_ARRAYS: dict[str, tuple[type[AstNbtByteArray | AstNbtIntArray | AstNbtLongArray], type[Any]]] = {
    "B": (AstNbtByteArray, Byte),
    "I": (AstNbtIntArray, Int),
    "L": (AstNbtLongArray, Long),
}


T = TypeVar("T")

_location = tuple.__new__  # SourceLocation is a named tuple; its generated __new__ is a Python call


class _Unfollowed(Exception):
    """The text leaves the path this reader follows; mecha's own parser reads it instead."""


class ScannedNbtParser:
    """A parser for mecha's ``nbt`` slot: the same trees as ``grammar``, read without the token stream's per-token
    bookkeeping; ``fallback`` (mecha's parser in that slot, ``grammar`` itself) reads whatever this does not.

    Args:
        grammar: mecha's ``NbtParser`` whose patterns, number suffixes, aliases and quote helper define the
            grammar (its default settings for 1.21).
        slots: the parsers of the mecha this sits in (``mecha.spec.parsers``). While ``fallback`` reads a value,
            it is back in the ``nbt`` slot, so its nested values reach it as they would in a plain mecha: no extra
            call per level, and a value too deep for Python's stack fails where it fails there.
    """

    def __init__(self, grammar: NbtParser, slots: dict[str, Any]) -> None:
        self.grammar = grammar
        self.fallback: Callable[[TokenStream], Any] = grammar
        self.slots = slots
        self._rules = {
            "array": grammar.array_pattern,
            "curly": grammar.curly_pattern,
            "bracket": grammar.bracket_pattern,
            "quoted_string": grammar.quoted_string_pattern,
            "number": grammar.number_pattern,
            "string": grammar.string_pattern,
            "colon": grammar.colon_pattern,
            "comma": grammar.comma_pattern,
        }

    def __call__(self, stream: TokenStream) -> Any:
        """Parse one SNBT value at the stream's position (mecha's ``Parser`` protocol).

        Raises:
            InvalidSyntax: from mecha's own parser, for a text that is not SNBT.
        """
        if not stream.preprocessed_mappings:
            with stream.syntax(**self._rules):
                try:
                    read = _Read(stream, self.grammar)
                    node = read.value()
                except _Unfollowed:
                    node = None
                if node is not None:
                    read.advance()
                    return node
        # A value left to mecha is read by mecha all the way down.
        self.slots["nbt"] = self.fallback
        try:
            return self.fallback(stream)
        finally:
            self.slots["nbt"] = self


MAX_DEPTH = 64
"""Values nested deeper are left to mecha (Castle's are a few levels deep): mecha spends more Python frames per
level, so only it can say where its own parse runs out of stack."""


class _Read:
    """One value being read: the tokens that the stream would not ignore, taken from the stream's regular expression
    as far as the reading needs them (never past the line's end), and where the reading is among them."""

    __slots__ = ("depth", "grammar", "i", "ignored", "matches", "start", "stream", "tokens", "_col", "_line")

    def __init__(self, stream: TokenStream, grammar: NbtParser) -> None:
        self.stream, self.grammar = stream, grammar
        src: str = stream.preprocessed_source
        self.start = start = stream.preprocessed_pos
        line_end = src.find("\n", start)
        self.ignored = stream.ignored_tokens
        # The stream's own regular expression, so the tokens are the ones mecha's parser would take.
        self.matches = stream.regex.finditer(src, start, len(src) if line_end < 0 else line_end)
        self.tokens: list[re.Match[str]] = []
        self.i = self.depth = 0
        self._line, self._col = stream.preprocessed_lineno, stream.preprocessed_colno - start

    def _loc(self, pos: int) -> SourceLocation:
        return _location(SourceLocation, (pos, self._line, self._col + pos))

    def _more(self) -> bool:
        """Whether there is a token at ``i`` (read from the text if it is not yet)."""
        if self.i < len(self.tokens):
            return True
        for m in self.matches:
            if m.lastgroup not in self.ignored:
                self.tokens.append(m)
                return True
        return False

    def _take(self) -> re.Match[str]:
        if not self._more():
            raise _Unfollowed  # the end of the line: mecha says what it expected
        m = self.tokens[self.i]
        self.i += 1
        return m

    def _ahead(self, kind: str, text: str) -> bool:
        """Whether the next token is ``kind`` with ``text`` (False at the end of the line)."""
        if self._more():
            m = self.tokens[self.i]
            return m.lastgroup == kind and m.group() == text
        return False

    def value(self) -> AstNbt:
        """The value at the next token, as ``NbtParser.__call__`` builds it."""
        m = self._take()
        kind, text = m.lastgroup, m.group()
        if kind == "curly" and text == "{":
            return self._compound(m.start())
        if kind == "bracket" and text == "[" or kind == "array":
            return self._list(kind, text, m.start())
        where = {"location": self._loc(m.start()), "end_location": self._loc(m.end())}
        grammar = self.grammar
        if kind == "number":
            suffix = text[-1].lower()
            try:
                if suffix in grammar.number_suffixes:
                    value: Any = grammar.number_suffixes[suffix](text[:-1])
                else:
                    value = Double(text) if "." in text else Int(text)
            except (OutOfRange, ValueError):
                value = String(text)
        elif kind == "string":
            alias = grammar.literal_aliases.get(text.lower())
            if alias is not None:
                return type(alias)(value=alias.value, **where)
            value = String(text)
        elif kind == "quoted_string":
            value = String(self._unquote(m))
        else:
            raise _Unfollowed
        return AstNbtValue(value=value, **where)

    def _unquote(self, m: re.Match[str]) -> str:
        text = m.group()
        if text[0] not in "\"'":
            return text
        if "\\" not in text:
            return text[1:-1]
        token = Token("quoted_string", text, self._loc(m.start()), self._loc(m.end()))
        try:
            return str(self.grammar.quote_helper.unquote_string(token))
        except Exception:  # an invalid escape: mecha's parser reports it
            raise _Unfollowed from None

    def _items(self, read: Callable[[], T], kind: str, close: str) -> tuple[list[T], int]:
        """The items of a compound or list up to its closing token, and where that token ends: ``peek_until`` the
        closing token, an item, then a comma or the end (a comma before the end is allowed)."""
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise _Unfollowed
        items: list[T] = []
        while not self._ahead(kind, close):
            items.append(read())
            if self._ahead("comma", ","):
                self.i += 1
                continue
            if not self._ahead(kind, close):
                raise _Unfollowed
            break
        self.depth -= 1
        return items, self._take().end()

    def _entry(self) -> AstNbtCompoundEntry:
        m = self._take()
        if m.lastgroup not in ("number", "string", "quoted_string"):
            raise _Unfollowed
        key = AstNbtCompoundKey(value=self._unquote(m), location=self._loc(m.start()), end_location=self._loc(m.end()))
        if self._take().lastgroup != "colon":
            raise _Unfollowed
        value = self.value()
        return AstNbtCompoundEntry(key=key, value=value, location=key.location, end_location=value.end_location)

    def _compound(self, at: int) -> AstNbtCompound:
        entries, end = self._items(self._entry, "curly", "}")
        return AstNbtCompound(entries=AstChildren(entries), location=self._loc(at), end_location=self._loc(end))

    def _list(self, kind: str, text: str, at: int) -> AstNbt:
        elements, end = self._items(self.value, "bracket", "]")
        where = {"location": self._loc(at), "end_location": self._loc(end)}
        if kind != "array":
            return AstNbtList(elements=AstChildren(elements), **where)
        node_type, element_type = _ARRAYS[text[1]]
        for element in elements:
            if isinstance(element, AstNbtValue) and type(element.value) is not element_type:
                raise _Unfollowed  # mecha's error names the element
        return node_type(elements=AstChildren(elements), **where)

    def advance(self) -> None:
        """Move the stream past the value: the tokens it ignored before the value, then the value as one token."""
        stream = self.stream
        src = stream.preprocessed_source
        first = self.tokens[0].start()
        pos = self.start
        while pos < first:
            m = stream.regex.match(src, pos)
            assert m is not None and m.lastgroup is not None
            stream.emit_token(m.lastgroup, m.group())
            pos = m.end()
        stream.emit_token("nbt", src[first : self.tokens[self.i - 1].end()])


__all__ = ["ScannedNbtParser"]
