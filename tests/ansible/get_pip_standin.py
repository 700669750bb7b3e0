"""A stand-in for the get-pip.py that ansible-test downloads from a host outside the package index
before a sanity test: the pinned pip from the index, as the real script installs it; its own options go.

As get-pip.py runs the pip it carries, this runs the pip wheel the interpreter's ensurepip carries
straight from the wheel: ensurepip itself would first install that pip in the venv, only for the
pinned one to replace it (10.9 s of CPU a venv here, 6.2 this way; ansible-test makes one venv for
each sanity test that needs packages). Without a bundled wheel, ensurepip as before."""

import ensurepip
import subprocess
import sys
from pathlib import Path

args = [a for a in sys.argv[1:] if a not in ("--no-setuptools", "--no-wheel")]
bundled = sorted(Path(ensurepip.__file__).parent.glob("_bundled/pip-*.whl"))
if bundled:
    subprocess.check_call([sys.executable, str(bundled[-1] / "pip"), "install", *args])
else:
    subprocess.check_call([sys.executable, "-m", "ensurepip", "--default-pip"], stdout=subprocess.DEVNULL)
    subprocess.check_call([sys.executable, "-m", "pip", "install", *args])
