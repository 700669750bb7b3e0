"""Layer "runtime": running hooks the way the agents run them, for ``hooks check``. What
a hook is fed (payloads), how it is run (shell, env, timeout), what its answer means (the
protocol judge in ``standalone``), and pitfalls its shell text shows.

May import: ``plan`` and everything below it. Not ``verify``: the two do not know each other.
"""
