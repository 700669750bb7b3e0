"""Entry-point discovery without importlib.metadata must find what importlib.metadata finds."""

from __future__ import annotations

import sys
import time
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


def test_a_file_that_is_not_utf8_or_not_readable(tmp_path: Path) -> None:
    """Read as bytes and decoded only when our group is in them: a stray byte is replaced, as the text
    read did, and a folder named entry_points.txt or a folder name that is a file reads as none."""
    site = tmp_path / "site"
    _dist(site, "latin-1.0", "latin", "1.0", None)
    (site / "latin-1.0.dist-info" / "entry_points.txt").write_bytes(b"# caf\xe9\n[hookweave]\nlatin = latin_mod\n")
    _dist(site, "odd-1.0", "odd", "1.0", None)
    (site / "odd-1.0.dist-info" / "entry_points.txt").mkdir()
    (site / "flat-1.0.dist-info").write_text("[hookweave]\nflat = nothing\n")
    found = entry_points("hookweave", [str(site)])
    assert [(e.name, e.value, e.dist) for e in found] == [("latin", "latin_mod", "latin")]


def test_load_follows_module_and_attribute(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "epmod_for_test.py").write_text("class Outer:\n    class Inner:\n        pass\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    from hookweave.core.contract.entrypoints import EntryPoint

    assert EntryPoint("x", "epmod_for_test", "d", "1").load() is sys.modules["epmod_for_test"]
    assert EntryPoint("x", "epmod_for_test:Outer.Inner", "d", "1").load() is sys.modules["epmod_for_test"].Outer.Inner


def test_a_settled_folder_is_read_once_and_a_distribution_added_is_seen_at_once(tmp_path: Path) -> None:
    """A long-lived process (the suite, an API user) read every entry_points.txt on sys.path at every
    command. A folder's distributions are now kept while its mtime stays: a text edited in place is
    not read again, but a distribution installed or removed (a folder in it added or gone) is seen."""
    import os

    site = tmp_path / "site"
    _dist(site, "kept-1.0", "kept", "1.0", "[hookweave]\nkept = kept_mod\n")
    settled = time.time_ns() - 10 * 10**9  # the folder last changed ten seconds ago
    os.utime(site, ns=(settled, settled))
    assert [e.name for e in entry_points("hookweave", [str(site)])] == ["kept"]
    (site / "kept-1.0.dist-info" / "entry_points.txt").write_text("[hookweave]\nedited = edited_mod\n")
    assert os.stat(site).st_mtime_ns == settled
    assert [e.name for e in entry_points("hookweave", [str(site)])] == ["kept"]  # the kept listing, not read again
    _dist(site, "added-2.0", "added", "2.0", "[hookweave]\nadded = added_mod\n")
    assert sorted(e.name for e in entry_points("hookweave", [str(site)])) == ["added", "edited"]


def test_a_folder_changed_a_moment_ago_is_read_again(tmp_path: Path) -> None:
    """Two changes within one tick of the file system's clock leave one mtime: a folder that changed
    less than two seconds ago is never kept, so an edit made right after is read."""
    site = tmp_path / "young"
    _dist(site, "young-1.0", "young", "1.0", "[hookweave]\nfirst = first_mod\n")
    assert [e.name for e in entry_points("hookweave", [str(site)])] == ["first"]
    (site / "young-1.0.dist-info" / "entry_points.txt").write_text("[hookweave]\nsecond = second_mod\n")
    assert [e.name for e in entry_points("hookweave", [str(site)])] == ["second"]


def test_only_names_ending_in_a_metadata_suffix_are_distributions(tmp_path: Path) -> None:
    """A folder is asked once whether any name ends in .dist-info or .egg-info (the standard
    library's hold none), then each name: the same answer as importlib.metadata's."""
    site = tmp_path / "site"
    _dist(site, "real-1.0", "real", "1.0", "[hookweave]\nreal = real_mod\n")
    for odd in ("dist-info", "x.dist-infox", "y.dist-info.bak", "z.egg-infos", "w-dist-info", ".dist-info"):
        (site / odd).mkdir()
        (site / odd / "entry_points.txt").write_text(f"[hookweave]\n{odd.strip('.')} = odd\n")
    plain = tmp_path / "plain"
    for name in ("os.py", "json", "dist_info.py", "egg-info"):
        (plain / name).parent.mkdir(parents=True, exist_ok=True)
        (plain / name).write_text("")
    found = entry_points("hookweave", [str(plain), str(site)])
    distributions = metadata.distributions(path=[str(plain), str(site)])
    expected = sorted({(ep.name, ep.value) for d in distributions for ep in d.entry_points if ep.group == "hookweave"})
    assert sorted((e.name, e.value) for e in found) == expected
    assert ("real", "real_mod") in expected
