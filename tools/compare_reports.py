"""Compare two `handlog report --format json` files table by table: the same columns, the
same rows (in one order, since the tables' orders leave ties open), numbers equal to 1e-9.

    python tools/compare_reports.py before/report.json after/report.json

Used to check that a change to how the report computes its tables changes none of them.
Exit code 1 and the first difference of each table that differs.
"""

from __future__ import annotations

import json
import math
import sys


def _key(row: dict[str, object]) -> tuple[object, ...]:
    return tuple((value is None, str(value)) for value in row.values())


def _same(a: object, b: object) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        if a is None or b is None:
            return a is b
        x, y = float(a), float(b)  # type: ignore[arg-type]
        return (math.isnan(x) and math.isnan(y)) or math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-9)
    return a == b


def compare(
    before: dict[str, list[dict[str, object]]], after: dict[str, list[dict[str, object]]]
) -> list[str]:
    problems = []
    for name in sorted(set(before) | set(after)):
        old, new = before.get(name), after.get(name)
        if old is None or new is None:
            problems.append(f"{name}: only in {'after' if old is None else 'before'}")
            continue
        if len(old) != len(new):
            problems.append(f"{name}: {len(old)} rows before, {len(new)} after")
            continue
        if old and list(old[0]) != list(new[0]):
            problems.append(f"{name}: columns {list(old[0])} before, {list(new[0])} after")
            continue

        # Rows are matched after rounding floats, so that 1e-15 differences sort alike.
        def rounded(row: dict[str, object]) -> dict[str, object]:
            return {k: round(v, 6) if isinstance(v, float) else v for k, v in row.items()}

        old_sorted = sorted(old, key=lambda row: _key(rounded(row)))
        new_sorted = sorted(new, key=lambda row: _key(rounded(row)))
        for a, b in zip(old_sorted, new_sorted, strict=True):
            bad = [k for k in a if not _same(a[k], b[k])]
            if bad:
                problems.append(
                    f"{name}: {bad[0]} {a[bad[0]]!r} before, {b[bad[0]]!r} after in {a}"
                )
                break
    return problems


def main() -> int:
    before_path, after_path = sys.argv[1:3]
    with open(before_path, encoding="utf-8") as handle:
        before = json.load(handle)["tables"]
    with open(after_path, encoding="utf-8") as handle:
        after = json.load(handle)["tables"]
    problems = compare(before, after)
    for problem in problems:
        print(problem)
    rows = sum(len(rows) for rows in before.values())
    print(f"{len(before)} tables, {rows:,} rows: {'equal' if not problems else 'DIFFERENT'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
