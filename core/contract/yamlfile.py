"""``format = "yaml"``: a host whose settings are YAML (Hermes Agent's ``config.yaml``), put in front
of its shape class by ``describe.host_class``. The file is read and edited through
``formats.yamledit``, which keeps comments, anchors and quoting and gives back every byte an
install and its uninstall did not change."""

from __future__ import annotations

from typing import Any

from hookweave.core.errors import BadInput


class YamlFile:
    """The file-format methods of ``Host`` for a YAML settings file."""

    def parse(self, text: str, path: str) -> Any:
        from hookweave.core.formats import yamledit  # loaded when a YAML file is read, not at start-up

        doc = yamledit.parse(text, path)
        return {} if doc is None else doc

    def apply(self, text: str, ops: list[dict], path: str) -> str:
        from hookweave.core.formats import yamledit

        return yamledit.apply_ops(text, ops, path)

    def reads_as(self, old_text: str | None, new_text: str, new: Any, path: str, ops: list[dict]) -> bool:
        from hookweave.core.formats.patch import same

        return same(self.parse(new_text, path), new)  # a settings file: read it again whole

    def new_file_text(self) -> str:
        return ""

    def check_document(self, doc: Any, path: str) -> None:
        if not isinstance(doc, dict):
            raise BadInput(f"{path}: the top level must be a YAML mapping; fix the file by hand")
        super().check_document(doc, path)  # type: ignore[misc]
