"""Faults for the Dask engine's tests, installed on the workers from here (a `distributed`
worker plugin), never by a switch in `handlog/`."""

from __future__ import annotations

import os
import signal
from typing import Any

from distributed.diagnostics.plugin import WorkerPlugin

from handlog import dataset


class KillOnce(WorkerPlugin):
    """On each worker: the part task that writes its marker (`DIR/_parts/<part>.json`, after
    its tables) while the file `armed` is absent creates that file (atomically: one task
    of all the workers wins) and kills its own worker process with SIGKILL, tables
    written and marker not, so that Dask must run the part again on another worker. With
    `armed` present (as the fixture leaves it) the plugin does nothing."""

    name = "handlog-kill-once"

    def __init__(self, armed: str) -> None:
        self.armed = armed

    def setup(self, worker: Any) -> None:
        write_json = dataset._write_json
        armed = self.armed

        def write_or_die(fs: Any, target: str, value: Any) -> None:
            if f"/{dataset.PARTS}/" in target:
                try:
                    os.close(os.open(armed, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
                except FileExistsError:
                    pass
                else:
                    os.kill(os.getpid(), signal.SIGKILL)
            write_json(fs, target, value)

        dataset._write_json = write_or_die  # type: ignore[assignment]
