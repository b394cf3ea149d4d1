"""The user's cache folder, where handlog keeps what it derives between runs: the grammars'
facts and Lark's tables (`handlog.parse.grammar`) and the evaluator's batch tables
(`handlog.rules.evaluate`). A leaf module: it imports nothing from handlog, so that the parsers
and the rules can both use it."""

from __future__ import annotations

import os
from pathlib import Path

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
