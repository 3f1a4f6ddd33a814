"""The package build compiles the translation catalogs (.po -> .mo) into the wheel.

Everything else about the package is in pyproject.toml; this file exists only for that step,
which setuptools has no declarative form for.
"""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithCatalogs(build_py):
    """build_py, then each ``referee/locale/*/LC_MESSAGES/*.po`` compiled beside its copy."""

    def run(self) -> None:
        super().run()
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        for source in sorted(Path("referee", "locale").glob("*/LC_MESSAGES/*.po")):
            target = Path(self.build_lib) / source.with_suffix(".mo")
            target.parent.mkdir(parents=True, exist_ok=True)
            with source.open("rb") as po, target.open("wb") as mo:
                write_mo(mo, read_po(po, locale=source.parts[2]), use_fuzzy=False)


setup(cmdclass={"build_py": BuildWithCatalogs})
