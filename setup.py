"""Build step: compile handlog's hot modules with mypyc, when it can.

Everything else about the package is in pyproject.toml. The modules in `handlog._native.COMPILED`
are plain Python written so that mypyc can also compile them to C extensions, which run them
about one and a half times faster (the replay's fast path and the PokerStars line handlers:
most of an import's time). Compiling needs a C compiler and Python's headers; without them,
or with HANDLOG_PURE_PYTHON=1 in the environment, the install goes on and the same modules run
as Python source, with the same results.
"""

from __future__ import annotations

import os
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

# The list lives in handlog/_native.py (which decides at run time whether the compiled
# modules are used); read here without importing the package, whose dependencies the build
# environment does not have.
_NATIVE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "handlog", "_native.py")


def _compiled_modules() -> list[str]:
    namespace: dict[str, object] = {}
    with open(_NATIVE, encoding="utf-8") as file:
        source = file.read()
    start = source.index("COMPILED = ")
    end = source.index(")\n", start) + 1
    exec(source[start:end], namespace)  # noqa: S102 - a tuple literal of module names
    return [name.replace(".", "/") + ".py" for name in namespace["COMPILED"]]  # type: ignore[attr-defined]


def _warn(message: str) -> None:
    print(f"handlog: {message}; the same modules run as Python source.", file=sys.stderr)


class _OptionalBuildExt(build_ext):
    """`build_ext` that turns a failed compilation into a warning, not a failed install. It
    stops at the first failure: the compiled modules need mypyc's shared library, built
    first, and a module that was not built simply runs from source."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # no compiler, no headers, a compiler error
            _warn(f"could not compile the native modules ({error})")


class _BuildPyWithGrammars(build_py):
    """`build_py` that also puts a copy of `grammars/*.lark` into the built package as
    `handlog/grammars/`, so that an installed wheel finds them (`handlog.parse.grammar`); a
    checkout and an editable install read the repository's `grammars/` itself."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        root = os.path.dirname(os.path.abspath(__file__))
        target = os.path.join(self.build_lib, "handlog", "grammars")
        os.makedirs(target, exist_ok=True)
        for name in sorted(os.listdir(os.path.join(root, "grammars"))):
            if name.endswith(".lark"):
                self.copy_file(os.path.join(root, "grammars", name), os.path.join(target, name))


def _extensions() -> list[object]:
    if os.environ.get("HANDLOG_PURE_PYTHON"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        _warn("mypyc is not installed")
        return []
    try:
        return list(mypycify(_compiled_modules(), opt_level="3"))
    except (Exception, SystemExit) as error:  # mypy's type check failed
        _warn(f"mypyc could not translate the native modules ({error})")
        return []


setup(
    ext_modules=_extensions(),
    cmdclass={"build_ext": _OptionalBuildExt, "build_py": _BuildPyWithGrammars},
)
