"""Example bundles shipped with hookweave; ``hooks install <folder name>`` installs one."""
