"""plurnk-parser for Python: parse a model turn into PLURNK statements, diagnostics and text.

Every function returns plain dicts and lists equal to the contract's JSON (the bytes
``plurnk-parser --jsonl`` writes, loaded with :func:`json.loads`). Parsing runs with the GIL
released, so threads parse in parallel. A panic inside the parser raises :class:`ParserPanic`
for that call only.
"""

from __future__ import annotations

import json

from . import _native
from ._native import ParserPanic

__all__ = [
    "parse",
    "parse_statements",
    "parse_client",
    "parse_reasoning",
    "operation_attempt",
    "parse_path",
    "call",
    "StreamParser",
    "ParserPanic",
]

_ENTRIES = {
    "parse": "parse",
    "parse_statements": "parseStatements",
    "parse_client": "parseClient",
    "parse_reasoning": "parseReasoning",
    "operation_attempt": "operationAttempt",
    "parse_path": "parsePath",
}


def _executors(executors):
    if executors is None:
        return None
    if isinstance(executors, str):
        raise TypeError("executors must be a list of strings, not a string")
    return [str(e) for e in executors]


def call(entry, text, executors=None, *, diagnostic_ids=False):
    """Calls the entry point named as the contract names it (``parse``, ``parseStatements``, …).

    Every entry takes ``diagnostic_ids``: when true, each diagnostic carries its stable ``id``
    (the rule file's key, e.g. ``"syntax.no-operation"``), which the contract's JSON otherwise
    leaves out; match on it rather than on the message text."""
    return json.loads(_native.call(entry, text, _executors(executors), bool(diagnostic_ids)))


def parse(text, executors=None, *, diagnostic_ids=False):
    """One model turn: ``{"items": [...], "unparsedTail"?: {...}}``."""
    return json.loads(_native.call("parse", text, _executors(executors), bool(diagnostic_ids)))


def parse_statements(text, executors=None, *, diagnostic_ids=False):
    """Protocol statements only."""
    return json.loads(_native.call("parseStatements", text, _executors(executors), bool(diagnostic_ids)))


def parse_client(text, executors=None, *, diagnostic_ids=False):
    """Executable blocks, LOOK included."""
    return json.loads(_native.call("parseClient", text, _executors(executors), bool(diagnostic_ids)))


def parse_reasoning(text, executors=None, *, diagnostic_ids=False):
    """The complete NOTE, FIND and READ statements of exposed reasoning."""
    return json.loads(_native.call("parseReasoning", text, _executors(executors), bool(diagnostic_ids)))


def operation_attempt(text, executors=None, *, diagnostic_ids=False):
    """For an emission with no operation: the attempt it makes, or ``None`` for prose."""
    return json.loads(_native.call("operationAttempt", text, _executors(executors), bool(diagnostic_ids)))


def parse_path(path):
    """One target decomposed; raises ``ValueError`` on a malformed path."""
    return json.loads(_native.call("parsePath", path, None, False))


class StreamParser:
    """Reads a turn as it arrives.

    ``provisional`` is for display only: a later chunk can drop or re-read any of those
    statements (a later fence can make a block a quoted example), so dispatch only the
    statements of :meth:`finish`, which equals :func:`parse` of the whole text.
    """

    __slots__ = ("_inner",)

    def __init__(self, executors=None, *, diagnostic_ids=False):
        self._inner = _native.StreamParser(_executors(executors), bool(diagnostic_ids))

    def feed(self, chunk):
        """Feeds a chunk: ``str``, or bytes (a character may be split across chunks)."""
        if isinstance(chunk, str):
            self._inner.feed_text(chunk)
        elif isinstance(chunk, (bytes, bytearray, memoryview)):
            self._inner.feed_bytes(bytes(chunk))
        else:
            raise TypeError("chunk must be str or bytes")
        return self

    @property
    def provisional(self):
        """The provisional statements so far: display them, never dispatch them."""
        return json.loads(self._inner.provisional_json())

    @property
    def committed(self):
        """The committed statements: no continuation of the turn changes them (``finish()`` begins
        with them). Only compact one-line headings with nothing opened before them commit."""
        return json.loads(self._inner.committed_json())

    @property
    def visible(self):
        """The response text visible so far: a prefix (white space aside) of ``finish()``'s
        response text, whatever follows, never showing markup; it stops at the first line that
        may open a block or begin native markup."""
        return self._inner.visible()

    def finish(self):
        """Ends the stream: exactly :func:`parse` of the whole text. Dispatch these statements."""
        return json.loads(self._inner.finish_json())
