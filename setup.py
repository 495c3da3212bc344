"""Build hook: ship the top-level data folders inside the installed package.

The repository keeps ``grammar/``, ``schemas/`` and ``rulesets/`` at its top level, where
authors look for them. A non-editable install must still find them from any working
directory, so the build copies them to ``interpreter/_data/<folder>``, which
``interpreter.paths`` looks at first.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

DATA_FOLDERS = ("grammar", "schemas", "rulesets")


class BuildWithData(build_py):
    def run(self):
        super().run()
        root = Path(__file__).resolve().parent
        for folder in DATA_FOLDERS:
            target = Path(self.build_lib) / "interpreter" / "_data" / folder
            if target.exists():
                shutil.rmtree(target)
            shutil.copytree(root / folder, target,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


setup(cmdclass={"build_py": BuildWithData})
