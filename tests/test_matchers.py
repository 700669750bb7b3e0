"""Issue 21, item 6: a tool the host lacks never widens a hook.

Codex has no ``read`` tool. A hook with ``matcher = ["read"]`` was written there with no matcher,
so it ran on every tool. Now: a hook none of whose tools the host has is skipped there with a
warning; one with some of them runs on those only, with a warning; and when the bundle names the
host for that hook (``hosts``, or the matcher in ``[hooks.host.<host>]``) the install is refused,
nothing written. Install, ``--dry-run``, verify and check say the same.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hookweave.core.contract import registry as plugins
from hookweave.core.contract.hookspecs import hookimpl
from hookweave.core.contract.shapes import FlatHost
from hookweave.core.files import paths
from hookweave.core.plan import chain

HEAD = '[bundle]\nname = "rd"\nversion = "1.0.0"\n'
SKIP = ("skipped: Codex has no read tool, and a hook without one would run on every tool ({place} in {manifest}); "
        "to run it on Codex, set [hooks.host.codex] matcher to tools it has (shell, write, edit) or a native "
        "matcher string, or leave codex out with hosts = [...]")
NARROW = ("Codex has no read tool: the hook runs on shell only there ({place} in {manifest}); to accept that and "
          'silence this, set [hooks.host.codex] matcher = ["shell"], or leave codex out with hosts = [...]')


def hook(hook_id: str, event: str, matcher: str | None = None, extra: str = "") -> str:
    line = f"matcher = {matcher}\n" if matcher else ""
    return f'[[hooks]]\nid = "{hook_id}"\nevent = "{event}"\n{line}command = "run-{hook_id}"\n{extra}'


def group(hook_id: str, matcher: str | None = None) -> dict:
    handler = {"type": "command", "command": f"run-{hook_id} # hookweave:rd/{hook_id}"}
    return {"matcher": matcher, "hooks": [handler]} if matcher else {"hooks": [handler]}


def files(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*")) if root.exists() else []


def test_codex_skips_a_read_hook_and_narrows_a_shell_and_read_one(run, write_bundle, codex_home) -> None:
    bundle = write_bundle(HEAD + hook("reads", "pre_tool_use", '["read"]') + hook("mixed", "post_tool_use", '["shell", "read"]')
                          + hook("done", "stop"))
    manifest = bundle / "hookweave.toml"
    result = run("install", str(bundle), "--host", "codex", "--scope", "user", "--trust")
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == (
        f"codex user {codex_home}/hooks.json: installed rd 1.0.0 (2 hooks)\n"
        f"  warning: rd/reads: {SKIP.format(place='hooks (reads).matcher', manifest=manifest)}\n"
        f"  warning: rd/mixed: {NARROW.format(place='hooks (mixed).matcher', manifest=manifest)}\n"
        f"codex user {codex_home}/config.toml: hook trust state\n"
        "Restart running sessions of Codex: hooks load at session start.\n"
    )
    assert json.loads((codex_home / "hooks.json").read_text()) == {"hooks": {
        "PostToolUse": [group("mixed", "^Bash$")], "Stop": [group("done")]}}
    record = json.loads((codex_home / "hooks.hookweave.json").read_text())
    assert [h["id"] for h in record["bundles"]["rd"]["hooks"]] == ["mixed", "done"]
    verify = run("verify", "--host", "codex", "--scope", "user")
    assert verify.exit_code == 0  # the skipped hook is not missing: it was never installed
    assert verify.stdout == (
        "codex (Codex)\n"
        "  note: Codex starts all of an event's matching hooks at once and runs every copy it finds (no "
        f"de-duplication); it only re-sorts their results into file order\ncodex  user  rd 1.0.0  2 hooks ok  {codex_home}/hooks.json\n"
        "verify: ok (1 note)\n"
    )


def test_a_hook_that_was_on_every_tool_and_now_asks_for_read_goes_from_codex(run, write_bundle, codex_home) -> None:
    """What an older hookweave wrote (no matcher) is taken out by the next install, and verify agrees."""
    run("install", str(write_bundle(HEAD + hook("reads", "pre_tool_use"))), "--host", "codex", "--scope", "user")
    assert json.loads((codex_home / "hooks.json").read_text()) == {"hooks": {"PreToolUse": [group("reads")]}}
    v2 = write_bundle(HEAD.replace("1.0.0", "1.1.0") + hook("reads", "pre_tool_use", '["read"]') + hook("done", "stop"))
    result = run("install", str(v2), "--host", "codex", "--scope", "user")
    assert result.exit_code == 0 and "  warning: rd/reads: skipped: Codex has no read tool" in result.stdout
    assert json.loads((codex_home / "hooks.json").read_text()) == {"hooks": {"Stop": [group("done")]}}
    verify = run("verify", "--host", "codex", "--scope", "user")
    assert "reads" not in verify.stdout and "      not trusted  done   Stop" not in verify.stdout


@pytest.mark.parametrize(("matcher", "why"), [
    ('["read"]', "so the hook cannot run there as asked; drop codex from hosts, or set [hooks.host.codex] matcher to "
                 "tools it has (shell, write, edit) or a native matcher string"),
    ('["shell", "read"]', 'so the hook would cover only shell there; set [hooks.host.codex] matcher = ["shell"] to '
                          "install it for those, or drop codex from hosts"),
])
def test_a_hook_whose_hosts_name_codex_is_refused_and_nothing_written(run, write_bundle, project, home,
                                                                      matcher, why) -> None:
    bundle = write_bundle(HEAD + hook("ok", "stop") + hook("reads", "pre_tool_use", matcher, 'hosts = ["claude", "codex"]\n'))
    for hosts in (["codex"], ["claude", "codex"]):
        result = run("install", str(bundle), *[w for h in hosts for w in ("--host", h)])
        assert (result.exit_code, result.stdout) == (2, "")
        assert result.stderr == (f"hooks: {bundle / 'hookweave.toml'}: hooks (reads).matcher: hosts names codex, but "
                                 f"Codex has no read tool, {why}\n")
        assert files(project) == [] and files(home) == []  # not even claude's file, which had nothing wrong
        dry = run("install", str(bundle), "--host", "codex", "--dry-run")
        assert (dry.exit_code, dry.stderr) == (2, result.stderr)


def test_the_fix_the_refusal_names_installs_exactly_that(run, write_bundle, project) -> None:
    extra = 'hosts = ["claude", "codex"]\n[hooks.host.codex]\nmatcher = ["shell"]\n'
    result = run("install", str(write_bundle(HEAD + hook("mixed", "pre_tool_use", '["shell", "read"]', extra))),
                 "--host", "claude", "--host", "codex")
    assert result.exit_code == 0 and "warning" not in result.stdout
    assert json.loads((project / ".codex" / "hooks.json").read_text()) == {"hooks": {"PreToolUse": [group("mixed", "^Bash$")]}}
    assert json.loads((project / ".claude" / "settings.json").read_text()) == {
        "hooks": {"PreToolUse": [group("mixed", "Bash|Read")]}}


def test_a_codex_table_naming_a_tool_codex_lacks_is_refused(run, write_bundle, project) -> None:
    bundle = write_bundle(HEAD + hook("t", "pre_tool_use", '["shell"]', '[hooks.host.codex]\nmatcher = ["read", "edit"]\n'))
    result = run("install", str(bundle), "--host", "codex")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (f"hooks: {bundle / 'hookweave.toml'}: hooks (t).host.codex.matcher: Codex has no read tool; "
                             "name only tools Codex has (shell, write, edit), or write a native matcher string\n")
    assert files(project) == []


def test_a_native_matcher_string_stays_as_written(run, write_bundle, project) -> None:
    bundle = write_bundle(HEAD + hook("reads", "pre_tool_use", '["read"]', 'hosts = ["codex"]\n[hooks.host.codex]\n'
                                      'matcher = "^(Read|view)$"\n'))
    result = run("install", str(bundle), "--host", "codex")
    assert result.exit_code == 0 and "warning" not in result.stdout
    assert json.loads((project / ".codex" / "hooks.json").read_text()) == {
        "hooks": {"PreToolUse": [group("reads", "^(Read|view)$")]}}


def test_a_chain_keeps_each_members_matcher_and_leaves_out_a_read_member(run, write_bundle, codex_home) -> None:
    bundle = write_bundle(HEAD + 'order = "chain"\n' + hook("reads", "pre_tool_use", '["read"]')
                          + hook("sh", "pre_tool_use", '["shell"]') + hook("both", "pre_tool_use", '["write", "read"]'))
    result = run("install", str(bundle), "--host", "codex", "--scope", "user")
    assert result.exit_code == 0
    assert "  warning: rd/reads: skipped: Codex has no read tool" in result.stdout
    assert "  warning: rd/both: Codex has no read tool: the hook runs on write only there" in result.stdout
    (entry,) = json.loads((codex_home / "hooks.json").read_text())["hooks"]["PreToolUse"]
    assert entry["matcher"] == "(?:^Bash$)|(?:^apply_patch$)"
    _, _, members = chain.members_of(entry["hooks"][0]["command"])
    assert [(m.id, m.matcher) for m in members] == [("sh", "^Bash$"), ("both", "^apply_patch$")]


def test_check_says_which_hook_it_skips_and_runs_none_for_a_tool_codex_lacks(run, write_bundle) -> None:
    bundle = write_bundle(HEAD + hook("reads", "pre_tool_use", '["read"]'))
    result = run("check", str(bundle), "--host", "codex")
    assert result.exit_code == 0
    place = SKIP.format(place="hooks (reads).matcher", manifest=bundle / "hookweave.toml")
    assert result.stdout == f"skipped: codex: rd/reads: {place.removeprefix('skipped: ')}\nno problems\n"
    narrowed = write_bundle(HEAD + hook("mixed", "pre_tool_use", '["shell", "read"]', 'command = "exit 0"\n'
                                        ).replace('command = "run-mixed"\n', ""))
    doc = json.loads(run("check", str(narrowed), "--host", "codex", "--json").stdout)
    assert [(h["hook"], h["matcher"]) for h in doc["hooks"]] == [("rd/mixed", "^Bash$")]
    assert doc["skipped"] == ["codex: rd/mixed: " + NARROW.format(place="hooks (mixed).matcher",
                                                                  manifest=narrowed / "hookweave.toml")]


class SparseHost(FlatHost):
    """A plugin that maps no shell (left out), no read (``None``) and no edit (an empty name)."""

    name = "sparse"
    title = "Sparse Agent"
    events = {"pre_tool_use": "beforeTool", "stop": "done"}
    tools = {"write": "put", "read": None, "edit": ""}

    def settings_path(self, scope: str, project: Path) -> Path:
        return (paths.home() if scope == "user" else project) / ".sparse" / "hooks.json"


@pytest.fixture
def sparse(monkeypatch):
    class Plugin:
        @hookimpl
        def hookweave_register_hosts(self, register):
            register(SparseHost)

    def with_sparse():
        pm = plugins.get_plugin_manager(load_entrypoints=False)
        pm.register(Plugin(), name="sparse")
        return plugins.HostRegistry(pm)

    monkeypatch.setattr(plugins, "registry", with_sparse)


def test_a_plugin_without_a_tool_skips_the_hook_and_dry_run_says_what_install_does(
        run, write_bundle, project, sparse) -> None:
    bundle = write_bundle(HEAD + hook("sh", "pre_tool_use", '["shell", "edit"]') + hook("wr", "pre_tool_use", '["write", "read"]'))
    manifest = bundle / "hookweave.toml"
    warnings = (
        "  warning: rd/sh: skipped: Sparse Agent has no shell or edit tools, and a hook without one would run on every "
        f"tool (hooks (sh).matcher in {manifest}); to run it on Sparse Agent, set [hooks.host.sparse] matcher to tools it has (write) or a native "
        "matcher string, or leave sparse out with hosts = [...]\n"
        "  warning: rd/wr: Sparse Agent has no read tool: the hook runs on write only there (hooks (wr).matcher in "
        f'{manifest}); to accept that and silence this, set [hooks.host.sparse] matcher = ["write"], or leave sparse '
        "out with hosts = [...]\n"
    )
    dry = run("install", str(bundle), "--host", "sparse", "--dry-run")
    assert (dry.exit_code, dry.stderr) == (0, "")
    assert dry.stdout == (
        "sparse project .sparse/hooks.json: would install rd 1.0.0 (1 hook)\n" + warnings
        + "--- /dev/null\n+++ b/.sparse/hooks.json\n@@ -0,0 +1,10 @@\n+{\n+  \"hooks\": {\n+    \"beforeTool\": [\n"
        + '+      {\n+        "command": "run-wr # hookweave:rd/wr",\n+        "matcher": "put"\n+      }\n+    ]\n+  }\n+}\n'
        + "record hooks.hookweave.json would be written\ndry run: nothing written\n"
    )
    assert files(project) == []
    result = run("install", str(bundle), "--host", "sparse")
    assert result.stdout == ("sparse project .sparse/hooks.json: installed rd 1.0.0 (1 hook)\n" + warnings
                             + "Restart running sessions of Sparse Agent: hooks load at session start.\n")
    assert json.loads((project / ".sparse" / "hooks.json").read_text()) == {
        "hooks": {"beforeTool": [{"command": "run-wr # hookweave:rd/wr", "matcher": "put"}]}}
    assert run("verify", "--host", "sparse").exit_code == 0


def test_native_matcher_refuses_to_widen_a_list_of_tools_the_host_lacks() -> None:
    host = SparseHost()
    assert host.native_matcher(("write", "read")) == "put"
    assert host.native_matcher("anything|as-is") == "anything|as-is" and host.native_matcher(None) is None
    with pytest.raises(RuntimeError, match="would run on every tool"):
        host.native_matcher(("read",))
