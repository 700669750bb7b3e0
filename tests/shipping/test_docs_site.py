"""The built documentation site, as a newcomer meets it: built once per session with ``mkdocs build
--strict``, then read as the browser gets it. Search is asked through the site's own search worker
(Material's lunr, run by node: ``tests/sitesearch.js``); the page in a real browser, where Chromium
and playwright-core are installed, through ``scripts/site-browser-check.js``."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml

from tests.doctables import tables

REPO = Path(__file__).parent.parent.parent
NODE = shutil.which("node")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("site") / "site"
    built = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(folder)],
                           cwd=REPO, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"}, capture_output=True,
                           text=True, timeout=300)
    assert built.returncode == 0, built.stdout + built.stderr
    return folder


def _config() -> dict:
    class Loader(yaml.SafeLoader):  # mkdocs.yml may hold !!python tags; none are needed here
        pass
    Loader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)
    return yaml.load((REPO / "mkdocs.yml").read_text(encoding="utf-8"), Loader=Loader)


def _index(site: Path) -> list[dict]:
    return json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]


def _search(site: Path, *queries: str) -> dict[str, list[dict]]:
    if NODE is None:
        pytest.skip("node is not installed: the site's search worker cannot be run")
    done = subprocess.run([NODE, str(REPO / "tests" / "sitesearch.js"), str(site), *queries],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return {answer["query"]: answer["pages"] for answer in json.loads(done.stdout)}


def test_search_for_install_lists_getting_started_first(site: Path) -> None:
    pages = _search(site, "install", "Install")
    for query in ("install", "Install"):
        assert pages[query][0]["location"] == "getting-started/", pages[query][:3]
        assert pages[query][0]["title"] == "Getting started: install hookweave and your first hook"
    nav = _config()["nav"]
    guide = next(entry["Guide"] for entry in nav if "Guide" in entry)
    assert guide[0] == {"Getting started": "getting-started.md"}  # the first page of the guide too


def test_an_option_name_typed_with_its_dashes_is_found(site: Path) -> None:
    pages = _search(site, "--force", "force", "--by-marker", "-xyzzy")
    assert pages["--force"], "--force finds nothing"
    assert [p["location"] for p in pages["--force"]] == [p["location"] for p in pages["force"]]
    assert pages["--force"][0]["location"] == "cli/"
    assert pages["--by-marker"][0]["location"] == "cli/"
    assert pages["-xyzzy"], "a single dash still means 'without': every page is without xyzzy"
    sections = {doc["location"]: doc for doc in _index(site)}
    assert "--force" in sections["cli/#hooks-sync"]["text"] and "--force" in sections["cli/#hooks-install"]["text"]


def _commands() -> list[str]:
    """The commands ``hooks --help`` lists, from the real command."""
    shown = subprocess.run([str(Path(sys.executable).parent / "hooks"), "--help"], capture_output=True,
                           text=True, env={**os.environ, "COLUMNS": "100"}, timeout=60)
    assert shown.returncode == 0, shown.stderr
    listing = shown.stdout.split("Commands:", 1)[1]
    return re.findall(r"^  (\w+) ", listing, re.MULTILINE)


def test_the_commands_page_has_a_section_per_command(site: Path) -> None:
    commands = _commands()
    assert {"install", "uninstall", "verify", "sync", "check", "doctor", "help"} <= set(commands)
    sections = {doc["location"]: doc for doc in _index(site) if doc["location"].startswith("cli/")}
    for name in commands:
        section = sections.get(f"cli/#hooks-{name}")
        assert section is not None, f"the Commands page has no section for hooks {name}"
        assert section["title"] == f"<code>hooks {name}</code>"
    words = {location: len(re.sub(r"<[^>]+>", " ", doc["text"]).split()) for location, doc in sections.items()}
    assert max(words.values()) < 1200, words  # was 3,171 words under the one heading


def test_no_title_carries_an_issue_number(site: Path) -> None:
    titles = [doc["title"] for doc in _index(site)]
    assert len(titles) > 100
    numbered = [title for title in titles if re.search(r"\bissues? \d", title, re.IGNORECASE)]
    assert numbered == []
    for page in site.rglob("index.html"):
        head = page.read_text(encoding="utf-8").split("</head>", 1)[0]
        assert not re.search(r"<title>[^<]*\bissue \d", head), page


def test_the_site_loads_nothing_from_another_host(site: Path) -> None:
    assert _config()["theme"]["font"] is False
    pages = list(site.rglob("*.html"))
    assert len(pages) > 20
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert "fonts.googleapis" not in text and "fonts.gstatic" not in text, page
        loads = re.findall(r'<(?:link|script)[^>]+(?:href|src)="(https?://[^"]+)"', text)
        assert loads == [], (page, loads)


class _Tables(HTMLParser):
    """The number of columns of each table on a page."""

    def __init__(self) -> None:
        super().__init__()
        self.columns: list[int] = []
        self._row = 0

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag == "tr":
            self._row = 0
        elif tag in ("th", "td"):
            self._row += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "thead":
            self.columns.append(self._row)


def test_wide_tables_are_made_to_fit_their_column(site: Path) -> None:
    manifest = _Tables()
    manifest.feed((site / "manifest" / "index.html").read_text(encoding="utf-8"))
    per_agent = [n for n in manifest.columns if n > 3]  # the events and tools tables
    assert len(per_agent) >= 4 and max(per_agent) == tables.HOSTS_PER_TABLE + 1, manifest.columns
    css = (site / "assets" / "extra.css").read_text(encoding="utf-8")
    assert "overflow-wrap: anywhere" in css and "min-width: 0" in css  # what lets check's 11 columns fit
    for page in ("manifest", "check", "hosts"):
        assert 'href="../assets/extra.css"' in (site / page / "index.html").read_text(encoding="utf-8")


def _browser() -> tuple[str, str] | None:
    """Chromium and a node_modules that holds playwright-core, or None."""
    chromium = os.environ.get("CHROMIUM") or shutil.which("chromium")
    if NODE is None or chromium is None:
        return None
    modules = os.environ.get("NODE_PATH")
    return (chromium, modules) if modules and (Path(modules) / "playwright-core").is_dir() else None


def test_the_site_in_a_real_browser(site: Path) -> None:
    found = _browser()
    if found is None:
        pytest.skip("Chromium or playwright-core is missing (apt-get install chromium; npm i playwright-core "
                    "in a scratch folder, then NODE_PATH=that/node_modules)")
    chromium, modules = found
    done = subprocess.run([NODE, str(REPO / "scripts" / "site-browser-check.js"), str(site)], capture_output=True,
                          text=True, timeout=300, env={**os.environ, "NODE_PATH": modules, "CHROMIUM": chromium})
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    report = json.loads(done.stdout)
    assert report["search"]["install"]["pages"][0]["href"] == "/getting-started/"
    assert report["outside"] == []
    for page, measured in report["pages"].items():
        for table in measured["tables"]:
            assert max(table["width"], table["content"]) <= measured["column"], (page, table)
