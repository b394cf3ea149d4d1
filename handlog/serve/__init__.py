"""`handlog serve`: a local web app to explore every hand, replay any of them and follow a
session live (issue 28).

    serve(Options(...))   # opens the database, starts the writer thread, runs uvicorn

The package: `queries` (every query the pages make), `sql` (the read-only query page), `replayer`
(a hand step by step, from the rules engine's trace), `live` (the watcher and the events
sent to open pages), `app` (the Starlette routes and the Host check), `templates/` and
`static/` (the pages' own script and style: nothing is fetched from elsewhere). The
summary tables that keep the pages fast are the library's (`handlog.summary`, kept up to
date by the import's hook, which `handlog import` passes): the library never imports
this package.
"""

from __future__ import annotations

import ipaddress
import logging
import socket
import sys
from dataclasses import dataclass, field
from pathlib import Path

LOOPBACK = "127.0.0.1"


class ServeError(Exception):
    """Something the user can fix (a host refused, a port taken, no database): one line."""


@dataclass
class Options:
    database: Path
    folders: list[str] = field(default_factory=list)
    host: str = LOOPBACK
    port: int = 8000
    profile: str | None = None
    interval: float = 1.0


def check_host(host: str) -> None:
    """Refuse an address that would answer on every interface: the Host check needs the
    one address clients use (and serving to a network should be a choice of one)."""
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        if host != "localhost":
            raise ServeError(
                f"--host {host}: give an IP address of this machine (127.0.0.1 by default)"
            ) from None
        return
    if address.is_unspecified:
        raise ServeError(
            f"--host {host} would answer on every network interface: give the address of the "
            "one interface to serve on (127.0.0.1, the default, serves this machine only)"
        )


def listen(host: str, port: int) -> socket.socket:
    """The listening socket (bound here, so that a taken port is one clear line)."""
    family = socket.AF_INET6 if ":" in host.strip("[]") else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host.strip("[]"), port))
    except OSError as error:
        sock.close()
        raise ServeError(
            f"cannot listen on {host}:{port}: {error.strerror or error} (is another server "
            "there? give --port another number)"
        ) from None
    sock.listen(128)
    sock.setblocking(False)
    return sock


def open_server(options: Options, port: int):  # type: ignore[no-untyped-def]
    """The database opened for the server (created if it is to watch folders), locked
    down for the query page, with its writer thread's `Live`; (server, lock)."""
    from handlog import store
    from handlog.serve import sql
    from handlog.serve.app import Server, hosts_for
    from handlog.serve.live import Live
    from handlog.snapshot import ImportLock

    path = options.database
    if not path.exists() and not options.folders:
        raise ServeError(
            f"no database at {path}: import hand histories first (handlog import), or give "
            "--watch FOLDER to import them as they are written"
        )
    lock = ImportLock(path)
    try:
        connection = store.connect(path)
    except BaseException:
        lock.close(opened=False)
        raise
    lock.pause()
    connection.execute("SET memory_limit = '1GB'")
    sql.lock_down(connection)
    live = Live(options.folders, options.interval, options.profile)
    server = Server(connection, str(path), hosts_for(options.host, port), live)
    return server, lock


def serve(options: Options, announce=print) -> None:  # type: ignore[no-untyped-def]
    """Serve until Ctrl-C (see the module doc)."""
    import uvicorn

    from handlog.serve.app import create_app

    check_host(options.host)
    sock = listen(options.host, options.port)
    port = sock.getsockname()[1]
    server, lock = open_server(options, port)
    live = server.live
    try:
        live.start(server, lock)
        shown = f"[{options.host}]" if ":" in options.host else options.host
        watching = f", watching {', '.join(options.folders)}" if options.folders else ""
        announce(
            f"handlog: serving {options.database} at http://{shown}:{port}/{watching} "
            "(Ctrl-C to stop)"
        )
        sys.stdout.flush()
        config = uvicorn.Config(
            create_app(server),
            log_level="info",
            access_log=True,
            timeout_graceful_shutdown=2,
            log_config=_log_config(),
        )
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        live.stop()
        lock.resume()  # closing checkpoints: no report copies the files meanwhile
        server.connection.close()
        lock.close()
        sock.close()


def _log_config() -> dict[str, object]:
    """uvicorn's log lines on standard error, one line each, with the time."""
    line = {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s", "datefmt": "%H:%M:%S"}
    handler = {"class": "logging.StreamHandler", "formatter": "line", "stream": "ext://sys.stderr"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"line": line},
        "handlers": {"stderr": handler},
        "loggers": {
            name: {"handlers": ["stderr"], "level": logging.INFO, "propagate": False}
            for name in (
                "uvicorn",
                "uvicorn.error",
                "uvicorn.access",
                "handlog.serve",
                "handlog.summary",
            )
        },
    }
