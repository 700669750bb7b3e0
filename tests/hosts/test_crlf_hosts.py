"""Issue 33 item 9: a settings file with Windows (CRLF) line ends keeps them. Every line install writes
into an operator's CRLF file (each host's format, Codex's trust table in ``config.toml`` too) ends in
CRLF: the file after install is, byte for byte, what install writes into the same file with LF line
ends, each LF made CRLF; uninstall gives the CRLF bytes back."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.hostnames import NAMES

DATA = Path(__file__).parent.parent / "data"
BUNDLE = ('[bundle]\nname = "g"\nversion = "1.0.0"\n[[hooks]]\nid = "a"\nevent = "pre_tool_use"\nmatcher = ["shell"]\n'
          'command = "echo a"\n[[hooks]]\nid = "b"\nevent = "stop"\ncommand = "echo b"\n')


def _sample(host: str, suffix: str) -> str:
    """An operator's file of ``host`` full of foreign entries and comments, with LF line ends."""
    for name in ("operator.settings.json", "operator.config.toml", "hookweave-hooks.json", "operator.yaml"):
        path = DATA / host / name
        if path.exists() and path.suffix == suffix:
            return path.read_text(encoding="utf-8").replace("\r\n", "\n")
    return next(p for p in sorted((DATA / "corpus").glob(f"{host}--*"))).read_text(encoding="utf-8")


def _install(run, host: str, bundle: str, settings: Path, text: str, config: Path | None) -> tuple[bytes, bytes | None]:
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_bytes(text.encode())
    if config is not None:  # Codex's user config.toml, where --trust writes the trust table
        config.parent.mkdir(parents=True, exist_ok=True)
        config.write_bytes(_sample("codex", ".toml").replace("\n", "\r\n" if "\r\n" in text else "\n").encode())
    scope = "user" if host in ("kimi", "openharness", "hermes") else "project"
    result = run("install", bundle, "--host", host, "--scope", scope, *(["--trust"] if config else []))
    assert result.exit_code == 0, result.output
    return settings.read_bytes(), config.read_bytes() if config is not None else None


@pytest.mark.parametrize("host", NAMES)
def test_a_crlf_file_gets_crlf_lines_and_its_bytes_back(run, host, project, home, write_bundle) -> None:
    from hookweave.core.contract.registry import registry
    from hookweave.core.usecases import installer

    h = registry().get(host)
    scope = "user" if host in ("kimi", "openharness", "hermes") else "project"
    settings = installer.target(h, scope, project).path
    lf = _sample(host, settings.suffix)
    crlf = lf.replace("\n", "\r\n")
    config = home / ".codex" / "config.toml" if host == "codex" else None
    bundle = str(write_bundle(BUNDLE))
    lf_after, lf_config = _install(run, host, bundle, settings, lf, config)
    assert run("uninstall", "g", "--host", host, "--scope", scope).exit_code == 0
    crlf_after, crlf_config = _install(run, host, bundle, settings, crlf, config)
    assert crlf_after.decode() == lf_after.decode().replace("\n", "\r\n")  # whole text: every new line CRLF
    if config is not None:
        assert crlf_config.decode() == lf_config.decode().replace("\n", "\r\n")  # the trust table too
    assert run("uninstall", "g", "--host", host, "--scope", scope).exit_code == 0
    assert settings.read_bytes() == crlf.encode()
