"""Entry-point discovery without importlib.metadata must find what importlib.metadata finds."""

from __future__ import annotations

import sys
from importlib import metadata
from pathlib import Path

from hookweave.core.contract.entrypoints import entry_points


def _dist(site: Path, folder: str, name: str, version: str, entry_points_txt: str | None, kind: str = "dist-info") -> None:
    meta = site / f"{folder}.{kind}"
    meta.mkdir(parents=True)
    header = "METADATA" if kind == "dist-info" else "PKG-INFO"
    (meta / header).write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n\nName: not-a-header\n")
    if entry_points_txt is not None:
        (meta / "entry_points.txt").write_text(entry_points_txt)


def test_it_agrees_with_importlib_metadata_on_this_interpreter() -> None:
    for group in ("console_scripts", "pytest11", "hookweave"):
        ours = sorted((ep.name, ep.value) for ep in entry_points(group))
        theirs = sorted({(ep.name, ep.value) for ep in metadata.entry_points(group=group)})
        assert ours == theirs, group


def test_a_fake_site_folder(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    _dist(first, "hookweave_echo-0.1.0", "hookweave-echo", "0.1.0",
          "[console_scripts]\necho = x:y\n\n[hookweave]\n# a comment\necho = hookweave_echo\nother = pkg.mod:obj.attr\n")
    _dist(first, "unrelated-2.0", "unrelated", "2.0", "[console_scripts]\nhookweave = z\n")
    _dist(first, "no_entry_points-1.0", "no-entry-points", "1.0", None)
    _dist(second, "Hookweave.Echo-9.9", "Hookweave.Echo", "9.9", "[hookweave]\necho = shadowed\n")  # same name: first wins
    _dist(second, "legacy-1.0-py3.11", "legacy", "1.0", "[hookweave]\nlegacy = legacy_mod\n", kind="egg-info")
    (second / "not-a-folder.dist-info").write_text("")
    found = entry_points("hookweave", [str(first), str(second), str(tmp_path / "missing"), str(tmp_path / "x.zip")])
    assert [(e.name, e.value, e.dist, e.version) for e in found] == [
        ("echo", "hookweave_echo", "hookweave-echo", "0.1.0"),
        ("other", "pkg.mod:obj.attr", "hookweave-echo", "0.1.0"),
        ("legacy", "legacy_mod", "legacy", "1.0"),
    ]


def test_load_follows_module_and_attribute(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "epmod_for_test.py").write_text("class Outer:\n    class Inner:\n        pass\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    from hookweave.core.contract.entrypoints import EntryPoint

    assert EntryPoint("x", "epmod_for_test", "d", "1").load() is sys.modules["epmod_for_test"]
    assert EntryPoint("x", "epmod_for_test:Outer.Inner", "d", "1").load() is sys.modules["epmod_for_test"].Outer.Inner
