"""hookweave core: plugin boundary, pure merge logic and the one module that touches disk.

Plugin authors import ``hookimpl`` and ``Host`` from here; see "Writing a host plugin" in the README.
"""
