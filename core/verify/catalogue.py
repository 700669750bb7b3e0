"""What verify can say, as data: the status of each recorded registration and the three levels of a
finding, with what each means when the agent runs. The documentation's tables are generated from
this module (``docs/_build/tables.py``); a test holds every status ``registrations``/``chains``
give a ``HookStatus`` to this list."""

from __future__ import annotations

# (status, level, what it means when the host runs the event)
STATUSES: tuple[tuple[str, str, str], ...] = (
    ("ok", "none", "the host runs the hook as installed (when no gate stops it: those are listed too)"),
    ("missing", "problem", "the host does not run it; reinstall"),
    ("modified", "problem", "the host runs the operator's edited version; reinstall with `--force` to restore ours"),
    ("duplicated", "problem", "a second copy in the same event; whether it runs twice depends on the host's "
                              "de-duplication"),
    ("out-of-order", "problem or note", "depends on how the host runs an event's hooks (see Order): a problem "
                                        "where file order decides what runs first, a note where it does not"),
)

# (level, exit code of verify, meaning)
LEVELS: tuple[tuple[str, str, str], ...] = (
    ("problem", "1", "the agent will not do what the bundle asks"),
    ("warning", "0", "something verify cannot judge for sure"),
    ("note", "0", "true, but it changes nothing when the agent runs"),
)
