"""Reading SNBT from the server's replies (``data get storage`` / ``data get entity``) as plain Python values.

The writer is ``bridge.commands.snbt``; this is its reader, for what vanilla prints (FACTS §5: the input queue
``Storage traitors:io has the following contents: [{seq: 7, uuid: [I; 1, 2, 3, 4], input: "vote", value: 3}]``
and a player's ``Inventory``). It is small on purpose: the bridge only needs values, not typed tags, so it does
not pull in ``nbtlib`` (and numpy) on the service's start-up path.

Grammar read (the 1.21.5+ SNBT that ``data get`` prints, plus the lenient input forms a data pack may store):

* compound ``{key: value, …}``; a key is a quoted string or an unquoted ``[A-Za-z0-9._+-]+``;
* list ``[value, …]`` and typed arrays ``[B; …]``, ``[I; …]``, ``[L; …]`` (their numbers with or without a
  suffix);
* strings in ``"…"`` or ``'…'`` with the escapes ``\\\\ \\' \\" \\b \\s \\t \\n \\f \\r \\xHH \\uHHHH
  \\UHHHHHHHH \\N{name}``; an unquoted word is a string, except ``true``/``false`` (1 and 0, as bytes are);
* numbers: integers with an optional ``b``/``s``/``l`` suffix (any case), decimals or exponents with an optional
  ``f``/``d`` suffix, and an integer with ``f``/``d`` (``3f``).

Values come back as ``dict`` (compound), ``list`` (list or array), ``str``, ``int`` (byte, short, int, long) and
``float`` (float, double). Anything else (trailing text, an unterminated string, a bad escape) raises
``SnbtError``; the caller decides what an unreadable reply means.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from typing import Any

__all__ = ["SnbtError", "parse"]


class SnbtError(ValueError):
    """The text is not SNBT; the message says what was expected and at which character (0-based)."""


_WS = re.compile(r"[ \t\r\n]*")
_WORD = re.compile(r"[A-Za-z0-9._+\-]+")
_INT = re.compile(r"[+-]?\d+[bBsSlL]?")
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)[bBsSlLfFdD]?")
_ARRAY = re.compile(r"\[([BIL]);")
_ESCAPES = {"\\": "\\", "'": "'", '"': '"', "b": "\b", "s": " ", "t": "\t", "n": "\n", "f": "\f", "r": "\r"}
_HEX_DIGITS = {"x": 2, "u": 4, "U": 8}


def parse(text: str) -> Any:
    """Parse one SNBT value that makes up the whole of ``text`` (surrounding whitespace allowed).

    Args:
        text: e.g. ``'[{seq: 1, uuid: [I; 1, -2, 3, 4], input: "vote", value: 3}]'``.

    Returns:
        The value as plain Python (see the module docstring), e.g.
        ``[{"seq": 1, "uuid": [1, -2, 3, 4], "input": "vote", "value": 3}]``.

    Raises:
        SnbtError: ``text`` is not exactly one SNBT value.
    """
    try:
        value, i = _value(text, _skip(text, 0))
    except RecursionError:
        raise SnbtError("nested too deeply") from None
    i = _skip(text, i)
    if i != len(text):
        raise SnbtError(f"unexpected {text[i]!r} after the value at {i}")
    return value


def _skip(text: str, i: int) -> int:
    return _WS.match(text, i).end()  # type: ignore[union-attr]  # the pattern matches the empty string


def _value(text: str, i: int) -> tuple[Any, int]:
    """The value starting at ``i`` (no leading whitespace) and the index after it."""
    if i >= len(text):
        raise SnbtError(f"expected a value at {i}, got the end")
    c = text[i]
    if c == "{":
        return _compound(text, i + 1)
    if c == "[":
        m = _ARRAY.match(text, i)
        return _sequence(text, m.end() if m else i + 1, typed=m is not None)
    if c in "\"'":
        return _string(text, i)
    word = _WORD.match(text, i)
    if word is None:
        raise SnbtError(f"expected a value at {i}, got {c!r}")
    w = word.group(0)
    if _NUMBER.fullmatch(w):
        return _number(w, i), word.end()
    return {"true": 1, "false": 0}.get(w, w), word.end()


def _number(token: str, at: int) -> int | float:
    """An int for an integer token (suffix ``b``/``s``/``l`` dropped), else a float (``f``/``d`` dropped).

    Raises:
        SnbtError: an integer suffix on a decimal (``1.5b``).
    """
    if _INT.fullmatch(token):
        return int(token.rstrip("bBsSlL"))
    if token[-1] in "bBsSlL":
        raise SnbtError(f"an integer suffix on a decimal at {at}")
    return float(token.rstrip("fFdD"))


def _compound(text: str, i: int) -> tuple[dict[str, Any], int]:
    """The entries of a compound whose ``{`` ends before ``i``, and the index after its ``}``."""
    out: dict[str, Any] = {}

    def entry(i: int) -> int:
        if i < len(text) and text[i] in "\"'":
            key, i = _string(text, i)
        else:
            m = _WORD.match(text, i)
            if m is None:
                raise SnbtError(f"expected a key at {i}")
            key, i = m.group(0), m.end()
        i = _skip(text, i)
        if i >= len(text) or text[i] != ":":
            raise SnbtError(f"expected ':' after the key {key!r} at {i}")
        out[key], i = _value(text, _skip(text, i + 1))
        return i

    return out, _items(text, i, "}", entry)


def _sequence(text: str, i: int, *, typed: bool) -> tuple[list[Any], int]:
    """The elements of a list (or, ``typed``, a number array) whose ``[`` (``[I;``) ends before ``i``, and the
    index after its ``]``."""
    out: list[Any] = []

    def element(i: int) -> int:
        value, j = _value(text, i)
        if typed and not isinstance(value, (int, float)):
            raise SnbtError(f"expected a number in the array at {i}")
        out.append(int(value) if typed else value)
        return j

    return out, _items(text, i, "]", element)


def _items(text: str, i: int, close: str, item: Callable[[int], int]) -> int:
    """Read comma-separated items with ``item`` (index in, index after the item out) up to ``close``.

    Returns:
        The index after ``close``.
    """
    i = _skip(text, i)
    if i < len(text) and text[i] == close:
        return i + 1
    while True:
        i = _skip(text, item(i))
        if i < len(text) and text[i] == ",":
            i = _skip(text, i + 1)
        elif i < len(text) and text[i] == close:
            return i + 1
        else:
            raise SnbtError(f"expected ',' or {close!r} at {i}")


def _string(text: str, i: int) -> tuple[str, int]:
    """A quoted string starting at ``i`` (its quote character) and the index after the closing quote."""
    quote = text[i]
    parts: list[str] = []
    start = i = i + 1
    while True:
        j = min((k for k in (text.find(quote, i), text.find("\\", i)) if k >= 0), default=-1)
        if j < 0:
            raise SnbtError(f"unterminated string starting at {start - 1}")
        parts.append(text[i:j])
        if text[j] == quote:
            return "".join(parts), j + 1
        escaped, i = _escape(text, j + 1)
        parts.append(escaped)


def _escape(text: str, i: int) -> tuple[str, int]:
    """The character of the escape whose letter is at ``i`` (after the backslash) and the index after it."""
    if i >= len(text):
        raise SnbtError("a backslash at the end")
    c = text[i]
    if c in _ESCAPES:
        return _ESCAPES[c], i + 1
    if c in _HEX_DIGITS:
        digits = text[i + 1 : i + 1 + _HEX_DIGITS[c]]
        if len(digits) != _HEX_DIGITS[c] or any(d not in "0123456789abcdefABCDEF" for d in digits):
            raise SnbtError(f"bad \\{c} escape at {i - 1}")
        code = int(digits, 16)
        if code > 0x10FFFF:
            raise SnbtError(f"bad \\{c} escape at {i - 1}")
        return chr(code), i + 1 + len(digits)
    if c == "N" and text.startswith("{", i + 1):
        end = text.find("}", i + 2)
        if end < 0:
            raise SnbtError(f"bad \\N escape at {i - 1}")
        try:
            return unicodedata.lookup(text[i + 2 : end]), end + 1
        except (KeyError, ValueError):
            raise SnbtError(f"bad \\N escape at {i - 1}") from None
    raise SnbtError(f"unknown escape \\{c} at {i - 1}")
