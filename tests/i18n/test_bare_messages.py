"""No refusal is written as a bare English literal: the message argument of every call that
shows a person an error (the terminal's ``fail``, ``error_line`` and ``interrupted``, the
server's ``GameError``, ``HTTPException``, ``StoreError`` and ``BadParameter``, a
``RecordError``, the solvers' ``ExplorerError`` and ``PuzzleError``, the live socket's
``_error`` and ``ErrorMessageOut``, the middleware's ``_plain``, the ``detail`` and ``message``
of a JSON answer built by hand) goes through a catalog, as ``_("…", name=value)``, a name
marked with ``N_``, or text a catalog already worded. Found by reading the source (an AST
walk), so a refusal nobody triggers in a test is caught too."""

from __future__ import annotations

import ast
import re
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[2] / "src" / "pocketarena"

# The callables that show their message to a person: which positional argument is the
# message, and by which keyword it may be given.
SHOWN = {
    "fail": (0, "message"),
    "error_line": (0, "message"),
    "interrupted": (0, "kept"),
    "BadParameter": (0, "message"),
    "GameError": (1, "message"),
    "RecordError": (0, "reason"),
    "StoreError": (0, "message"),
    "ConflictError": (0, "message"),
    "HTTPException": (1, "detail"),
    "StarletteHTTPException": (1, "detail"),
    "ExplorerError": (0, "said"),
    "PuzzleError": (0, "said"),
    "_error": (1, "message"),  # the live socket's error message (api/routes/ws.py)
    "ErrorMessageOut": (1, "message"),
    "_plain": (2, "detail"),  # an answer the middleware makes itself
}
# Answers built as JSON by hand: the person reads these keys of the body (argument 0).
JSON_ANSWERS = {"JSONResponse", "SafeJSONResponse"}
READ_KEYS = {"detail", "message"}


def _name(call: ast.Call) -> str | None:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


MESSAGE_ID = re.compile(r"[a-z0-9_-]+(\.[a-z0-9_-]+)+")  # "record.empty": worded where shown


def _bare(node: ast.expr) -> bool:
    """A literal with words in it: ``"no such game"``, ``f"--games must be {n}"``; not a
    message id (``"record.empty"``)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return any(c.isalpha() for c in node.value) and not MESSAGE_ID.fullmatch(node.value)
    if isinstance(node, ast.Constant) and isinstance(node.value, bytes):  # a body made by hand
        return any(chr(c).isalpha() for c in node.value)
    if isinstance(node, ast.JoinedStr):
        return any(_bare(part) for part in node.values if isinstance(part, ast.Constant))
    if isinstance(node, ast.BinOp):  # "…" + x, "…" % x
        return _bare(node.left) or _bare(node.right)
    return False


def bare_messages(root: Path = SOURCE) -> list[str]:
    found = []
    for path in sorted(root.rglob("*.py")):
        for call in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(call, ast.Call):
                continue
            name = _name(call) or ""
            if name in SHOWN:
                index, keyword = SHOWN[name]
                shown = call.args[index : index + 1]
                shown += [k.value for k in call.keywords if k.arg == keyword]
            elif name in JSON_ANSWERS and call.args and isinstance(call.args[0], ast.Dict):
                body = call.args[0]
                shown = [
                    value
                    for key, value in zip(body.keys, body.values, strict=True)
                    if isinstance(key, ast.Constant) and key.value in READ_KEYS
                ]
            else:
                continue
            for node in shown:
                if _bare(node):
                    where = path.relative_to(root.parent)
                    found.append(f"{where}:{call.lineno}: {ast.unparse(node)[:80]}")
    return found


def test_the_walk_finds_a_bare_literal(tmp_path: Path) -> None:
    """The walk itself: each kind of bare message is found, a worded one is not."""
    (tmp_path / "cli.py").write_text(
        "fail('no such file')\n"
        "fail(f'--games must be at least 1, got {games}')\n"
        "raise GameError('bad_request', 'a bad request')\n"
        "raise HTTPException(status_code=404, detail='gone')\n"
        "interrupted('nothing ' + kept)\n"
        "fail(_('no such file'))\n"
        "fail(str(e))\n"
        "raise GameError('bad_request', _('a bad request'))\n"
        "fail(NOTHING_KEPT)\n"
        "fail(f'{path}: {e}')\n"
        "raise RecordError('record.empty')\n"
        "raise RecordError('the record is empty')\n"
        "conn.push(_error('bad_json', f'messages are limited to {limit} bytes'))\n"
        "conn.push(_error('bad_json', _('messages must be UTF-8 JSON text'), ref))\n"
        "return SafeJSONResponse({'detail': 'internal error', 'code': 'error'})\n"
        "return SafeJSONResponse({'detail': _('internal error'), 'code': 'error'})\n"
        "raise ExplorerError('this round is beyond reach')\n"
        "raise PuzzleError(message('study.type-a-move'))\n"
        "await _plain(send, 403, 'cross-site request refused', 'forbidden')\n"
        'await _plain(send, 503, b\'{"detail":"the database is unavailable"}\')\n',
        encoding="utf-8",
    )
    found = bare_messages(tmp_path)
    lines = sorted(int(line.split(":")[1]) for line in found)  # the walk goes breadth first
    assert lines == [1, 2, 3, 4, 5, 12, 13, 15, 17, 19, 20], found


def test_every_refusal_goes_through_a_catalog() -> None:
    found = bare_messages()
    assert not found, f"{len(found)} bare messages:\n" + "\n".join(found)
