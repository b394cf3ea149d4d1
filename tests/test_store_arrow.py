"""The Arrow tables a worker hands to the store are of the columns' declared types."""

from __future__ import annotations

import os

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from handlog import store
from handlog.check import check_file

from .conftest import ROOT

# DuckDB's name of each column type the store declares, and the Arrow type a batch gives it.
_DUCKDB_TO_ARROW = {
    "VARCHAR": pa.string(),
    "BIGINT": pa.int64(),
    "INTEGER": pa.int32(),
    "BOOLEAN": pa.bool_(),
    "DOUBLE": pa.float64(),
    "BLOB": pa.binary(),
    "TIMESTAMP WITH TIME ZONE": pa.timestamp("us", tz="UTC"),
    "VARCHAR[]": pa.list_(pa.field("l", pa.string())),
}


def test_every_batch_table_has_the_types_the_database_declares(tmp_path):
    connection = store.connect(tmp_path / "h.duckdb")
    schemas = store.arrow_schemas()
    assert set(schemas) == set(store.COLUMNS)
    for name, columns in store.COLUMNS.items():
        declared = dict(
            connection.execute(
                "SELECT column_name, data_type FROM information_schema.columns "
                "WHERE table_name = ? ORDER BY ordinal_position",
                [name],
            ).fetchall()
        )
        assert list(declared) == list(columns), name  # rows are inserted with SELECT *
        schema = schemas[name]
        assert schema.names == list(columns)
        for column in columns:
            assert schema.field(column).type == _DUCKDB_TO_ARROW[declared[column]], (name, column)


def test_compressed_bytes_are_stored_as_they_are(tmp_path):
    """The hands' text blocks (zstd) and the evidence's texts (zlib) are not compressed again
    by DuckDB (whose compression, tried on them at every checkpoint, gains nothing): in a new
    database every stored segment of those columns is uncompressed, and the hands' texts of an
    import read back whole."""
    import zlib

    from handlog.importer import import_paths
    from handlog.texts import load_texts

    db = tmp_path / "h.duckdb"
    logs = sorted(str(path) for path in (ROOT / "sample_logs").iterdir() if path.is_file())
    assert import_paths(logs, db, workers=1).hands > 0
    connection = store.connect(db)
    packed = [zlib.compress(os.urandom(3_000)) for _ in range(2_000)]
    connection.execute(
        "INSERT INTO text_blocks (block, data) SELECT range, $1[range + 1] FROM range(2000)",
        [packed],
    )
    connection.execute(
        "INSERT INTO hand_evidence (site, hand_id, text) SELECT 's', 'h', unnest($1)", [packed]
    )
    connection.execute("CHECKPOINT")
    for table, column in (("text_blocks", "data"), ("hand_evidence", "text")):
        found = connection.execute(
            f"SELECT DISTINCT compression FROM pragma_storage_info('{table}') "
            "WHERE column_name = ? AND segment_type = 'BLOB'",
            [column],
        ).fetchall()
        assert found == [("Uncompressed",)], (table, found)
    keys = connection.execute("SELECT site, hand_id FROM hands").fetchall()
    texts = load_texts(connection, keys)
    assert len(texts) == len(keys)


def test_a_column_without_a_value_keeps_its_type_and_the_rows_their_values(tmp_path):
    batch = store.Batch()
    path = ROOT / "sample_logs"
    hands = [
        checked
        for file in sorted(path.rglob("*.txt"))[:3]
        for checked in check_file(file)
        if checked.hand is not None
    ]
    assert hands
    for checked in hands:
        store.add_checked(batch, checked)
    tables = batch.arrow()
    hands_table = tables["hands"]
    assert hands_table.schema == store.arrow_schemas()["hands"]
    # No sample hand is of a home game: the column is all NULL, yet a string column (pyarrow
    # left to infer would make it of the null type, and a Parquet part of another type).
    assert hands_table.column("home_game").null_count == hands_table.num_rows
    assert hands_table.column("home_game").type == pa.string()
    # The values are the rows' own, as pyarrow infers them.
    for name, columns in batch.columns.items():
        if name not in tables:
            continue
        inferred = pa.table({column: values for column, values in columns.items()})
        assert tables[name].to_pylist() == inferred.to_pylist(), name


@pytest.mark.parametrize("preset", [None, "4"])
def test_the_cli_keeps_numpy_from_starting_blas_threads(monkeypatch, preset):
    """NumPy's OpenBLAS threads spin a tenth of a second after it is loaded: handlog does no
    linear algebra, so its commands run it on one thread, unless the user says otherwise."""
    from handlog import cli

    if preset is None:
        monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    else:
        monkeypatch.setenv("OPENBLAS_NUM_THREADS", preset)
    seen = []
    monkeypatch.setattr(cli, "app", lambda: seen.append(os.environ.get("OPENBLAS_NUM_THREADS")))
    cli.main()
    assert seen == [preset or "1"]


@pytest.fixture
def fresh_schemas(tmp_path, monkeypatch):
    """`arrow_schemas` as in a new process, with the cache folder `tmp_path / "cache"`."""
    monkeypatch.setenv("HANDLOG_CACHE_DIR", str(tmp_path / "cache"))
    kept = dict(store._ARROW_SCHEMAS)
    store._ARROW_SCHEMAS.clear()
    yield tmp_path / "cache"
    store._ARROW_SCHEMAS.clear()
    store._ARROW_SCHEMAS.update(kept)


def test_the_schemas_are_kept_for_the_next_process_and_read_back_equal(fresh_schemas):
    derived = store._derived_schemas()
    first = dict(store.arrow_schemas())  # derived, and kept
    (kept,) = fresh_schemas.glob("arrow-schemas-*.bin")
    store._ARROW_SCHEMAS.clear()
    assert store._kept_schemas() is not None
    second = dict(store.arrow_schemas())  # read back
    assert first == second == derived
    assert all(second[name].names == list(columns) for name, columns in store.COLUMNS.items())
    (still,) = fresh_schemas.glob("arrow-schemas-*.bin")
    assert still == kept


@pytest.mark.parametrize(
    "spoil",
    ["empty", "cut", "garbage", "tail", "other-columns"],
)
def test_a_spoiled_schemas_file_is_derived_again(fresh_schemas, spoil):
    """A kept file that is not exactly every table's schema in order (cut short, other
    bytes, bytes after it, another table's columns) is not used: the schemas are derived
    again (and kept again)."""
    store.arrow_schemas()
    (path,) = fresh_schemas.glob("arrow-schemas-*.bin")
    data = path.read_bytes()
    wrong = pa.schema([("x", pa.int64())]).serialize().to_pybytes()
    path.write_bytes(
        {
            "empty": b"",
            "cut": data[: len(data) // 2],
            "garbage": os.urandom(len(data)),
            "tail": data + b"\0",
            "other-columns": len(wrong).to_bytes(8, "little") + wrong + data,
        }[spoil]
    )
    assert store._kept_schemas() is None
    store._ARROW_SCHEMAS.clear()
    assert store.arrow_schemas() == store._derived_schemas()
    assert store._kept_schemas() is not None  # written again


def test_schemas_are_derived_without_a_cache_folder(tmp_path, monkeypatch):
    """A cache folder that cannot be made (a file stands in its path) only costs the
    derivation."""
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("HANDLOG_CACHE_DIR", str(blocker / "cache"))
    kept = dict(store._ARROW_SCHEMAS)
    store._ARROW_SCHEMAS.clear()
    try:
        assert store.arrow_schemas() == store._derived_schemas()
        assert blocker.read_text() == ""
    finally:
        store._ARROW_SCHEMAS.clear()
        store._ARROW_SCHEMAS.update(kept)


_IDS = st.lists(st.text(alphabet="ab9é€😀-", max_size=6), max_size=25)


@settings(max_examples=200, deadline=None)
@given(ids=_IDS, data=st.data())
def test_a_hand_id_repeated_over_its_rows_is_what_take_gives(ids, data):
    """`_repeated` (the hands' IDs over their players' and actions' rows, built from the
    column's buffers) is `take` of each hand's index its count of times: from a column in one
    piece, a slice of one (its offsets not from 0) and two pieces."""
    import numpy as np

    counts = data.draw(st.lists(st.integers(0, 4), min_size=len(ids), max_size=len(ids)))
    sizes = np.array(counts, dtype=np.int64)
    shape = data.draw(st.sampled_from(["whole", "slice", "pieces"]))
    if shape == "slice":
        column = pa.chunked_array([pa.array(["x", "yy", *ids], pa.string()).slice(2)], pa.string())
    elif shape == "pieces":
        cut = len(ids) // 2
        column = pa.chunked_array(
            [pa.array(ids[:cut], pa.string()), pa.array(ids[cut:], pa.string())], pa.string()
        )
    else:
        column = pa.chunked_array([pa.array(ids, pa.string())], pa.string())
    made = store._repeated(column, sizes)
    made.validate(full=True)
    assert made.type == pa.string()
    assert made.to_pylist() == [
        hand for hand, count in zip(ids, sizes, strict=True) for _ in range(count)
    ]


@pytest.mark.parametrize("first", [0, 2])
def test_hand_ids_of_one_length_are_repeated_from_one_slice(first):
    """IDs all as long (a site's hands', mostly): the rows of one slice of the buffer, from a
    column whose first string is not at its buffer's start too."""
    import numpy as np

    ids = [str(250_000_000_000 + 7 * number) for number in range(50)]
    column = pa.chunked_array(
        [pa.array(["x", "yy", *ids], pa.string()).slice(2)] if first else [ids]
    )
    sizes = np.arange(50, dtype=np.int64) % 5
    made = store._repeated(column, sizes)
    made.validate(full=True)
    assert made.to_pylist() == [
        hand for hand, count in zip(ids, sizes, strict=True) for _ in range(count)
    ]


def test_an_import_never_loads_pyarrow_compute(tmp_path):
    """No process of an import needs `pyarrow.compute` (some 40 ms to import, before the
    workers fork when the first tables are made): the importing process, after an import
    with two workers (whose first tables it made to warm them up), has not loaded it."""
    import subprocess
    import sys

    source = ROOT / "tests" / "sites" / "pokerstars"
    files = sorted(str(path) for path in source.glob("*.txt"))[:3]
    script = (
        "import sys; from pathlib import Path; from handlog.importer import import_paths; "
        f"summary = import_paths({files!r}, Path({str(tmp_path / 'h.duckdb')!r}), workers=2); "
        "print(summary.hands, 'pyarrow.compute' in sys.modules, 'pyarrow' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", script], capture_output=True, text=True, check=True
    )
    hands, compute, arrow = done.stdout.split()
    assert int(hands) > 0 and arrow == "True"
    assert compute == "False"


@pytest.mark.parametrize("name", ["duckdb", "pyarrow"])
def test_an_installed_version_is_read_as_its_metadata_says(name):
    from importlib.metadata import version

    assert store._installed_version(name) == version(name)
