"""``hooks status`` and ``hooks hosts``: what is installed where, and which agents hookweave knows."""

from typing import Optional

from hookweave.core.cli import console
from hookweave.core.cli.app import HostOpt, JsonOpt, ProjectOpt, app
from hookweave.core.cli.common import handled, registry
from hookweave.core.reading import projects


@app.command()
@handled
def status(*, host: Optional[list[str]] = HostOpt, project: Optional[str] = ProjectOpt, as_json: bool = JsonOpt) -> None:
    """List the bundles installed per host and scope, from the records."""
    from hookweave.core.reading import scopes, standins

    known = registry()
    where = projects.folder(project) if _every_built_in(known, host) else None
    if where is not None and projects.notes_need_no_host(where, bool(project)):
        # Only the hosts with a record, or reading a file of one that has (no other has a row):
        # importing and making all sixteen, and looking at their files, was most of a status.
        from hookweave.core.verify.builtin_records import holding

        chosen = [known.get(name) for name in holding(known.names(), where)]
    else:
        from hookweave.core.usecases import selection

        chosen = selection.resolve(known, host or ["all"], project)
    folder = dict.fromkeys([h.name for h in chosen], where) if where is not None else projects.folders(chosen, project)
    rows = []
    for h in chosen:
        for scope, shown, rec in scopes.installed(h, folder[h.name]):
            for name, b in sorted(rec.bundles.items()):
                rows.append({"host": h.name, "scope": scope, "path": shown, "bundle": name,
                             "version": b.version, "hooks": sum(len(x.members) or 1 for x in b.hooks),
                             "env": len(b.env)})
        for b in standins.borrowed(h, folder[h.name]):  # run from another host's file, as installed for it
            rows.append({"host": h.name, "scope": b.scope, "path": b.shown, "bundle": b.bundle, "version": b.version,
                         "hooks": len(b.ids), "env": 0, "runs_from": b.source.name})
    where = projects.location_note(chosen, folder, bool(project))
    if as_json:
        console.json_out({"installed": rows, "findings": [where.as_json()] if where else []})
        return
    if where is not None:
        console.err(f"note: {where.message}")
    table = []
    for r in rows:
        hooks = f"{r['hooks']} hook{'' if r['hooks'] == 1 else 's'}"
        what = f"({hooks}, run from {r['runs_from']}'s file)" if "runs_from" in r else f"({hooks}, {r['env']} env)"
        table.append((r["host"], r["scope"], f"{r['bundle']} {r['version']}", what, r["path"]))
    for line in console.columns(table):
        console.out(line)
    if not rows:
        hint = projects.root_hint(chosen, folder, bool(project), None, "status")
        console.out("nothing installed" + (f" here{hint}" if hint else ""))


def _every_built_in(known, host: list[str] | None) -> bool:
    """Every host asked for (``--host all``, the default) and every host built in (no plugin installed)."""
    from hookweave.core.usecases.selection import wants_all

    return known.built_in_only and wants_all(host or ["all"])


@app.command()
@handled
def hosts(*, as_json: bool = JsonOpt, project: Optional[str] = ProjectOpt) -> None:
    """List registered hosts and where each came from (built-in or a plugin package)."""
    from hookweave.core.reading.detection import detected

    known = registry()
    chosen = known.resolve(["all"])
    folder = projects.folders(chosen, project)
    rows = []
    for h in chosen:
        info = known.info(h.name)
        rows.append({"name": h.name, "title": info.cls.title, "origin": info.origin,
                     "scopes": list(info.cls.scopes), "detected": detected(h, folder[h.name])})
    if as_json:
        console.json_out({"hosts": rows})
        return
    table = [(r["name"], r["title"], r["origin"], f"scopes: {', '.join(r['scopes'])}",
              f"({'detected' if r['detected'] else 'not detected'})") for r in rows]
    for line in console.columns(table):
        console.out(line)

