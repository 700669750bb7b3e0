"""Layer "cli": the ``hooks`` command. Thin typer commands, the console every message goes
through, prompts (the only questionary user), report rendering, completion, ``doctor``, ``init``.

May import: every layer below. Nothing imports it but the console entry point.
"""
