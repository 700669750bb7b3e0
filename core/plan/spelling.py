"""The file's own spelling of env values hookweave replaces, so putting one back restores its bytes.

A value the operator wrote as ``"gr\u00fc\u00df"`` reads as ``"grüß"``; the record keeps the value
and, when the file spelled it otherwise than we write values, its text (``prior_text``). Every
plan that writes such a value back (uninstall, a dropped variable, a policy that now keeps the
operator's value) hands the editor that text with the operation.
"""

from __future__ import annotations

from typing import Any

from hookweave.core.contract.host import Host
from hookweave.core.formats import jsonlite
from hookweave.core.formats.patch import escape


def spelled_priors(env_record: dict, text: str | None, doc: Any, host: Host) -> dict:
    """The record's env entries with the file's own spelling of each value we replace, where it is
    not how we would write it (``"\u00e9"`` for ``é``): uninstall puts those bytes back."""
    env = doc.get(host.env_key) if isinstance(doc, dict) else None
    out = dict(env_record)
    for name, entry in env_record.items():
        if not entry.applied or entry.prior is None or entry.prior_text is not None or text is None:
            continue
        if not isinstance(env, dict) or env.get(name) != entry.prior:
            continue  # the prior is not this file's value now (a reinstall re-deciding an old one)
        from hookweave.core.formats import jsonspans  # only here: a no-op install never needs spans

        spelled = jsonspans.value_text(text, host.comments, [host.env_key, name])
        if spelled is not None and spelled != jsonlite.dumps(entry.prior, ensure_ascii=False):
            out[name] = entry._replace(prior_text=spelled)
    return out


def spellings(host: Host, prev: Any) -> dict[str, str]:
    """JSON Pointer to the recorded spelling of each prior value a plan may put back."""
    if not host.env_key or prev is None:
        return {}
    return {f"/{escape(host.env_key)}/{escape(name)}": e.prior_text for name, e in prev.env.items() if e.prior_text}


def spelled(ops: list[dict], spellings: dict[str, str]) -> list[dict]:
    """``ops`` for the editor: one that writes a prior value back carries the file's spelling of it
    (``"spelling"``, which the editor writes when it reads as the value). The plan's own ops stay
    plain RFC 6902."""
    if not spellings:
        return ops
    return [{**op, "spelling": spellings[op["path"]]}
            if op["op"] in ("add", "replace") and op["path"] in spellings and jsonlite.loads(spellings[op["path"]]) == op.get("value")
            else op for op in ops]
