# Type stubs of plurnk_parser: the result shapes of schema/ParseResult.json as TypedDicts.
from typing import Any, Iterable, Literal, TypedDict, Union

from typing_extensions import NotRequired

class Position(TypedDict):
    line: int
    column: int

# §unparsed-tail-boundary: where trust ends and which header slot remains open (`from` is a
# keyword, hence the functional form).
UnparsedTail = TypedDict("UnparsedTail", {"from": Position, "reason": str})

class Diagnostic(TypedDict):
    """§parse-diagnostics: `recovery` only on hard errors; `operationOmitted` only when true;
    `attempt` (the refused statement as written, §parse-attempt) only on a refusal; `id` only
    when the call passed `diagnostic_ids=True`."""

    line: int
    column: int
    source: Literal["lexer", "parser", "visitor"]
    severity: Literal["error", "warning"]
    message: str
    recovery: NotRequired[str]
    operationOmitted: NotRequired[Literal[True]]
    attempt: NotRequired[str]
    id: NotRequired[str]

class LocalTarget(TypedDict):
    kind: Literal["local"]
    raw: str
    fragment: NotRequired[str]

class UrlTarget(TypedDict):
    kind: Literal["url"]
    raw: str
    scheme: str
    username: str | None
    password: str | None
    hostname: str | None
    port: int | None
    pathname: str
    query: str | None
    fragment: str | None

Target = Union[LocalTarget, UrlTarget, None]

class LineMarker(TypedDict):
    marks: list[int | float | str]

class Statement(TypedDict, total=False):
    """One statement: `op` (or `runtime` for an executor), its slots, body and position."""

    op: str
    runtime: str
    aside: str | None
    target: Target
    metadata: list[str] | None
    lineMarker: LineMarker | None
    matcher: dict[str, Any] | None
    source: dict[str, Any]
    destination: dict[str, Any]
    body: Any
    seconds: float
    position: Position

class StatementItem(TypedDict):
    kind: Literal["statement"]
    statement: Statement

class ErrorItem(TypedDict):
    kind: Literal["error"]
    error: Diagnostic

class TextItem(TypedDict):
    kind: Literal["text"]
    content: str
    position: Position

Item = Union[StatementItem, ErrorItem, TextItem]

class ParseResult(TypedDict):
    items: list[Item]
    unparsedTail: NotRequired[UnparsedTail]

class Attempt(TypedDict):
    kind: Literal["fence", "heading", "native", "echo"]
    name: str | None
    line: int
    column: int
    text: str

class ParserPanic(RuntimeError): ...

Executors = Iterable[str] | None

def call(entry: str, text: str, executors: Executors = None, *, diagnostic_ids: bool = False) -> Any: ...
def parse(text: str, executors: Executors = None, *, diagnostic_ids: bool = False) -> ParseResult: ...
def parse_statements(text: str, executors: Executors = None, *, diagnostic_ids: bool = False) -> ParseResult: ...
def parse_client(text: str, executors: Executors = None, *, diagnostic_ids: bool = False) -> ParseResult: ...
def parse_reasoning(text: str, executors: Executors = None, *, diagnostic_ids: bool = False) -> ParseResult: ...
def operation_attempt(text: str, executors: Executors = None, *, diagnostic_ids: bool = False) -> Attempt | None: ...
def parse_path(path: str) -> Target: ...

class StreamParser:
    """`provisional` is for display only; `committed` and `visible` no later chunk changes.
    Dispatch the statements of `finish()` (or `committed`)."""

    def __init__(self, executors: Executors = None, *, diagnostic_ids: bool = False) -> None: ...
    def feed(self, chunk: str | bytes | bytearray | memoryview) -> StreamParser: ...
    @property
    def provisional(self) -> list[Statement]: ...
    @property
    def committed(self) -> list[Statement]: ...
    @property
    def visible(self) -> str: ...
    def finish(self) -> ParseResult: ...
