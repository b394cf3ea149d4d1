"""What `handlog import` loads to start: a one-hand import into a new database reads the
hand in its own process (no worker processes to start for one task's work), loads its rows
from their Python values (`store.Rows`: no pyarrow, hence no NumPy, which the all-in
calculator alone needs and imports only for a hand with an all-in) and imports neither
pandas (pyarrow would, the first time it converts Python values:
`ingest.arrow_without_pandas`) nor what other commands use (the report's charts, Dask, the
web server). Those rows are stored exactly as Arrow tables of them are. Modules, not
times: nothing here is timed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import duckdb
import pytest

from handlog import ingest, store
from handlog.model import Game
from tests.conftest import SITES

ROOT = Path(__file__).resolve().parent.parent
HAND = ROOT / "sample_logs" / "7-StudHL-USD-10-1-200906.PT2.export.txt"

NOT_IMPORTED = (
    "pandas",
    "matplotlib",
    "dask",
    "distributed",
    "starlette",
    "uvicorn",
    "jinja2",
    "pydantic",  # Typer 0.29 on would (pyproject.toml)
    "polars",  # the server's summary: made by the server, not by an import
)
"""Top-level packages an import of hand histories has no use for."""

NOT_IMPORTED_FOR_A_FEW_HANDS = (
    "pyarrow",  # a few hands' rows go to DuckDB as Python values (store.Rows)
    "numpy",  # pyarrow's, and the all-in calculator's (no all-in here)
)
"""What an import of a few hands has no use for either."""

# Runs `handlog import` as the console script does, then says which of NOT_IMPORTED it
# imported and how many processes it forked; then, pandas imported after, that pyarrow
# still converts to and from pandas in that process.
_PROBE = """
import json, os, sys
unused = set(sys.argv[3].split(","))
forks = []
os.register_at_fork(before=lambda: forks.append(1))
sys.argv = ["handlog", "import", "--db", sys.argv[1], sys.argv[2]]
from handlog.cli import main
try:
    main()
except SystemExit as exit:
    code = exit.code
loaded = sorted({name.split(".")[0] for name in sys.modules} & unused)
site_modules = sorted(name for name in sys.modules if name.startswith("handlog.parse.sites."))
import pandas as pd
import pyarrow as pa
frame = pa.Table.from_pandas(pd.DataFrame({"a": [1, 2]})).to_pandas()
print(json.dumps({"code": code, "loaded": loaded, "forks": len(forks), "rows": len(frame),
                  "sites": site_modules}))
"""


def test_one_hand_import_loads_what_it_uses(tmp_path: Path) -> None:
    db = tmp_path / "new.duckdb"
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            _PROBE,
            str(db),
            str(HAND),
            ",".join(NOT_IMPORTED + NOT_IMPORTED_FOR_A_FEW_HANDS),
        ],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["code"] in (0, None), done.stdout
    assert report["loaded"] == [], f"imported by handlog import: {report['loaded']}"
    # Of the site modules, the one whose format the file is in (the first tried).
    assert report["sites"] == ["handlog.parse.sites.pokerstars"]
    assert report["forks"] == 0  # read here: no worker processes for one hand
    assert report["rows"] == 2  # pyarrow still converts pandas' frames, both ways
    # And the import did all its work: the hand stored. The server's summary tables are
    # not made for a database never served (the server's first catch-up makes them).
    with duckdb.connect(str(db), read_only=True) as connection:
        assert connection.execute("SELECT count(*) FROM hands").fetchone() == (1,)
        made = connection.execute(
            "SELECT count(*) FROM duckdb_tables() WHERE table_name LIKE 'serve_%'"
        ).fetchone()
        assert made == (0,)


# Runs `handlog check` of one hand as the console script does, then says which of the
# packages given it imported.
_CHECK_PROBE = """
import sys
unused = set(sys.argv[2].split(","))
sys.argv = ["handlog", "check", sys.argv[1]]
from handlog.cli import main
try:
    main()
except SystemExit as exit:
    code = exit.code
print(code, ",".join(sorted({name.split(".")[0] for name in sys.modules} & unused)))
"""


def test_one_hand_check_loads_no_store_and_no_numpy() -> None:
    """`handlog check` reads and replays: it has no use for the store (DuckDB, pyarrow),
    nor for NumPy, which only the evaluator's batches use (one hand at a time is ranked
    without them: tests/test_evaluate_one_hand.py)."""
    unused = (*NOT_IMPORTED, "duckdb", "pyarrow", "numpy", "polars")
    done = subprocess.run(
        [sys.executable, "-c", _CHECK_PROBE, str(HAND), ",".join(unused)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.split("\n")[-2].split(" ") == ["0", ""], done.stdout


# Parses a hand in a new process, then says how many hands it read and whether it had to
# compile the grammar's definitions (`grammar._definitions`) to classify their lines.
_GRAMMAR_PROBE = """
import sys
from handlog.parse import grammar, parse_file
read = list(parse_file(sys.argv[1]))
print(len(read), grammar._definitions.cache_info().currsize, "lark" in sys.modules)
"""


def test_the_grammars_facts_are_derived_once_and_read_by_the_next_process(tmp_path: Path) -> None:
    folder = tmp_path / "cache"

    def parse_in_new_process(cache: Path) -> list[str]:
        done = subprocess.run(
            [sys.executable, "-c", _GRAMMAR_PROBE, str(HAND)],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "HANDLOG_CACHE_DIR": str(cache)},
        )
        return done.stdout.split()

    assert parse_in_new_process(folder) == ["1", "1", "True"]  # derived, and kept
    # Read back: nothing compiled, and the header's game remembered: Lark not even loaded.
    assert parse_in_new_process(folder) == ["1", "0", "False"]
    kept = folder / "grammar-pokerstars.json"
    assert json.loads(kept.read_text())["patterns"]["header,body"]
    (games,) = folder.glob("game-info-pokerstars-*.jsonl")
    assert sorted(path.name for path in folder.iterdir()) == [
        games.name,
        "grammar-pokerstars.json",
        "lark-pokerstars-header-body.pickle",
    ]
    ((header, info),) = [json.loads(line) for line in games.read_text().splitlines()]
    assert (
        "STUD HI/LO" in header.upper()
        and info["game"] == Game.STUD8.value
        and info["small_bet"] > 0
    )
    with games.open("a", encoding="utf-8") as handle:
        handle.write('["a line cut sh')  # a process stopped while writing it: passed over
    assert parse_in_new_process(folder) == ["1", "0", "False"]
    kept.write_text('{"key": "of other grammars"', encoding="utf-8")  # cut short, and stale
    assert parse_in_new_process(folder) == ["1", "1", "True"]  # derived again
    assert json.loads(kept.read_text())["key"] != "of other grammars"
    # A folder that cannot be made (under a file) costs the time only.
    (tmp_path / "a file").write_text("", encoding="utf-8")
    assert parse_in_new_process(tmp_path / "a file" / "cache") == ["1", "1", "True"]


# Parses every fixture of the sites whose headers are read through Lark and prints what it
# read, as text.
_FIXTURES_PROBE = """
import sys
from pathlib import Path
from typing import Any
from handlog.parse import parse_file
for path in sys.argv[1:]:
    for parsed in parse_file(path):
        print(repr(parsed))
"""


def test_a_remembered_header_reads_as_the_grammar_reads_it(tmp_path: Path) -> None:
    """Every site fixture of the sites that read their headers' game with Lark parses to
    the same records in a process that derives each header's game and in one that finds
    them remembered (`SectionGrammar.game_info`)."""
    files = [
        str(path)
        for site in ("pokerstars", "fulltilt", "bovada", "partypoker", "winamax", "winning")
        for path in sorted((SITES / site).glob("*.txt"))
    ]
    assert len(files) > 20

    def parsed(cache: Path) -> str:
        return subprocess.run(
            [sys.executable, "-c", _FIXTURES_PROBE, *files],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "HANDLOG_CACHE_DIR": str(cache)},
        ).stdout

    derived = parsed(tmp_path)
    remembered = sorted(tmp_path.glob("game-info-*.jsonl"))
    assert len(remembered) == 6 and derived.count("Hand(") >= 40
    assert parsed(tmp_path) == derived


def _site_files() -> list[Path]:
    """Every site's fixture texts, faults included (parse errors, flagged hands and their
    evidence, skipped hands, all-ins with equities)."""
    return sorted(
        path for path in SITES.glob("*/*") if path.suffix in (".txt", ".xml", ".phh", ".phhs")
    )


def test_a_few_hands_rows_are_stored_as_their_arrow_tables_are(tmp_path: Path) -> None:
    """`store.Rows` (a part read by the importing process itself, `ingest.read_part`'s
    `here`) and Arrow tables of the same rows (as `store.Batch.arrow` makes them) store the
    same values, type for type, in every table."""
    import pyarrow as pa

    files = _site_files()
    assert len(files) > 40
    parts = []
    for path in files:
        result = ingest.read_part(str(path), None, 1, None, here=True)
        assert result.error is None, (path, result.error)
        assert {type(table) for table in result.tables.values()} == {store.Rows}
        parts.append(result.tables)
    ingest.arrow_without_pandas()
    stored: dict[str, dict[str, list[tuple[object, ...]]]] = {}
    for kind in ("rows", "arrow"):
        connection = store.connect(tmp_path / f"{kind}.duckdb")
        connection.execute("BEGIN TRANSACTION")
        for tables in parts:
            if kind == "arrow":
                tables = {name: pa.table(rows.columns) for name, rows in tables.items()}
            store.load(connection, tables)
        connection.execute("COMMIT")
        stored[kind] = {
            name: connection.execute(f"SELECT * FROM {name} ORDER BY ALL").fetchall()
            for name in (*store.TABLES, "text_blocks", "parse_errors", "skipped")
        }
        connection.close()
    for name, rows in stored["arrow"].items():
        assert stored["rows"][name] == rows, name
    for name in ("hands", "hand_evidence", "equities", "parse_errors", "skipped"):
        assert stored["rows"][name], f"no {name} rows: the fixtures no longer cover them"


def test_more_hands_than_a_few_go_as_arrow(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ingest, "PYTHON_ROWS", 0)
    result = ingest.read_part(str(HAND), None, 1, None, here=True)
    assert {type(table).__name__ for table in result.tables.values()} == {"Table"}


# Prepares for workers as the importer does, then says which site modules are loaded and
# which of the formats' line patterns have been compiled.
_WARM_PROBE = """
import json, sys
from handlog import ingest
ingest.prepare_workers(sys.argv[1:] or None)
loaded = sorted(n for n in sys.modules if n.startswith("handlog.parse.sites."))
print(json.dumps({"sites": loaded, "duckdb": "duckdb" in sys.modules}))
"""


def test_workers_are_forked_with_the_formats_of_the_files_already_read(tmp_path: Path) -> None:
    """Before the workers fork, the importing process reads one hand of each format among
    the first files to import (`ingest._warm_up`): the site's module and what its parser
    builds on first use are then the workers' already. Files it cannot read or detect are
    passed over (the import reports them); without files, nothing is read."""
    garbage = tmp_path / "garbage.txt"
    garbage.write_bytes(b"\x00\xff not a hand\n" * 50)
    missing = tmp_path / "missing.txt"
    folder = tmp_path / "folder"
    folder.mkdir()

    def probed(*paths: Path) -> dict[str, Any]:
        probe = subprocess.run(
            [sys.executable, "-c", _WARM_PROBE, *map(str, paths)],
            capture_output=True,
            text=True,
            check=True,
            cwd=tmp_path,
        )
        assert probe.stderr == ""
        return json.loads(probe.stdout)  # type: ignore[no-any-return]

    assert "handlog.parse.sites.pokerstars" not in probed()["sites"]
    warm = probed(missing, folder, garbage, HAND)
    assert "handlog.parse.sites.pokerstars" in warm["sites"]
    # DuckDB is not loaded for the workers (the Arrow schemas, derived by DuckDB on a first
    # run, are read from the cache folder after it; its version from its metadata).
    assert not warm["duckdb"]


def test_a_warm_up_read_stops_after_its_hands(tmp_path: Path) -> None:
    """`_read_into(..., hands=1)` (the warm-up's read) stores the first hand of a file of
    many and stops there; without `hands`, every hand."""
    path = ROOT / "sample_logs" / "7-Stud-USD-0.04-0.08-200911.txt"
    counts = []
    for hands in (1, None):
        batch = store.Batch()
        result = ingest._read_into(
            batch, str(path), None, 1, None, ingest._Clock(), [], hands=hands
        )
        assert result.error is None
        counts.append((result.counts["hands"], len(batch.columns["hands"]["hand_id"])))
    assert counts[0] == (1, 1)
    assert counts[1][0] == counts[1][1] > 1
