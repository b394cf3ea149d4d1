"""The user's cache folder, where handlog keeps what it derives between runs: the grammars'
facts and Lark's tables (`handlog.parse.grammar`), the evaluator's batch tables
(`handlog.rules.evaluate`) and the store's Arrow schemas (`handlog.store`), each file written
whole (`write_whole`). A leaf module: it imports nothing from handlog, so that the parsers
and the rules can both use it."""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

CACHE_ENV = "HANDLOG_CACHE_DIR"
"""Where handlog keeps what it derives between runs, if set (default: `$XDG_CACHE_HOME/handlog`,
else `~/.cache/handlog`)."""


def cache_folder() -> Path | None:
    """The folder handlog keeps what it derives between runs in, made (for this user only) if
    need be; None if it cannot be, or cannot be written."""
    chosen = os.environ.get(CACHE_ENV)
    if not chosen:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        chosen = os.path.join(base, "handlog")
    try:
        os.makedirs(chosen, mode=0o700, exist_ok=True)
    except OSError:
        return None
    return Path(chosen) if os.access(chosen, os.W_OK) else None


def write_whole(path: Path, write: Callable[[BinaryIO], object]) -> bool:
    """Write a file of the cache folder by `write` (given the open file) to a name of this
    process and thread, then rename it to `path`: a reader sees the old file or the new one,
    never half of one. False (nothing left behind) when it cannot be written."""
    temporary = path.with_name(f"{path.name}.{os.getpid()}-{threading.get_ident()}.tmp")
    try:
        with open(temporary, "wb") as handle:
            write(handle)
        os.replace(temporary, path)
    except OSError:
        with contextlib.suppress(OSError):
            temporary.unlink(missing_ok=True)
        return False
    return True


def remove_others(path: Path, pattern: str) -> None:
    """Remove the files of `path`'s folder that `pattern` (a glob) matches but `path`: what
    was kept for another key (other grammars, another version)."""
    with contextlib.suppress(OSError):
        for stale in path.parent.glob(pattern):
            if stale.name != path.name:
                stale.unlink(missing_ok=True)
