"""Layer "contract": the host contract. ``Host`` and its settings shapes, the pluggy
hookspecs, the registry that loads built-in and third-party host plugins alike.

May import: ``model``, ``formats``, ``files``, ``errors``. The layers above use it; the layers below
never import it. Plugin authors import ``Host`` and the shapes from here.
"""
