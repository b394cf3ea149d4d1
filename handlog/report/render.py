"""Write a report's tables as Markdown, self-contained HTML, CSV files or JSON.

A `Table` is a Polars frame plus how to show each column. CSV and JSON keep the raw values
(money in integer minor units, shares as fractions) so that other tools can read them
exactly; Markdown, HTML and the terminal show them for people ("$1.25", "42.0%"). Every
value that comes from a hand history (player and table names, messages, file names) is
escaped in HTML: names are chosen by players and must be treated as hostile.
"""

from __future__ import annotations

import base64
import datetime as dt
import html
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from handlog import units

MONEY, RATE, PCT, NUM, INT, TEXT, TIME = "money", "rate", "pct", "num", "int", "text", "time"
DAY = "day"
"""A date, or "unknown" (a hand whose time its site did not print)."""
UNKNOWN_DAY = "unknown"


@dataclass
class Table:
    key: str
    title: str
    frame: pl.DataFrame
    columns: Sequence[tuple[str, str, str]]
    """(column, header, kind) for the people-facing formats."""
    note: str = ""
    limit: int | None = None
    """Show at most this many rows in Markdown/HTML (CSV and JSON always have all)."""
    link: str | None = None
    """In HTML, this column's cells link to the element whose id is in the frame's
    `anchor` column (no link where it is null)."""
    definitions: dict[str, str] = field(default_factory=dict)
    """What the columns mean, by header: shown beside the table (HTML, Markdown)."""
    _html: tuple[pl.DataFrame, str] | None = field(
        default=None, init=False, repr=False, compare=False
    )

    def html(self) -> str:
        """`html_table`, made once for this frame: a report writes its tables' HTML while
        the statistics are computed, kept as one text per table (a million hands' tables
        have about a million cells: kept as a string each, the report peaked at 1.86-1.91
        GB, as one text per table at 1.78-1.87 GB, in parts of 100,000 hands)."""
        if self._html is None or self._html[0] is not self.frame:
            self._html = (self.frame, html_table(self))
        return self._html[1]


@dataclass
class Section:
    title: str
    tables: list[Table]
    text: str = ""
    charts: list[Path] = field(default_factory=list)
    html: str = ""
    """HTML put after the tables in the HTML report (already escaped where it must be)."""


def money(value: float | int | None, unit: str | None) -> str:
    """An amount in minor units for people: "$1.25", "-€0.04", "1,500" (`units.money`)."""
    return units.money(value, unit)


def cells(values: Sequence[Any], kind: str, units: Sequence[str | None]) -> list[str]:
    """A column's values for people, as `kind` says (units: each row's, for money): a
    column at a time, one loop per kind, where a call per cell cost a second on the
    tables of a million hands. None and NaN are empty."""
    if kind in (MONEY, RATE):
        return [
            "" if v is None or v != v else money(v, unit)
            for v, unit in zip(values, units, strict=True)
        ]
    if kind == PCT:
        return ["" if v is None or v != v else f"{100 * v:.1f}%" for v in values]
    if kind == NUM:
        return ["" if v is None or v != v else f"{v:,.2f}" for v in values]
    if kind == INT:
        return ["" if v is None or v != v else f"{v:,}" for v in values]
    if kind == DAY:
        return [UNKNOWN_DAY if v is None else str(v) for v in values]
    if kind == TIME:
        return [
            ""
            if v is None or v != v
            else v.strftime("%Y-%m-%d %H:%M")
            if isinstance(v, dt.datetime)
            else str(v)
            for v in values
        ]
    return ["" if v is None or v != v else str(v) for v in values]


def rows_for_people(table: Table) -> tuple[list[str], list[list[str]]]:
    headers, columns = columns_for_people(table)
    return headers, [list(row) for row in zip(*columns, strict=True)]


def shown_columns(table: Table) -> list[tuple[str, str, str]]:
    """The columns shown to people: all but the figures empty in every row shown (a column
    that means nothing for the rows' betting structures: BB/100 in pot limit, say)."""
    frame = table.frame if table.limit is None else table.frame.head(table.limit)
    if frame.height == 0:
        return list(table.columns)
    kept = []
    for column in table.columns:
        name, _, kind = column
        if kind not in (TEXT, DAY, TIME) and name in frame.columns:
            values = frame[name]
            if values.null_count() == values.len() or (
                values.dtype.is_float() and bool(values.is_nan().fill_null(True).all())
            ):
                continue
        kept.append(column)
    return kept


def columns_for_people(table: Table) -> tuple[list[str], list[list[str]]]:
    """The headers and each column's cells for people (`cells`), at most `limit` rows."""
    frame = table.frame if table.limit is None else table.frame.head(table.limit)
    shown = shown_columns(table)
    headers = [header for _, header, _ in shown]
    units_ = frame["unit"].to_list() if "unit" in frame.columns else [None] * frame.height
    return headers, [cells(frame[name].to_list(), kind, units_) for name, _, kind in shown]


def _more(table: Table) -> str:
    if table.limit is not None and table.frame.height > table.limit:
        return (
            f"{table.frame.height - table.limit:,} more rows not shown here; "
            f"the CSV and JSON reports have them all."
        )
    return ""


_MARKDOWN_SPECIAL = str.maketrans(
    {
        "&": "&amp;",
        "<": "&lt;",
        ">": "&gt;",
        "\\": "\\\\",
        "|": "\\|",
        "`": "\\`",
        "*": "\\*",
        "_": "\\_",
        "[": "\\[",
        "]": "\\]",
        "\n": " ",
        "\r": " ",
    }
)


def markdown_text(text: str) -> str:
    """`text` as Markdown shows it, never as markup: HTML escaped (a player named
    `<script>alert(1)</script>` is text, whatever renders the file), and the characters of
    Markdown's emphasis, links, code and table cells backslash-escaped."""
    return text.translate(_MARKDOWN_SPECIAL)


def markdown(title: str, intro: str, sections: list[Section], out: Path) -> Path:
    escape = markdown_text
    lines = [f"# {escape(title)}", "", escape(intro), ""]
    lines += ["Contents:", ""]
    for section in sections:
        lines.append(
            f"- {escape(section.title)}: " + ", ".join(escape(t.title) for t in section.tables)
        )
    lines.append("")
    for section in sections:
        lines += [f"## {escape(section.title)}", ""]
        if section.text:
            lines += [escape(section.text), ""]
        for chart in section.charts:
            lines += [f"![{escape(chart.stem)}]({chart.name})", ""]
        for table in section.tables:
            lines += [f"### {escape(table.title)}", ""]
            if table.note:
                lines += [escape(table.note), ""]
            headers, body = rows_for_people(table)
            if not body:
                lines += ["(none)", ""]
                continue
            lines.append("| " + " | ".join(escape(h) for h in headers) + " |")
            lines.append("|" + "|".join("---" for _ in headers) + "|")
            lines += ["| " + " | ".join(escape(c) for c in row) + " |" for row in body]
            more = _more(table)
            lines += ["", more] if more else []
            lines.append("")
            defined = [(h, table.definitions[h]) for h in headers if h in table.definitions]
            if defined:
                lines += [f"- **{escape(h)}**: {escape(text)}" for h, text in defined]
                lines.append("")
    path = out / "report.md"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; max-width: 1400px; }
table { border-collapse: collapse; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; white-space: nowrap; }
th { background: #f0f0f0; position: sticky; top: 0; z-index: 1; }
td.text, th.text { text-align: left; }
td.wrap { white-space: normal; min-width: 14em; max-width: 40em; overflow-wrap: anywhere; }
img { max-width: 100%; display: block; margin: 1em 0; }
p.note { color: #555; font-size: 0.9em; }
div.box { overflow: auto; max-width: 100%; max-height: 32em; margin: 0.5em 0 0.4em;
  border: 1px solid #ddd; }
div.box table { margin: 0; }
dl.defs { font-size: 0.8em; color: #555; margin: 0.2em 0 1.6em; columns: 2 28em; }
dl.defs dt { font-weight: 600; display: inline; }
dl.defs dt::after { content: ": "; }
dl.defs dd { display: inline; margin: 0; }
dl.defs dd::after { content: ""; display: block; margin-bottom: 0.2em; }
nav.toc { background: #f7f7f7; border: 1px solid #ddd; padding: 0.4em 1.2em; margin: 1em 0; }
nav.toc ol { margin: 0.3em 0; padding-left: 1.4em; }
nav.toc li li { font-size: 0.9em; }
"""


def anchor_id(*parts: str) -> str:
    """An HTML id from words: letters, digits and dashes only."""
    text = "-".join(parts).lower()
    return "".join(c if c.isalnum() and c.isascii() else "-" for c in text).strip("-")


CHART_TITLES = {
    "cumulative": "cumulative net won, per player and unit",
    "bb100_by_game": "BB/100 by player, game and unit",
    "flags_by_code": "flags by code",
}


def chart_title(chart: Path) -> str:
    """A chart's name in the table of contents and its image's text."""
    return CHART_TITLES.get(chart.stem, chart.stem.replace("_", " "))


def html_page(title: str, intro: str, sections: list[Section], out: Path) -> Path:
    from handlog.report.hands import STYLE as HANDS_STYLE

    e = html.escape
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{e(title)}</title><style>{_STYLE}{HANDS_STYLE}</style></head><body>",
        f"<h1>{e(title)}</h1>",
        f"<p>{e(intro)}</p>",
        '<nav class="toc"><b>Contents</b><ol>',
    ]
    for section in sections:
        items = "".join(
            f'<li><a href="#{anchor_id("table", t.key)}">{e(t.title)}</a></li>'
            for t in section.tables
        )
        charts = "".join(
            f'<li><a href="#{anchor_id("chart", c.stem)}">chart: {e(chart_title(c))}</a></li>'
            for c in section.charts
        )
        parts.append(
            f'<li><a href="#{anchor_id("section", section.title)}">{e(section.title)}</a>'
            f"<ol>{charts}{items}</ol></li>"
        )
    parts.append("</ol></nav>")
    for section in sections:
        parts.append(f'<h2 id="{anchor_id("section", section.title)}">{e(section.title)}</h2>')
        if section.text:
            parts.append(f'<p class="note">{e(section.text)}</p>')
        for chart in section.charts:
            data = base64.b64encode(chart.read_bytes()).decode("ascii")
            parts.append(
                f'<img id="{anchor_id("chart", chart.stem)}" alt="{e(chart_title(chart))}" '
                f'src="data:image/png;base64,{data}">'
            )
        parts += [table.html() for table in section.tables]
        if section.html:
            parts.append(section.html)
    parts.append("</body></html>")
    path = out / "report.html"
    path.write_text("\n".join(parts), encoding="utf-8")
    return path


_TEXT_KINDS = (TEXT, DAY, TIME)
"""Kinds aligned left."""
_PLAIN_KINDS = (PCT, NUM, INT)
"""Kinds whose cells are only digits, signs, separators and "%": nothing to escape."""


_WRAPPED = ("message", "file", "table_name")
"""Columns of long text, wrapped in their cells (the others stay on one line)."""


def _html_cells(
    texts: list[str], kind: str, anchors: list[str | None] | None, wrap: bool = False
) -> list[str]:
    """A column's `<td>` elements: text left-aligned (and linked to `anchors` if given),
    every cell that may hold something from a hand history escaped."""
    e = html.escape
    if kind in _TEXT_KINDS:
        css = "text wrap" if wrap else "text"
        if anchors is None:
            return [f'<td class="{css}">{e(text)}</td>' for text in texts]
        return [
            f'<td class="{css}">{_linked(e(text), anchor)}</td>'
            for text, anchor in zip(texts, anchors, strict=True)
        ]
    if kind in _PLAIN_KINDS:
        return [f"<td>{text}</td>" for text in texts]
    return [f"<td>{e(text)}</td>" for text in texts]


def html_table(table: Table) -> str:
    """The table in HTML (its title, note, rows in a box that scrolls, how many more the CSV
    has, what its columns mean): the cells that come from a hand history escaped; at most
    `limit` rows."""
    e = html.escape
    parts = [f'<h3 id="{anchor_id("table", table.key)}">{e(table.title)}</h3>']
    if table.note:
        parts.append(f'<p class="note">{e(table.note)}</p>')
    headers, columns = columns_for_people(table)
    if not columns or not columns[0]:
        parts.append("<p>(none)</p>")
        return "\n".join(parts)
    names = [name for name, _, _ in shown_columns(table)]
    kinds = [kind for _, _, kind in shown_columns(table)]
    parts.append(f'<div class="box"><table data-key="{e(table.key)}"><thead><tr>')
    parts += [
        f'<th class="text">{e(h)}</th>' if kind in _TEXT_KINDS else f"<th>{e(h)}</th>"
        for h, kind in zip(headers, kinds, strict=True)
    ]
    parts.append("</tr></thead><tbody>")
    shown = len(columns[0])
    anchors: list[str | None] = [None] * shown
    if table.link is not None and "anchor" in table.frame.columns:
        anchors = table.frame["anchor"].head(shown).to_list()
    tds = [
        _html_cells(texts, kind, anchors if name == table.link else None, name in _WRAPPED)
        for texts, name, kind in zip(columns, names, kinds, strict=True)
    ]
    del columns
    parts += [f"<tr>{''.join(row)}</tr>" for row in zip(*tds, strict=True)]
    parts.append("</tbody></table></div>")
    more = _more(table)
    if more:
        parts.append(f'<p class="note">{e(more)}</p>')
    defined = [(h, table.definitions[h]) for h in headers if h in table.definitions]
    if defined:
        parts.append(
            '<dl class="defs">'
            + "".join(f"<dt>{e(h)}</dt><dd>{e(text)}</dd>" for h, text in defined)
            + "</dl>"
        )
    return "\n".join(parts)


def _linked(text: str, anchor: str | None) -> str:
    """`text` (escaped) as a link to the element with id `anchor` (letters, digits and
    dashes only: see `handlog.evidence.anchor`)."""
    return f'<a href="#{html.escape(anchor)}">{text}</a>' if anchor else text


def raw(table: Table) -> pl.DataFrame:
    """The table's own columns (and its unit), unformatted, for CSV and JSON."""
    names = [name for name, _, _ in table.columns]
    if "unit" in table.frame.columns and "unit" not in names:
        names.insert(1, "unit")
    return table.frame.select(names)


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet takes a cell's text to be a formula (or a command) by, when it starts
with it (OWASP's CSV injection)."""


def neutralised(frame: pl.DataFrame) -> pl.DataFrame:
    """`frame` with every text cell that a spreadsheet would run as a formula (a player named
    `=HYPERLINK(...)`) given a leading `'`, as spreadsheets expect; numbers are left as they
    are (a negative amount is a number, not text)."""
    pattern = "^[=+\\-@\t\r]"
    texts = [name for name, dtype in frame.schema.items() if dtype in (pl.String, pl.Categorical)]
    if not texts:
        return frame
    return frame.with_columns(
        pl.when(pl.col(name).cast(pl.String).str.contains(pattern))
        .then(pl.lit("'") + pl.col(name).cast(pl.String))
        .otherwise(pl.col(name).cast(pl.String))
        .alias(name)
        for name in texts
    )


def csv_files(sections: list[Section], out: Path) -> list[Path]:
    paths = []
    for section in sections:
        for table in section.tables:
            path = out / f"{table.key}.csv"
            neutralised(raw(table)).write_csv(path)
            paths.append(path)
    return paths


def json_file(meta: dict[str, Any], sections: list[Section], out: Path) -> Path:
    tables = {table.key: table.frame.to_dicts() for section in sections for table in section.tables}
    path = out / "report.json"
    with open(path, "w", encoding="utf-8") as handle:
        json.dump({**meta, "tables": tables}, handle, default=_json_default, indent=1)
    return path


def _json_default(value: Any) -> Any:
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


def terminal(table: Table, width: int = 200) -> str:
    """A plain fixed-width table for the terminal."""
    headers, body = rows_for_people(table)
    if not body:
        return "(none)"
    widths = [max(len(h), *(len(row[i]) for row in body)) for i, h in enumerate(headers)]
    kinds = [kind for _, _, kind in shown_columns(table)]

    def line(values: list[str]) -> str:
        cells = [
            value.ljust(size) if kind == TEXT else value.rjust(size)
            for value, size, kind in zip(values, widths, kinds, strict=True)
        ]
        return "  ".join(cells)[:width].rstrip()

    return "\n".join([line(headers), *(line(row) for row in body)])
