"""MkDocs hook: the search box finds an option by its name, ``--force`` as typed.

Material's search hands the query to lunr, whose syntax reads a leading ``-`` as "without": ``--force``
is two of them and a parse error, so the box said "No matching documents" for the options this
reference is about. The index splits words at ``-`` (``--force`` is indexed as ``force``), so the
query can say the same: a word that starts with ``--`` is searched without its dashes. A single
``-word`` keeps lunr's meaning (pages without "word").

After the build, a few lines go in front of the site's search worker, which takes the box's
queries as messages: they rewrite the query of each message before Material's own handler reads it.
"""

from __future__ import annotations

from pathlib import Path

MARK = "/* hookweave: option names in the search box */"

# Material's worker registers its handler with addEventListener("message", ...) and reads
# {type: 2 (a query), data: the text}; the wrapper hands it the same message with the rewritten text.
REWRITE = MARK + """
(function () {
  var add = self.addEventListener.bind(self);
  self.addEventListener = function (type, listener, options) {
    if (type !== "message") return add(type, listener, options);
    return add(type, function (event) {
      var message = event.data;
      if (message && message.type === 2 && typeof message.data === "string")
        event = { data: { type: 2, data: message.data.replace(/(^|\\s)--(?=[^\\s-])/g, "$1") } };
      return listener(event);
    }, options);
  };
})();
"""


def workers(site_dir: str) -> list[Path]:
    return sorted(p for p in (Path(site_dir) / "assets" / "javascripts" / "workers").glob("search.*.js"))


def on_post_build(config, **_: object) -> None:
    found = workers(config["site_dir"])
    if not found:  # a theme without Material's worker: say so rather than ship a search that cannot find options
        raise RuntimeError("docs/_build/search.py: no search worker under assets/javascripts/workers")
    for worker in found:
        text = worker.read_text(encoding="utf-8")
        if not text.startswith(MARK):
            worker.write_text(REWRITE + text, encoding="utf-8")
