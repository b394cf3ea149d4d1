"""`handlog import --engine dask`: the same hands, through a two-worker local Dask cluster
into a Parquet dataset, give the same tables and the same report as the DuckDB import; a
rerun imports nothing, a grown file is continued, a worker killed mid-task has its range run
again, and a rerun after a crash finishes the job."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

pytest.importorskip("distributed")

from polars.testing import assert_frame_equal  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from handlog import importer, store  # noqa: E402
from handlog.cli import app  # noqa: E402
from handlog.dataset import PARTS, Dataset, connect, import_dataset  # noqa: E402
from handlog.model import Game  # noqa: E402
from handlog.report import build  # noqa: E402
from handlog.report.data import Filters  # noqa: E402
from handlog.simulate import SimulationOptions, write_simulation  # noqa: E402
from tests.conftest import SAMPLE_LOGS  # noqa: E402

RANGE_BYTES = 64 << 10
"""Small ranges: every simulated file is cut into several parts (several tasks)."""


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """sample_logs/, three simulated files (with injected faults: flags and evidence), and
    a copy of a sample file (the same hands in two files), in path order."""
    folder = tmp_path_factory.mktemp("logs")
    for name in sorted(os.listdir(SAMPLE_LOGS)):
        shutil.copy(SAMPLE_LOGS / name, folder / name)
    shutil.copy(SAMPLE_LOGS / "Razz-USD-0.04-0.08-200911.txt", folder / "zz-copy.txt")
    for seed, game in enumerate((Game.STUD, Game.STUD8, Game.RAZZ)):
        options = SimulationOptions(game, 150, 6, seed, fault_rate=0.1)
        write_simulation(options, folder / f"sim-{game.value}.txt")
    return sorted(str(path) for path in folder.glob("*.txt"))


@pytest.fixture(scope="module")
def scheduler(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """A local cluster of two worker processes, one thread each (what CI runs); its
    workers inherit the small range size, and have the (disarmed) `dask_faults.KillOnce`."""
    from distributed import Client, LocalCluster

    from tests.dask_faults import KillOnce

    armed = tmp_path_factory.mktemp("kill") / "killed"
    armed.touch()  # disarmed: a task kills its worker only once this file is gone
    saved = {name: os.environ.get(name) for name in ("HANDLOG_RANGE_BYTES",)}
    os.environ["HANDLOG_RANGE_BYTES"] = str(RANGE_BYTES)
    cluster = LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    )
    try:
        with Client(cluster.scheduler_address) as client:
            client.register_plugin(KillOnce(str(armed)))  # workers started later get it too
        yield cluster.scheduler_address, armed
    finally:
        cluster.close()
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _duckdb_import(files: list[str], db: Path) -> importer.ImportSummary:
    saved = importer.RANGE_BYTES
    importer.RANGE_BYTES = RANGE_BYTES
    try:
        return importer.import_paths(files, db, workers=1)
    finally:
        importer.RANGE_BYTES = saved


TEXT_LAYOUT = ("hand_texts", "text_blocks")
"""How texts lie in blocks: a DuckDB import puts the texts of small files read together
in shared blocks (`ingest.read_files`), the engine a file's in its own; the texts are the
same (`_rows` compares them)."""


def _rows(connection) -> dict[str, list[tuple]]:  # type: ignore[no-untyped-def]
    from handlog.texts import load_texts

    rows = {
        # As text: timestamps with a time zone would need pytz to come back as Python values.
        table: connection.execute(
            f"SELECT COLUMNS(*)::VARCHAR FROM {table} ORDER BY ALL"
        ).fetchall()
        for table in store.COLUMNS
        if table not in TEXT_LAYOUT
    }
    keys = connection.execute("SELECT site, hand_id FROM hand_texts").fetchall()
    rows["texts"] = sorted(
        (text.site, text.hand_id, text.file, text.line, text.text, text.head)
        for text in load_texts(connection, keys).values()
    )
    return rows


def _same_tables(dataset: Dataset, db: Path) -> dict[str, list[tuple]]:
    """Every table's rows, both ways, equal (returned)."""
    import duckdb

    reference = duckdb.connect(str(db), read_only=True)
    try:
        expected = _rows(reference)
    finally:
        reference.close()
    connection = connect(dataset)
    try:
        found = _rows(connection)
    finally:
        connection.close()
    for table in found:
        assert len(found[table]) == len(expected[table]), table
        assert found[table] == expected[table], table
    return found


def test_the_same_hands_both_ways_give_the_same_tables_and_report(
    inputs: list[str], scheduler, tmp_path: Path
) -> None:
    address, _ = scheduler
    dataset = Dataset(str(tmp_path / "ds"))
    db = tmp_path / "h.duckdb"
    summary = import_dataset(inputs, dataset, scheduler=address)
    reference = _duckdb_import(inputs, db)
    assert not summary.failed and summary.workers == 2
    assert summary.parts > len(inputs)  # the simulated files are cut into several ranges
    assert summary.new_hands == reference.new_hands
    assert summary.duplicates == reference.duplicates > 0  # the copied file
    assert summary.flagged_illegal == reference.flagged_illegal > 0
    rows = _same_tables(dataset, db)
    assert rows["violations"] and rows["hand_evidence"]

    # Nets and flags, as the audit asks them.
    import duckdb

    queries = (
        "SELECT player, sum(net), count(*) FROM hand_players GROUP BY ALL ORDER BY ALL",
        "SELECT code, count(*) FROM violations GROUP BY ALL ORDER BY ALL",
        "SELECT status, illegal, mis_split, count(*) FROM hands GROUP BY ALL ORDER BY ALL",
    )
    with duckdb.connect(str(db), read_only=True) as reference_connection:
        expected = [reference_connection.execute(q).fetchall() for q in queries]
    with connect(dataset) as connection:
        assert [connection.execute(q).fetchall() for q in queries] == expected

    # The report: every table equal.
    from_db = build(db, tmp_path / "r1", Filters(), "json")
    from_dataset = build(dataset, tmp_path / "r2", Filters(), "json")
    assert from_db.hands == from_dataset.hands == reference.new_hands
    assert from_db.tables.keys() == from_dataset.tables.keys()
    for name, frame in from_db.tables.items():
        # Every row the same. In rows order: the report sorts some tables by a count alone,
        # and rows of equal counts come in Polars' group order, which varies from run to run
        # (the same database reported twice too). Floats (standard deviations, intervals)
        # summed by DuckDB in another row order may differ in their last bit: 12 digits.
        assert_frame_equal(
            frame.sort(frame.columns),
            from_dataset.tables[name].sort(frame.columns),
            check_exact=False,
            rel_tol=1e-12,
        )
    assert from_db.summary == from_dataset.summary
    # The report as written (Markdown, its figures rounded for display) has the same lines
    # (in the order above), but for the source it names.
    written = [
        build(source, tmp_path / f"md{n}", Filters(), "md").paths[0].read_text()
        for n, source in enumerate((db, dataset))
    ]
    from handlog.report.render import markdown_text

    def lines(text: str, source: str) -> list[str]:
        text = text.replace(markdown_text(source), "SOURCE")
        return sorted(re.sub(r"written \d{4}-\d\d-\d\d \d\d:\d\d", "written", text).splitlines())

    assert lines(written[0], str(db)) == lines(written[1], str(dataset))

    # A rerun, through the CLI: every file unchanged, nothing written.
    runner = CliRunner()
    command = ["import", "--engine", "dask", "--scheduler", address, "--dataset", str(dataset)]
    again = runner.invoke(app, [*command, *inputs])
    assert again.exit_code == 0, again.output
    assert f"{len(inputs)} files ({len(inputs)} unchanged), 0 parts" in again.output
    assert "0 hands (0 new" in again.output
    assert _same_tables(dataset, db)

    # The reading commands, through the CLI.
    flagged = rows["violations"][0][1]
    shown = runner.invoke(app, ["show", flagged, "--dataset", str(dataset), "--no-color"])
    assert shown.exit_code == 0, shown.output
    assert flagged in shown.output
    checked = runner.invoke(app, ["check", "--dataset", str(dataset)])
    assert checked.exit_code == 1  # flags found
    assert f"{summary.flagged_illegal} flagged illegal" in checked.output
    for source in (["--db", str(db)], ["--dataset", str(dataset)]):
        out = tmp_path / ("export-" + source[0].strip("-"))
        exported = runner.invoke(app, ["export", *source, "--out", str(out)])
        assert exported.exit_code == 0, exported.output
    assert (
        runner.invoke(app, ["export", "--db", str(db), "--out", str(tmp_path / "x")]).output
    ).replace(str(tmp_path / "x"), "") == (
        runner.invoke(app, ["export", "--dataset", str(dataset), "--out", str(tmp_path / "x")])
    ).output.replace(str(tmp_path / "x"), "")


def test_a_grown_file_is_continued(scheduler, tmp_path: Path) -> None:
    address, _ = scheduler
    log = tmp_path / "live.txt"
    write_simulation(SimulationOptions(Game.STUD8, 200, 6, 5, fault_rate=0.1), log)
    text = log.read_text(encoding="utf-8")
    cut = text.index("*** SUMMARY ***", len(text) // 2)  # the last hand half written
    log.write_text(text[:cut], encoding="utf-8")
    dataset = Dataset(str(tmp_path / "ds"))
    db = tmp_path / "h.duckdb"
    first = import_dataset([str(log)], dataset, scheduler=address)
    assert _duckdb_import([str(log)], db).unparsed == first.unparsed == 1
    _same_tables(dataset, db)
    log.write_text(text, encoding="utf-8")
    grown = import_dataset([str(log)], dataset, scheduler=address)
    reference = _duckdb_import([str(log)], db)
    assert grown.hands == reference.hands < 200  # from the last hand on, not from the start
    assert grown.new_hands == reference.new_hands
    rows = _same_tables(dataset, db)
    assert len(rows["hands"]) == 200 and not rows["parse_errors"]  # the half hand's error gone


def test_a_worker_killed_mid_task_has_its_range_run_again(
    inputs: list[str], scheduler, tmp_path: Path
) -> None:
    address, armed = scheduler
    armed.unlink()  # the next part task kills its worker once it has written its tables
    dataset = Dataset(str(tmp_path / "ds"))
    summary = import_dataset(inputs, dataset, scheduler=address)
    assert armed.exists()  # a worker was killed
    assert not summary.failed
    db = tmp_path / "h.duckdb"
    reference = _duckdb_import(inputs, db)
    assert summary.new_hands == reference.new_hands
    _same_tables(dataset, db)


def test_a_rerun_after_a_crash_finishes_the_job(
    inputs: list[str], scheduler, tmp_path: Path
) -> None:
    address, _ = scheduler
    dataset = Dataset(str(tmp_path / "ds"))
    import_dataset(inputs, dataset, scheduler=address)
    # As if the client had died part way: no file finished (no manifest), half the parts
    # not written (no marker; their tables, renamed or not, are not read).
    root = Path(dataset.url)
    shutil.rmtree(root / "_imports")
    markers = sorted((root / PARTS).glob("*.json"))
    for marker in markers[::2]:
        marker.unlink()
    rerun = import_dataset(inputs, dataset, scheduler=address)
    assert not rerun.failed and rerun.unchanged == 0
    assert rerun.parts_before == len(markers) - len(markers[::2])
    db = tmp_path / "h.duckdb"
    _duckdb_import(inputs, db)
    _same_tables(dataset, db)
    assert import_dataset(inputs, dataset, scheduler=address).unchanged == len(inputs)


def test_clear_errors_for_a_bad_scheduler_or_dataset(tmp_path: Path) -> None:
    runner = CliRunner()
    log = str(SAMPLE_LOGS / "Razz-USD-0.04-0.08-200911.txt")
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    unwritable = runner.invoke(
        app, ["import", "--engine", "dask", "--dataset", str(blocker / "ds"), log]
    )
    assert unwritable.exit_code == 4
    assert "cannot write the dataset" in unwritable.output
    assert "Traceback" not in unwritable.output
    unreachable = runner.invoke(
        app,
        [
            "import",
            "--engine",
            "dask",
            "--scheduler",
            "tcp://127.0.0.1:9",
            "--dataset",
            str(tmp_path / "ds"),
            log,
        ],
    )
    assert unreachable.exit_code == 4
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in unreachable.output
    no_dataset = runner.invoke(app, ["import", "--engine", "dask", log])
    assert no_dataset.exit_code == 2
    missing = runner.invoke(app, ["report", "--dataset", str(tmp_path / "none")])
    assert missing.exit_code == 2 and "no handlog dataset" in missing.output
