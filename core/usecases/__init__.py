"""Layer "usecases": install, uninstall and adopt over every file they touch, all or nothing
(``transaction``), with the chain runner file kept beside the settings it serves.

May import: ``verify``, ``runtime``, ``plan`` and everything below them. Never ``cli``.
"""
