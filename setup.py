"""Build hook: ship the top-level data folders inside the installed package.

The repository keeps ``grammar/``, ``schemas/`` and ``rulesets/`` at its top level, where
authors look for them. A non-editable install must still find them from any working
directory, so the build copies them to ``rules_run/_data/<folder>``, which
``rules_run.paths`` looks at first.

The source folder ``interpreter/`` installs as the package ``rules_run``: the name
``interpreter`` is taken by another package on PyPI, and the two would break each other.
"""

import shutil
from pathlib import Path

from setuptools import find_packages, setup
from setuptools.command.build_py import build_py

DATA_FOLDERS = ("grammar", "schemas", "rulesets")


class BuildWithData(build_py):
    def run(self):
        super().run()
        root = Path(__file__).resolve().parent
        for folder in DATA_FOLDERS:
            target = Path(self.build_lib) / "rules_run" / "_data" / folder
            if target.exists():
                shutil.rmtree(target)
            shutil.copytree(root / folder, target,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


setup(
    cmdclass={"build_py": BuildWithData},
    package_dir={"rules_run": "interpreter"},
    packages=["rules_run", *(f"rules_run.{p}" for p in find_packages("interpreter"))],
)
