"""The only module that asks questions (questionary, imported only when a prompt is shown).

Every prompt has a flag: ``--host``, ``--scope``, ``--yes``. Without a terminal nothing is asked.
"""

from __future__ import annotations

import sys

from hookweave.core.errors import Stopped


def interactive() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


def _ask(question):
    try:
        answer = question.unsafe_ask()  # ask() would turn ^C into None and carry on
    except KeyboardInterrupt:
        raise Stopped("Stopped by user; nothing written") from None
    return answer


def ask_hosts(choices: list[tuple[str, str, bool]], question: str = "Install into which agents?",
              unticked: str = "not detected") -> list[str]:
    """Pick hosts from ``(name, title, ticked)``: detected ones for install, those holding the bundle
    for uninstall; ``unticked`` says why the others are not ticked."""
    import questionary

    picked = _ask(
        questionary.checkbox(
            question,
            choices=[
                questionary.Choice(f"{title} ({name}){'' if seen else ' - ' + unticked}", value=name, checked=seen)
                for name, title, seen in choices
            ],
            validate=lambda chosen: bool(chosen) or "pick at least one",
        )
    )
    return list(picked)


def ask_scope(scopes: tuple[str, ...], default: str) -> str:
    import questionary

    return _ask(questionary.select("Which settings file (scope)?", choices=list(scopes), default=default))


def confirm(message: str) -> bool:
    import questionary

    return bool(_ask(questionary.confirm(message, default=True)))
