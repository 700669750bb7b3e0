"""Layer "verify": what is installed against the record, as each agent will run it. Findings
per file and host, duplicates across scopes, env verdicts, other agents that read the same files.

May import: ``plan`` and everything below it. Not ``runtime``: the two do not know each other.
"""
