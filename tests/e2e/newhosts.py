"""The four newer agents offline against the mock's Chat Completions, with hooks written straight into
their files (no hookweave install): Copilot CLI 1.0.102, Qwen Code 0.24.4, Factory Droid 0.225.2 and
Cline 3.0.65, set up as their own tests do (test_<host>_real.py say why each setting is needed).

``agent(host, mock, home, project, hooks)`` writes ``hooks`` ({native event: (command, matcher or
None)}) where the host reads them (nothing when empty: hookweave installs them) and returns a
function that runs the agent with a prompt.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from pathlib import Path

import pytest
from realhosts import HOSTS, run_agent

BINARIES = {"copilot": "copilot", "qwen": "qwen", "factory": "droid", "cline": "cline"}
FACTORY_SERVICES = ("FACTORY_API_BASE_URL", "FACTORY_API_BASE_URL_EU", "FACTORY_APP_BASE_URL",
                    "FACTORY_TELEMETRY_INGEST_BASE_URL", "FACTORY_WORKOS_BASE_URL", "FACTORY_PUBLIC_DOWNLOADS_BASE_URL",
                    "FACTORY_RELAY_BASE_URL", "FACTORY_ORG_MANAGED_SETTINGS_URL", "OTEL_PRODUCT_ENDPOINT",
                    "OTEL_CUSTOMER_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT")
QWEN_OFFLINE = {"privacy": {"usageStatisticsEnabled": False}, "telemetry": {"enabled": False},
                "general": {"disableAutoUpdate": True, "enableAutoUpdate": False, "disableUpdateNag": True}}
# Qwen's cli.js starts itself again only for a larger heap (its hooks get this variable either way):
# without that second start of the whole CLI a run costs about 1.3 s less CPU (docs/speed.md, round 5).
QWEN_IN_PROCESS = {"QWEN_CODE_NO_RELAUNCH": "true"}
# Copilot unpacks its 235 MB package into ~/.cache/copilot/pkg wherever that is missing, as it is in
# every test's fresh HOME: one folder kept for every run halves the CPU of a start (Copilot unpacks
# into a temporary folder and renames it, so workers starting at once are safe).
COPILOT_PACKAGE_CACHE = {"COPILOT_PKG_CACHE_HOME": str(Path(tempfile.gettempdir()) / f"hookweave-copilot-{os.getuid()}")}


def binary(host: str) -> Path:
    path = HOSTS / host / "node_modules" / ".bin" / BINARIES[host]
    if not path.is_file():
        pytest.skip(f"{host} is not installed: run scripts/install-hosts {host} (needs node and npm)")
    return path


def agent(host: str, mock, home: Path, project: Path, hooks: dict[str, tuple[str, str | None]]):
    exe = str(binary(host))
    if host == "copilot":
        entries = {event: [{"type": "command", "bash": command, **({"matcher": m} if m else {})}]
                   for event, (command, m) in hooks.items()}
        if entries:
            own = project / ".github" / "hooks" / "e2e.json"
            own.parent.mkdir(parents=True, exist_ok=True)
            own.write_text(json.dumps({"version": 1, "hooks": entries}))
        config = home / ".copilot" / "config.json"
        config.parent.mkdir(parents=True, exist_ok=True)
        config.write_text(json.dumps({"trustedFolders": [str(project)]}))
        env = {"HOME": str(home), "COPILOT_OFFLINE": "1", "COPILOT_AUTO_UPDATE": "false",
               "COPILOT_PROVIDER_BASE_URL": f"{mock.url}/v1", "COPILOT_PROVIDER_TYPE": "openai",
               "COPILOT_PROVIDER_API_KEY": "dummy", "COPILOT_MODEL": "mock", **COPILOT_PACKAGE_CACHE}
        return lambda prompt, code=0: run_agent([exe, "-p", prompt, "--allow-all-tools", "--disable-builtin-mcps",
                                                 "--disable-client-telemetry"], project, env, code)
    groups = {event: [{**({"matcher": m} if m else {}), "hooks": [{"type": "command", "command": command}]}]
              for event, (command, m) in hooks.items()}
    if host == "qwen":
        (home / ".qwen").mkdir(exist_ok=True)
        (home / ".qwen" / "settings.json").write_text(json.dumps({**QWEN_OFFLINE, "hooks": groups}))
        env = {"HOME": str(home), "OPENAI_API_KEY": "dummy", "OPENAI_BASE_URL": f"{mock.url}/v1", "OPENAI_MODEL": "mock",
               "QWEN_CODE_SUPPRESS_YOLO_WARNING": "1", **QWEN_IN_PROCESS}
        return lambda prompt, code=0: run_agent([exe, "--auth-type", "openai", "--yolo", "-p", prompt], project, env, code)
    if host == "factory":
        (home / ".factory").mkdir(exist_ok=True)
        (home / ".factory" / "settings.json").write_text(json.dumps({"customModels": [{
            "model": "mock", "displayName": "Mock", "baseUrl": f"{mock.url}/v1", "apiKey": "dummy",
            "provider": "generic-chat-completion-api", "maxOutputTokens": 1000}]}))
        if groups:
            (project / ".factory").mkdir(exist_ok=True)
            (project / ".factory" / "hooks.json").write_text(json.dumps(groups))
        env = {"HOME": str(home), "FACTORY_API_KEY": "fk-dummy", "FACTORY_DROID_AUTO_UPDATE_ENABLED": "false",
               "FACTORY_DISABLE_DYNAMIC_CONFIG": "1", "FACTORY_DISABLE_KEYRING": "1", "OTEL_SDK_DISABLED": "true",
               **{name: mock.url for name in FACTORY_SERVICES}}
        return lambda prompt, code=0: run_agent([exe, "exec", "--auto", "high", "-m", "custom:mock", prompt], project,
                                                env, code)
    settings = home / ".cline" / "data" / "settings" / "providers.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps({"version": 1, "lastUsedProvider": "openai-compatible", "modes": {}, "providers": {
        "openai-compatible": {"settings": {"provider": "openai-compatible", "apiKey": "dummy", "model": "mock",
                                           "baseUrl": f"{mock.url}/v1"}, "updatedAt": "2026-11-23T00:00:00.000Z",
                              "tokenSource": "manual"}}}))
    (settings.parent / "global-settings.json").write_text('{"telemetryOptOut": true, "autoUpdateEnabled": false}\n')
    flags = home / ".cline" / "data" / "cache" / "feature-flags.json"
    flags.parent.mkdir(parents=True, exist_ok=True)
    flags.write_text(json.dumps({"version": 2, "updatedAt": int(time.time() * 1000), "userId": None,
                                 "flagsPayload": {"featureFlags": {}, "featureFlagPayloads": {}}}))
    folder = project / ".clinerules" / "hooks"
    folder.mkdir(parents=True, exist_ok=True)
    for event, (command, _) in hooks.items():  # Cline has no matchers: one file per event
        (folder / event).write_text(f"#!/bin/sh\nexec {command}\n")
        (folder / event).chmod(0o755)
    env = {"HOME": str(home), "CLINE_DIR": str(home / ".cline"), "CLINE_SESSION_BACKEND_MODE": "local"}
    return lambda prompt, code=0: run_agent([exe, "--json", prompt], project, env, code)
