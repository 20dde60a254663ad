"""SNBT both ways: writing values into commands (``snbt``, ``snbt_string``: the one place that writes SNBT) and
reading the server's replies (``parse``: ``data get storage`` / ``data get entity``) as plain Python values.

Writing. String escaping (checked against the decompiled 1.21.5+ ``SnbtGrammar``: escapes ``\\b \\s \\t \\n \\f
\\r \\\\ \\' \\" \\xHH \\uHHHH \\UHHHHHHHH \\N{name}``; mecha 0.101.0 accepts the same set minus ``\\x``/``\\N``):
strings are always double-quoted; ``\\`` and ``"`` are backslash-escaped; newline, tab, carriage return,
backspace and form feed use their letter escapes; every other control character, DEL, the C1 controls, lone
surrogates and ``§`` are written as ``\\uHHHH``; all other characters are sent literally (UTF-8). A compound key
is written bare when it is a plain identifier, quoted otherwise.

Reading, for what vanilla prints
(``docs/minecraft.md#player-input``: the input queue
``Storage traitors:io has the following contents: [{seq: 7, uuid: [I; 1, 2, 3, 4], input: "vote", value: 3}]``
and a player's ``Inventory``). It is small on purpose: the bridge only needs values, not typed tags, so it does
not pull in ``nbtlib`` (and numpy) on the service's start-up path.

Grammar read (the 1.21.5+ SNBT that ``data get`` prints, plus the lenient input forms a data pack may store):

* compound ``{key: value, …}``; a key is a quoted string or an unquoted ``[A-Za-z0-9._+-]+``;
* list ``[value, …]`` and typed arrays ``[B; …]``, ``[I; …]``, ``[L; …]`` (their numbers with or without a
  suffix);
* strings in ``"…"`` or ``'…'`` with the escapes ``\\\\ \\' \\" \\b \\s \\t \\n \\f \\r \\xHH \\uHHHH
  \\UHHHHHHHH \\N{name}``; an unquoted word is a string, except ``true``/``false`` (1 and 0, as bytes are);
* numbers: decimal integers with an optional ``b``/``s``/``l`` suffix (any case) and within that type's range
  (an int without one), decimals or exponents with an optional ``f``/``d`` suffix, and an integer with ``f``/``d``
  (``3f``); typed arrays hold integers of their element type only.

Not read as numbers: the 1.21.5 input-only forms vanilla never prints (``0x1F``, ``0b101``, ``1_000``, the
``u``/``s`` signedness prefixes of ``1ub``): they come back as unquoted-word strings.

Values come back as ``dict`` (compound), ``list`` (list or array), ``str``, ``int`` (byte, short, int, long) and
``float`` (float, double). Anything else (trailing text, an unterminated string, a bad escape, a number out of its
type's range, nesting deeper than Python's recursion allows: about 240 levels, where vanilla stops at 512) raises
``SnbtError`` and nothing else; the caller decides what an unreadable reply means.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeAlias, Union

__all__ = ["SnbtError", "SnbtValue", "parse", "snbt", "snbt_string"]


SnbtValue: TypeAlias = Union[str, bool, int, float, "Mapping[str, SnbtValue]", "Sequence[SnbtValue]"]
"""A value ``snbt`` can write: strings, booleans, ints, doubles, compounds (mappings) and lists."""

_LETTER_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r", "\b": "\\b", "\f": "\\f"}


def _escape_char(c: str) -> str:
    esc = _LETTER_ESCAPES.get(c)
    if esc is not None:
        return esc
    o = ord(c)
    if o < 0x20 or 0x7F <= o <= 0x9F or o == 0xA7 or 0xD800 <= o <= 0xDFFF:
        return f"\\u{o:04x}"
    return c


_SAFE_KEY_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NEEDS_ESCAPE_RE = re.compile('[\\\\"\x00-\x1f\x7f-\x9f\u00a7\ud800-\udfff]')


def snbt_string(s: str) -> str:
    """Quote a string as an SNBT string literal (always double quotes; the escapes are in the module docstring)."""
    if not _NEEDS_ESCAPE_RE.search(s):
        return '"' + s + '"'
    return '"' + "".join(_escape_char(c) for c in s) + '"'


def snbt(value: SnbtValue) -> str:
    """Serialize a value to SNBT: the one place that writes SNBT (strings via ``snbt_string``).

    A ``float`` is written as a double (``-0.3d``).

    Raises:
        TypeError: for a value of another type.
        ValueError: a float that is not finite (SNBT has no infinity or NaN).
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(int(value))
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"cannot write {value!r} as SNBT")
        return f"{value!r}d"
    if isinstance(value, str):
        return snbt_string(value)
    if isinstance(value, Mapping):
        entries = []
        for k, v in value.items():
            key = k if _SAFE_KEY_RE.fullmatch(k) else snbt_string(k)
            entries.append(f"{key}:{snbt(v)}")
        return "{" + ",".join(entries) + "}"
    if isinstance(value, Sequence):
        return "[" + ",".join(snbt(v) for v in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} as SNBT")


class SnbtError(ValueError):
    """The text is not SNBT; the message says what was expected and at which character (0-based)."""


_WS = re.compile(r"[ \t\r\n]*")
_WORD = re.compile(r"[A-Za-z0-9._+\-]+")
_INT = re.compile(r"[+-]?\d+[bBsSlL]?")
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)[bBsSlLfFdD]?")
_ARRAY = re.compile(r"\[([BIL]);")
_BITS = {"b": 8, "s": 16, "": 32, "l": 64, "B": 8, "I": 32, "L": 64}
"""Integer suffix (lower case; ``""``: an int) or typed array letter → the width of its signed integers."""
_BODY = {q: re.compile(rf"(?:[^{q}\\]++|\\.)*+", re.S) for q in "\"'"}
"""Quote → the body of a string quoted with it (possessive: linear in its length, with no backtracking)."""
_VALID_BODY = re.compile(
    r"(?:[^\\]++|\\(?:[\\'\"bstnfr]|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|N\{[^{}\\]*\}))*+", re.S
)
"""A string body in which every backslash starts one of SNBT's escapes."""


def parse(text: str) -> Any:
    """Parse one SNBT value that makes up the whole of ``text`` (surrounding whitespace allowed).

    Linear in the length of ``text``: a string's escapes are decoded by the codec machinery, not one by one, so an
    inventory reply of megabytes of escaped book text takes milliseconds per megabyte, not seconds.

    Args:
        text: e.g. ``'[{seq: 1, uuid: [I; 1, -2, 3, 4], input: "vote", value: 3}]'``.

    Returns:
        The value as plain Python (see the module docstring), e.g.
        ``[{"seq": 1, "uuid": [1, -2, 3, 4], "input": "vote", "value": 3}]``.

    Raises:
        SnbtError: ``text`` is not exactly one SNBT value (the only error raised, whatever ``text`` holds).
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
        return _sequence(text, m.end() if m else i + 1, bits=_BITS[m.group(1)] if m else None)
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
        SnbtError: an integer suffix on a decimal (``1.5b``), or an integer out of its type's range (``128b``,
            ``3000000000``).
    """
    if _INT.fullmatch(token):
        suffix = token[-1].lower() if token[-1] in "bBsSlL" else ""
        try:
            value = int(token[:-1] if suffix else token)
        except ValueError:  # more digits than int() takes (sys.get_int_max_str_digits)
            raise SnbtError(f"an integer too long at {at}") from None
        return _in_range(value, _BITS[suffix], at)
    if token[-1] in "bBsSlL":
        raise SnbtError(f"an integer suffix on a decimal at {at}")
    return float(token.rstrip("fFdD"))


def _in_range(value: int, bits: int, at: int) -> int:
    """``value`` when it fits a signed integer of ``bits`` bits.

    Raises:
        SnbtError: it does not.
    """
    if not -(1 << (bits - 1)) <= value < 1 << (bits - 1):
        raise SnbtError(f"{value} does not fit {bits} bits at {at}")
    return value


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


def _sequence(text: str, i: int, *, bits: int | None) -> tuple[list[Any], int]:
    """The elements of a list, or of a typed array of ``bits``-bit integers (``[B;`` 8, ``[I;`` 32, ``[L;`` 64),
    whose ``[`` (``[I;``) ends before ``i``, and the index after its ``]``."""
    out: list[Any] = []

    def element(i: int) -> int:
        value, j = _value(text, i)
        if bits is not None:
            if not isinstance(value, int):
                raise SnbtError(f"expected an integer in the array at {i}")
            _in_range(value, bits, i)
        out.append(value)
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
    body = _BODY[text[i]].match(text, i + 1)
    end = body.end()  # type: ignore[union-attr]  # the pattern matches the empty string
    if end >= len(text) or text[end] != text[i]:
        raise SnbtError(f"unterminated string starting at {i}")
    return _unescape(body.group(), i), end + 1  # type: ignore[union-attr]


def _unescape(body: str, at: int) -> str:
    """A string body with its escapes decoded (the string started at ``at``).

    Every escape is checked first (``_VALID_BODY``); SNBT's own ``\\s`` becomes a space; the rest are Python's
    escapes with the same meaning, decoded by the ``unicode_escape`` codec (characters outside Latin-1 pass
    through ``raw_unicode_escape`` as ``\\uXXXX`` and come back unchanged).

    Raises:
        SnbtError: an escape SNBT does not have, a bad ``\\x``/``\\u``/``\\U``/``\\N{…}`` value.
    """
    if "\\" not in body:
        return body
    if not _VALID_BODY.fullmatch(body):
        raise SnbtError(f"a bad escape in the string starting at {at}")
    if "\\s" in body:
        # Split at the escaped backslashes (read left to right, as the escapes are) so that "\\s" (a backslash,
        # then s) is not taken for "\s" (a space).
        body = "\\\\".join(part.replace("\\s", " ") for part in body.split("\\\\"))
    try:
        return body.encode("raw_unicode_escape").decode("unicode_escape")
    except UnicodeDecodeError:
        raise SnbtError(f"a bad escape in the string starting at {at}") from None
