"""The wheel's data files are each in a package the configuration lists: a data folder whose name
Python could import (``testing/bundle``) but which ``packages`` leaves out makes setuptools print
"Package would be ignored" in the middle of a 1,000-line build (.ci/run also fails on that line)."""

from __future__ import annotations

from pathlib import Path

import tomlkit

REPO = Path(__file__).parent.parent.parent


def test_every_importable_folder_of_package_data_is_a_listed_package() -> None:
    tool = tomlkit.parse((REPO / "pyproject.toml").read_text(encoding="utf-8")).unwrap()["tool"]["setuptools"]
    packages = set(tool["packages"])
    where = {name: REPO / folder for name, folder in tool["package-dir"].items()}

    def folder(package: str) -> Path:
        top = max((name for name in where if package == name or package.startswith(name + ".")), key=len)
        return where[top].joinpath(*package[len(top):].split(".")[1:])

    shipped = 0
    for package, patterns in tool["package-data"].items():
        assert package in packages, f"package-data names {package}, which packages does not list"
        base = folder(package)
        for pattern in patterns:
            for data in base.glob(pattern):
                shipped += data.is_file()
                parts = data.relative_to(base).parts[:-1] if data.is_file() else data.relative_to(base).parts
                for depth in range(1, len(parts) + 1):
                    inner = parts[:depth]
                    if all(part.isidentifier() for part in inner):
                        name = ".".join([package, *inner])
                        assert name in packages, f"{data.relative_to(REPO)}: {name} would be ignored; list it in packages"
    assert shipped >= 5  # the template's files, the contract kit's bundle, the chain runner
