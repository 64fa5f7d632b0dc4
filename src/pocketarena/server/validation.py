"""What the API says of a request its schemas refuse (a 422), in the reader's language.

pydantic words each problem in English ("Input should be less than or equal to 1"); the answer
keeps its shape (``detail``: a list of ``{loc, msg, type}``), with ``msg`` worded here from the
problem's ``type`` and its ``ctx`` (the bound, the choices), and adds ``message``: one line
that names each field ("seat: must be at most 1"). A problem of a kind not listed here says
that the value is not valid, in the reader's language too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from pocketarena.i18n import N_, gettext

# pydantic's error types (https://docs.pydantic.dev/latest/errors/validation_errors/) by what
# they mean to a person; the ones with a bound or choices name it.
WORDS: dict[str, str] = {
    "missing": N_("is required"),
    "extra_forbidden": N_("is not a field of this request"),
    "string_type": N_("must be text"),
    "string_too_short": N_("must be at least %(min_length)s characters long"),
    "string_too_long": N_("must be at most %(max_length)s characters long"),
    "string_pattern_mismatch": N_("is not written as expected"),
    "int_type": N_("must be a whole number"),
    "int_parsing": N_("must be a whole number"),
    "int_from_float": N_("must be a whole number"),
    "float_type": N_("must be a number"),
    "float_parsing": N_("must be a number"),
    "bool_type": N_("must be true or false"),
    "bool_parsing": N_("must be true or false"),
    "list_type": N_("must be a list"),
    "dict_type": N_("must be an object"),
    "model_type": N_("must be an object"),
    "model_attributes_type": N_("must be an object"),
    "too_short": N_("must hold at least %(min_length)s items"),
    "too_long": N_("must hold at most %(max_length)s items"),
    "greater_than": N_("must be more than %(gt)s"),
    "greater_than_equal": N_("must be at least %(ge)s"),
    "less_than": N_("must be less than %(lt)s"),
    "less_than_equal": N_("must be at most %(le)s"),
    "literal_error": N_("must be one of: %(expected)s"),
    "enum": N_("must be one of: %(expected)s"),
    "json_invalid": N_("is not valid JSON"),
    "json_type": N_("must be JSON"),
    "uuid_parsing": N_("is not a valid id"),
    "url_parsing": N_("is not a valid address"),
}
INVALID = N_("is not valid")
BODY = N_("the request body")


def field_name(loc: Iterable[Any]) -> str:
    """Where the problem is, as a client names it: ``seat``, ``clock.initial_s``,
    ``moves.3`` (the body, query or path it came in left out)."""
    parts = [str(p) for p in loc]
    if parts and parts[0] in ("body", "query", "path", "header", "cookie"):
        parts = parts[1:]
    return ".".join(parts)


def worded(error: Mapping[str, Any]) -> str:
    """One problem's reason in the reader's language, its bounds or choices filled in."""
    kind = str(error.get("type", ""))
    text = WORDS.get(kind)
    if text is None:
        return gettext(INVALID)
    ctx = {str(k): str(v) for k, v in (error.get("ctx") or {}).items()}
    if "expected" in ctx:  # pydantic lists the choices "'a', 'b' or 'c'": no English "or"
        ctx["expected"] = ctx["expected"].replace(" or ", ", ")
    if not set(re.findall(r"%\((\w+)\)s", text)) <= set(ctx):
        return gettext(INVALID)  # a bound pydantic did not give: say it plainly
    return gettext(text, **ctx)


def message(errors: Iterable[Mapping[str, Any]]) -> str:
    """Every problem on one line, each naming its field: "seat: must be at most 1"."""
    said = []
    for error in errors:
        field = field_name(error.get("loc", ()))
        said.append(
            gettext("%(field)s: %(problem)s", field=field or gettext(BODY), problem=worded(error))
        )
    return "; ".join(said)
