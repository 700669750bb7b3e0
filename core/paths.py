"""Deprecated import path, kept for plugins written before the layers: use ``hookweave.core.files.paths``."""

from hookweave.core.files.paths import (  # noqa: F401
    by_platform,
    cwd,
    display,
    from_env,
    git_root,
    home,
    printable,
    project_dir,
)
