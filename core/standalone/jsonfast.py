"""JSON without ``import json``, which costs 7 ms through ``re`` (11 ms here with ``enum``): the C
parts ``json`` uses itself, for the programs install writes into the agent's path (the chain runner,
Cline's dispatcher), which run under ``python3 -S`` on every event. Standard library only, no
hookweave import: install puts this source first in those files, one namespace.
"""


class _Context:
    strict = True
    object_hook = object_pairs_hook = None
    parse_float, parse_int = float, int
    memo = {}

    @staticmethod
    def parse_constant(name):
        return {"NaN": float("nan"), "Infinity": float("inf"), "-Infinity": float("-inf")}[name]


def loads(text):
    """The JSON value of ``text``; ``ValueError`` when it is not exactly one JSON value."""
    try:
        import _json
    except ImportError:  # an interpreter without the accelerator
        import json

        return json.loads(text)
    scan = _json.make_scanner(_Context())
    start = len(text) - len(text.lstrip(" \t\n\r"))
    try:
        value, end = scan(text, start)
    except (StopIteration, SystemError, RecursionError):  # SystemError: the C scanner's error path needs
        raise ValueError("not JSON") from None  # json.decoder loaded; RecursionError: nested too deep
    finally:
        _Context.memo.clear()
    if text[end:].strip(" \t\n\r"):
        raise ValueError("extra data after the JSON value")
    return value


def dumps(value, ascii=False):
    """``json.dumps(value, ensure_ascii=ascii)``."""
    try:
        import _json
    except ImportError:
        import json

        return json.dumps(value, ensure_ascii=ascii)
    quote = _json.encode_basestring_ascii if ascii else _json.encode_basestring
    encode = _json.make_encoder(None, _unencodable, quote, None, ": ", ", ", False, False, True)
    return "".join(encode(value, 0))


def _unencodable(value):
    raise TypeError(f"{type(value).__name__} is not JSON")
