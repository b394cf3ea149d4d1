"""Following a session as it is played: the watched folders' new and grown files imported
as they are written, and the open pages told (Server-Sent Events).

One thread does every write of the server, in order: the summary's first catch-up, then
each import of the files that appeared or grew (`importer.import_paths` through the
server's own connection and lock, with the summary's `after_commit` hook) and the
summary after it. Pages read meanwhile through cursors of their own: DuckDB's
transactions keep each read whole, so neither waits for the other. A file is looked at
again when its size or modification time changes; a file that grew is read from its last
hand on (the import's grown-file continuation), a hand still being written is read again
once it is whole.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from handlog import summary

if TYPE_CHECKING:
    from handlog.serve.app import Server
    from handlog.snapshot import ImportLock

log = logging.getLogger("handlog.serve")

POLL_SECONDS = 1.0


@dataclass
class Live:
    """The watcher and the pages listening to it."""

    folders: list[str]
    interval: float = POLL_SECONDS
    profile: str | None = None
    progress: summary.Progress = field(default_factory=summary.Progress)
    stopping: bool = False
    last: dict[str, Any] | None = None
    """What the last import stored (files, new hands, flagged), for /status.json."""
    _listeners: list[tuple[asyncio.AbstractEventLoop, asyncio.Queue[Any]]] = field(
        default_factory=list
    )
    _seen: dict[str, tuple[int, int]] = field(default_factory=dict)
    _thread: threading.Thread | None = None
    _wake: threading.Event = field(default_factory=threading.Event)
    _guard: threading.Lock = field(default_factory=threading.Lock)

    # -- listeners (the event loop's side) ------------------------------------------------

    def subscribe(self, loop: asyncio.AbstractEventLoop) -> asyncio.Queue[Any]:
        queue: asyncio.Queue[Any] = asyncio.Queue(maxsize=100)
        with self._guard:
            self._listeners.append((loop, queue))
        return queue

    def unsubscribe(self, queue: asyncio.Queue[Any]) -> None:
        with self._guard:
            self._listeners = [(lp, q) for lp, q in self._listeners if q is not queue]

    def publish(self, name: str, data: Any) -> None:
        """Tell every open page (from any thread)."""
        with self._guard:
            listeners = list(self._listeners)
        for loop, queue in listeners:
            try:
                loop.call_soon_threadsafe(_offer, queue, (name, data))
            except RuntimeError:  # its loop is closed
                self.unsubscribe(queue)

    # -- the writer thread -------------------------------------------------------------

    def start(self, server: Server, lock: ImportLock) -> None:
        self._thread = threading.Thread(
            target=self._run, args=(server, lock), name="handlog-serve-writer", daemon=True
        )
        self._thread.start()

    def stop(self) -> None:
        self.stopping = True
        self._wake.set()
        with self._guard:
            listeners = list(self._listeners)
        for loop, queue in listeners:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(_offer, queue, None)
        if self._thread is not None:
            self._thread.join(timeout=30)

    def _run(self, server: Server, lock: ImportLock) -> None:
        writer = server.connection.cursor()
        try:
            try:
                self._catch_up(server, writer, lock)
            except Exception:  # the pages go on without it; the log says why
                log.exception("the summary tables could not be brought up to date")
            while not self.stopping:
                try:
                    changed = self._changed()
                    if changed:
                        self._import(server, writer, lock, changed)
                except Exception:  # the next change is tried again; the log says why
                    log.exception("importing the watched files failed")
                self._wake.wait(self.interval)
        finally:
            writer.close()

    def _catch_up(self, server: Server, writer: Any, lock: ImportLock) -> None:
        lock.resume()
        try:
            done = summary.catch_up(writer, self.progress)
        finally:
            lock.pause()
        if done:
            server.version += 1
            log.info("summarized %s hands", f"{done:,}")
            self.publish("stored", {"version": server.version, "new_hands": done, "flagged": []})

    def _changed(self) -> list[str]:
        """The files of the watched folders that are new or changed since last seen."""
        from handlog.parse.reader import expand_paths

        files, _ = expand_paths(self.folders)
        changed = []
        for path in files:
            try:
                status = os.stat(path.split("!/", 1)[0])
            except OSError:
                continue
            mark = (status.st_size, status.st_mtime_ns)
            if self._seen.get(path) != mark:
                self._seen[path] = mark
                changed.append(path)
        return changed

    def _import(self, server: Server, writer: Any, lock: ImportLock, files: list[str]) -> None:
        from pathlib import Path

        from handlog.importer import ImportFailed, import_paths

        started = time.perf_counter()
        before = _max_rowid(writer)
        try:
            result = import_paths(
                files,
                Path(server.database),
                self.profile,
                1,
                after_commit=summary.after_commit,
                opened=(writer, lock),
            )
        except ImportFailed as error:
            log.error("import of %d files stopped: %s", len(files), error)
            return
        # Parts stored before the hook could run (or a hook that failed) are caught up.
        lock.resume()
        try:
            summary.catch_up(writer, self.progress)
        finally:
            lock.pause()
        for failed, reason in result.failed:
            log.warning("%s: %s", failed, reason)
        if not result.new_hands:
            return
        flagged = _flagged_since(writer, before)
        server.version += 1
        self.last = {
            "files": len(files),
            "new_hands": result.new_hands,
            "flagged": len(flagged),
            "seconds": round(time.perf_counter() - started, 3),
        }
        log.info(
            "imported %d new hands from %d files (%d flagged) in %.2f s",
            result.new_hands,
            len(files),
            len(flagged),
            time.perf_counter() - started,
        )
        self.publish(
            "stored",
            {"version": server.version, "new_hands": result.new_hands, "flagged": flagged},
        )


def _offer(queue: asyncio.Queue[Any], item: Any) -> None:
    """Put `item` for a page, dropping it when the page does not keep up (it reloads what
    it shows on the next event anyway)."""
    if queue.full():
        with contextlib.suppress(asyncio.QueueEmpty):
            queue.get_nowait()
    queue.put_nowait(item)


def _max_rowid(connection: Any) -> int:
    rows = connection.execute("SELECT coalesce(max(rowid), -1) FROM hands").fetchall()
    return int(rows[0][0])


def _flagged_since(connection: Any, rowid: int) -> list[dict[str, Any]]:
    """The hands stored after `rowid` that the replay flagged, with their first flag."""
    rows = connection.execute(
        """
        SELECT h.site, h.hand_id, h.table_name, min_by(v.code, v.seq), min_by(v.message, v.seq),
            min(v.line)
        FROM hands h JOIN violations v USING (site, hand_id)
        WHERE h.rowid > ? GROUP BY ALL ORDER BY h.site, h.hand_id LIMIT 20
        """,
        [rowid],
    ).fetchall()
    return [
        {"site": s, "hand_id": h, "table": t, "code": c, "message": m, "line": line}
        for s, h, t, c, m, line in rows
    ]
