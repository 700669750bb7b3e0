"""How ``hooks sync`` (and ``add``, ``remove``, ``autoupdate``) says what it did, would do, or
(``--check``) what differs: one line per file changed, the vendored copies, then one last line."""

from __future__ import annotations

from hookweave.core.cli import console
from hookweave.core.files import paths


def render(done, *, as_json: bool, dry_run: bool, check: bool = False, footer: bool = True) -> None:
    changed = [p for p in done.plans if p.changed]
    if as_json:
        from hookweave.core.cli.report import plans_json

        doc = plans_json("sync", changed, dry_run=dry_run)
        doc.update({"root": str(done.root), "changed": done.changed, "vendored": [f"{n}: {what}" for n, what in done.vendored],
                    "files_written": [paths.display(p) for p, old, new in done.texts if old != new],
                    "notes": done.notes})
        if check:
            doc["in_sync"] = not done.problems
            doc["differences"] = done.problems
        console.json_out(doc)
        return
    for line in done.notes:
        console.err(f"note: {line}")
    if check:
        for problem in done.problems:
            first, _, rest = problem.partition("\n")
            console.out(first, "problem")
            from hookweave.core.cli.report import _diff_style

            for line in rest.splitlines():
                console.out(line, _diff_style(line))
        if done.problems:
            console.out(f"sync --check: {len(done.problems)} difference{'s' if len(done.problems) != 1 else ''}; "
                        "run hooks sync and commit what it writes", "problem")
        else:
            console.out(f"sync --check: {paths.display(done.root)} is in sync with .hookweave.toml")
        return
    would = "would be " if dry_run else ""
    for name, what in done.vendored:
        console.out(f"{name}: {what if not dry_run else 'would be ' + what}")
    for path, old, new in done.texts:
        if old != new:
            verb = "created" if old is None else "removed" if new is None else "updated"
            console.out(f"{paths.display(path)}: {would}{verb}")
            if dry_run:
                import difflib

                for line in difflib.unified_diff((old or "").splitlines(keepends=True),
                                                 (new or "").splitlines(keepends=True), paths.display(path),
                                                 paths.display(path)):
                    console.out(line.rstrip("\n"))
    if changed:
        from hookweave.core.cli import report

        report.print_plans(changed, dry_run=dry_run, footer=footer)
    elif footer and not done.changed:
        console.out("in sync: nothing to write")
    elif footer and dry_run:
        console.out("dry run: nothing written")
