"""A stand-in for the get-pip.py that ansible-test downloads from a host outside the package index
before a sanity test: the venv's pip comes from the interpreter's own ensurepip, then the pinned pip
from the index, as the real script installs it; its own options go."""

import subprocess
import sys

args = [a for a in sys.argv[1:] if a not in ("--no-setuptools", "--no-wheel")]
subprocess.check_call([sys.executable, "-m", "ensurepip", "--default-pip"], stdout=subprocess.DEVNULL)
subprocess.check_call([sys.executable, "-m", "pip", "install", *args])
