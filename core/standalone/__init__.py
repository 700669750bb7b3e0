"""Layer "standalone": the sources install writes into a user's project or home, and that
run inside the agent on every hook: the chain runner, its answer combining, the protocol judge,
and Cline's dispatcher program.

Standard library only, and nothing of hookweave outside this package: a test holds it. A module
that needs another of this package imports it only when loaded as part of the package (tests,
``hooks check``); in a runner file they are one namespace.
"""
