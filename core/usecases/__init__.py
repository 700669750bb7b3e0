"""Layer "usecases": install, uninstall and adopt over every file they touch, all or nothing
(``transaction``), with the chain runner file kept beside the settings it serves; ``api`` offers
install, uninstall and verify as calls that return data, for the CLI and the Ansible collection.

May import: ``verify``, ``runtime``, ``plan`` and everything below them. Never ``cli``.
"""
