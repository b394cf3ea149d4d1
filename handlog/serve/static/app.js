// handlog serve: the pages' own script (no library, nothing fetched from elsewhere).
// Sortable tables, SVG charts that can be hovered and zoomed, the replayer's stepping,
// and live updates (Server-Sent Events) that refresh the page's content in place.
"use strict";

(function () {
  const SVG = "http://www.w3.org/2000/svg";

  function el(name, attributes, parent) {
    const node = document.createElementNS(SVG, name);
    for (const key in attributes || {}) node.setAttribute(key, attributes[key]);
    if (parent) parent.appendChild(node);
    return node;
  }

  function html(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function format(value, digits) {
    if (value === null || value === undefined || Number.isNaN(value)) return "";
    return Number(value).toLocaleString("en-US", {
      minimumFractionDigits: digits === undefined ? 2 : digits,
      maximumFractionDigits: digits === undefined ? 2 : digits,
    });
  }

  // -- sortable tables: click a column's name; the order is kept in the URL ------------

  function sortTable(table, index, descending) {
    const body = table.tBodies[0];
    if (!body) return;
    const rows = Array.from(body.rows).filter((row) => !row.querySelector("td.empty"));
    const key = (row) => {
      const cell = row.cells[index];
      const raw = cell ? (cell.dataset.value !== undefined ? cell.dataset.value : cell.textContent) : "";
      const number = raw === "" ? NaN : Number(raw);
      return { raw: raw, number: number };
    };
    const numeric = rows.every((row) => {
      const k = key(row);
      return k.raw === "" || !Number.isNaN(k.number);
    });
    rows.sort((a, b) => {
      const x = key(a);
      const y = key(b);
      if (x.raw === "" && y.raw !== "") return 1;
      if (y.raw === "" && x.raw !== "") return -1;
      const order = numeric ? x.number - y.number : x.raw.localeCompare(y.raw);
      return descending ? -order : order;
    });
    for (const row of rows) body.appendChild(row);
    table.querySelectorAll("th").forEach((th, i) => {
      th.classList.toggle("asc", i === index && !descending);
      th.classList.toggle("desc", i === index && descending);
      th.setAttribute("aria-sort", i === index ? (descending ? "descending" : "ascending") : "none");
    });
  }

  function initSorting(root) {
    const wanted = new URLSearchParams(location.search).getAll("sort_table");
    root.querySelectorAll("table.sortable").forEach((table) => {
      const headers = table.querySelectorAll("thead th");
      headers.forEach((th, index) => {
        const activate = () => {
          const descending = !th.classList.contains("desc");
          sortTable(table, index, descending);
          const params = new URLSearchParams(location.search);
          const mine = params.getAll("sort_table").filter((v) => !v.startsWith(table.id + ":"));
          params.delete("sort_table");
          for (const value of mine) params.append("sort_table", value);
          params.append("sort_table", `${table.id}:${index}:${descending ? "desc" : "asc"}`);
          history.replaceState(null, "", `${location.pathname}?${params}`);
        };
        th.addEventListener("click", activate);
        th.addEventListener("keydown", (event) => {
          if (event.key === "Enter" || event.key === " ") {
            event.preventDefault();
            activate();
          }
        });
      });
      for (const value of wanted) {
        const [id, index, direction] = value.split(":");
        if (id === table.id && headers[Number(index)]) sortTable(table, Number(index), direction === "desc");
      }
    });
  }

  // -- charts ----------------------------------------------------------------------------

  const COLOURS = ["#111827", "#2563eb", "#dc2626", "#059669", "#d97706", "#7c3aed"];
  const WIDTH = 640;
  const HEIGHT = 260;
  const PAD = { left: 58, right: 14, top: 12, bottom: 34 };

  const DAY = 86400000; // ms

  function ticks(low, high, count) {
    if (!(high > low)) return [low];
    const span = high - low;
    const step0 = Math.pow(10, Math.floor(Math.log10(span / count)));
    const step = [1, 2, 5, 10].map((m) => m * step0).find((s) => span / s <= count) || step0 * 10;
    const out = [];
    for (let v = Math.ceil(low / step) * step; v <= high + step * 1e-9; v += step) out.push(Math.round(v / step) * step);
    return out;
  }

  // A line chart of several series of [x, y] points, x numbers (hands) or dates.
  function lineChart(plot, options) {
    plot.textContent = "";
    const series = options.series.filter((s) => s.points.length);
    if (!series.length) {
      plot.appendChild(html("p", "empty", "no data under these filters"));
      return;
    }
    const isTime = options.time;
    const xs = (p) => (isTime ? Date.parse(p[0]) : p[0]);
    let full = [Infinity, -Infinity];
    for (const s of series) for (const p of s.points) {
      full[0] = Math.min(full[0], xs(p));
      full[1] = Math.max(full[1], xs(p));
    }
    // One x only (a player of one day, or of one hand): a day (or a hand) either side.
    const pad = isTime ? DAY : 1;
    if (full[0] === full[1]) full = [full[0] - pad, full[1] + pad];
    let view = full.slice();
    const svg = el("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: "svgchart", role: "img" }, plot);
    const tip = html("div", "tip");
    plot.appendChild(tip);
    const legend = html("div", "legend");
    series.forEach((s, i) => {
      const item = html("span", "key");
      const swatch = html("i");
      swatch.style.background = s.colour || COLOURS[i % COLOURS.length];
      item.appendChild(swatch);
      item.appendChild(document.createTextNode(s.name));
      legend.appendChild(item);
    });
    plot.appendChild(legend);

    function draw() {
      svg.textContent = "";
      const inView = series.map((s) => s.points.filter((p) => xs(p) >= view[0] && xs(p) <= view[1]));
      let low = 0;
      let high = 0;
      for (const points of inView) for (const p of points) {
        low = Math.min(low, p[1]);
        high = Math.max(high, p[1]);
      }
      if (low === high) high = low + 1;
      const margin = (high - low) * 0.05;
      low -= margin;
      high += margin;
      const x = (v) => PAD.left + ((v - view[0]) / (view[1] - view[0])) * (WIDTH - PAD.left - PAD.right);
      const y = (v) => HEIGHT - PAD.bottom - ((v - low) / (high - low)) * (HEIGHT - PAD.top - PAD.bottom);
      for (const t of ticks(low, high, 5)) {
        el("line", { x1: PAD.left, x2: WIDTH - PAD.right, y1: y(t), y2: y(t), class: t === 0 ? "zero" : "grid" }, svg);
        el("text", { x: PAD.left - 6, y: y(t) + 4, class: "tick", "text-anchor": "end" }, svg).textContent = format(t, Math.abs(t) < 10 && t % 1 ? 1 : 0);
      }
      // Days at their midnight (UTC), the dates the points are.
      const xticks = isTime
        ? ticks(view[0] / DAY, view[1] / DAY, 5).filter((d) => Number.isInteger(d)).map((d) => d * DAY)
        : ticks(view[0], view[1], 6);
      let shown = null;
      for (const t of xticks) {
        if (t < view[0] || t > view[1]) continue;
        const label = isTime ? new Date(t).toISOString().slice(0, 10) : format(t, 0);
        if (label === shown) continue; // ticks closer than a day: each day named once
        shown = label;
        el("line", { x1: x(t), x2: x(t), y1: HEIGHT - PAD.bottom, y2: HEIGHT - PAD.bottom + 4, class: "axis" }, svg);
        const edge = x(t) > WIDTH - PAD.right - 30 ? "end" : "middle"; // the last one inside
        el("text", { x: x(t), y: HEIGHT - PAD.bottom + 16, class: "tick", "text-anchor": edge }, svg).textContent = label;
      }
      el("text", { x: (WIDTH + PAD.left) / 2, y: HEIGHT - 4, class: "label", "text-anchor": "middle" }, svg).textContent = options.xLabel;
      el("text", { x: 12, y: (HEIGHT - PAD.bottom) / 2, class: "label", "text-anchor": "middle", transform: `rotate(-90 12 ${(HEIGHT - PAD.bottom) / 2})` }, svg).textContent = options.yLabel;
      inView.forEach((points, i) => {
        if (!points.length) return;
        const colour = series[i].colour || COLOURS[i % COLOURS.length];
        const d = points.map((p, j) => `${j ? "L" : "M"}${x(xs(p)).toFixed(1)},${y(p[1]).toFixed(1)}`).join("");
        el("path", { d: d, class: "line", stroke: colour, "stroke-width": i === 0 ? 2 : 1.4 }, svg);
        if (points.length === 1) {
          // A line of one point draws nothing: a dot instead.
          el("circle", { cx: x(xs(points[0])).toFixed(1), cy: y(points[0][1]).toFixed(1), r: 3.5, fill: colour, class: "dot" }, svg);
        }
      });
      const cursor = el("line", { y1: PAD.top, y2: HEIGHT - PAD.bottom, class: "cursor", visibility: "hidden" }, svg);
      const band = el("rect", { y: PAD.top, height: HEIGHT - PAD.top - PAD.bottom, class: "band", visibility: "hidden" }, svg);
      const toData = (event) => {
        const box = svg.getBoundingClientRect();
        const px = ((event.clientX - box.left) / box.width) * WIDTH;
        return view[0] + ((px - PAD.left) / (WIDTH - PAD.left - PAD.right)) * (view[1] - view[0]);
      };
      let dragFrom = null;
      svg.onmousemove = (event) => {
        const at = toData(event);
        if (dragFrom !== null) {
          const a = Math.max(view[0], Math.min(dragFrom, at));
          const b = Math.min(view[1], Math.max(dragFrom, at));
          band.setAttribute("x", x(a));
          band.setAttribute("width", Math.max(0, x(b) - x(a)));
          band.setAttribute("visibility", "visible");
        }
        const lines = [];
        let shown = null;
        series.forEach((s, i) => {
          let best = null;
          for (const p of inView[i]) if (best === null || Math.abs(xs(p) - at) < Math.abs(xs(best) - at)) best = p;
          if (best) {
            shown = shown === null ? xs(best) : shown;
            lines.push(`${s.name}: ${format(best[1])}`);
          }
        });
        if (shown === null) return;
        cursor.setAttribute("x1", x(shown));
        cursor.setAttribute("x2", x(shown));
        cursor.setAttribute("visibility", "visible");
        const head = isTime ? new Date(shown).toISOString().slice(0, 10) : `hand ${format(shown, 0)}`;
        tip.textContent = [head, ...lines].join("\n");
        tip.style.display = "block";
        const box = plot.getBoundingClientRect();
        tip.style.left = `${Math.min(event.clientX - box.left + 12, box.width - 180)}px`;
        tip.style.top = `${event.clientY - box.top + 12}px`;
      };
      svg.onmouseleave = () => {
        cursor.setAttribute("visibility", "hidden");
        tip.style.display = "none";
        dragFrom = null;
        band.setAttribute("visibility", "hidden");
      };
      svg.onmousedown = (event) => {
        event.preventDefault();
        dragFrom = toData(event);
      };
      svg.onmouseup = (event) => {
        if (dragFrom === null) return;
        const at = toData(event);
        const a = Math.max(view[0], Math.min(dragFrom, at));
        const b = Math.min(view[1], Math.max(dragFrom, at));
        dragFrom = null;
        band.setAttribute("visibility", "hidden");
        if (b - a > (view[1] - view[0]) / 200) {
          view = [a, b];
          draw();
        }
      };
      svg.ondblclick = () => {
        view = full.slice();
        draw();
      };
    }
    draw();
  }

  // Bars with an optional interval each: [{label, value, low, high, colour}].
  function barChart(plot, bars, yLabel) {
    plot.textContent = "";
    if (!bars.length) {
      plot.appendChild(html("p", "empty", "no data under these filters"));
      return;
    }
    const svg = el("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: "svgchart", role: "img" }, plot);
    const tip = html("div", "tip");
    plot.appendChild(tip);
    let low = 0;
    let high = 0;
    for (const b of bars) {
      low = Math.min(low, b.value, b.low === null || b.low === undefined ? b.value : b.low);
      high = Math.max(high, b.value, b.high === null || b.high === undefined ? b.value : b.high);
    }
    if (low === high) high = low + 1;
    const y = (v) => HEIGHT - PAD.bottom - ((v - low) / (high - low)) * (HEIGHT - PAD.top - PAD.bottom);
    const slot = (WIDTH - PAD.left - PAD.right) / bars.length;
    for (const t of ticks(low, high, 5)) {
      el("line", { x1: PAD.left, x2: WIDTH - PAD.right, y1: y(t), y2: y(t), class: t === 0 ? "zero" : "grid" }, svg);
      el("text", { x: PAD.left - 6, y: y(t) + 4, class: "tick", "text-anchor": "end" }, svg).textContent = format(t, 0);
    }
    el("text", { x: 12, y: (HEIGHT - PAD.bottom) / 2, class: "label", "text-anchor": "middle", transform: `rotate(-90 12 ${(HEIGHT - PAD.bottom) / 2})` }, svg).textContent = yLabel;
    bars.forEach((b, i) => {
      const width = Math.min(slot * 0.7, 64);
      const left = PAD.left + i * slot + (slot - width) / 2;
      let rect;
      if (b.parts) {
        // Stacked: each part on the one below it.
        rect = el("g", { class: "bar" }, svg);
        let base = 0;
        for (const part of b.parts) {
          el("rect", { x: left, y: y(base + part.value), width: width, height: Math.max(1, y(base) - y(base + part.value)), fill: part.colour }, rect);
          base += part.value;
        }
      } else {
        const top = y(Math.max(0, b.value));
        rect = el("rect", { x: left, y: top, width: width, height: Math.max(1, Math.abs(y(b.value) - y(0))), class: "bar", fill: b.colour }, svg);
      }
      if (b.low !== null && b.low !== undefined && b.high !== null && b.high !== undefined) {
        const mid = left + width / 2;
        el("line", { x1: mid, x2: mid, y1: y(b.low), y2: y(b.high), class: "whisker" }, svg);
        el("line", { x1: mid - 5, x2: mid + 5, y1: y(b.low), y2: y(b.low), class: "whisker" }, svg);
        el("line", { x1: mid - 5, x2: mid + 5, y1: y(b.high), y2: y(b.high), class: "whisker" }, svg);
      }
      if (bars.length <= 24) {
        el("text", { x: left + width / 2, y: HEIGHT - PAD.bottom + 14, class: "tick", "text-anchor": "middle" }, svg).textContent = b.short || b.label;
      }
      rect.addEventListener("mousemove", (event) => {
        tip.textContent = b.tip || `${b.label}: ${format(b.value)}`;
        tip.style.display = "block";
        const box = plot.getBoundingClientRect();
        tip.style.left = `${Math.min(event.clientX - box.left + 12, box.width - 200)}px`;
        tip.style.top = `${event.clientY - box.top + 12}px`;
      });
      rect.addEventListener("mouseleave", () => (tip.style.display = "none"));
    });
  }

  function initCharts(root) {
    const source = root.querySelector("#chart-data");
    if (!source) return;
    const data = JSON.parse(source.textContent);
    root.querySelectorAll("figure.chart").forEach((figure) => {
      const plot = figure.querySelector(".plot");
      const kind = figure.dataset.chart;
      if (kind === "cumulative") {
        const name = figure.dataset.series;
        const show = (axis) => {
          figure.querySelectorAll(".switch button").forEach((b) => b.classList.toggle("on", b.dataset.x === axis));
          if (axis === "time") {
            const points = data.over_time[name] || [];
            lineChart(plot, {
              time: true,
              xLabel: "day (UTC)",
              yLabel: "net won (big bets)",
              series: [
                { name: "net won", points: points.map((p) => [p[0], p[1]]), colour: COLOURS[0] },
                { name: "all-in EV", points: points.map((p) => [p[0], p[4]]), colour: COLOURS[4] },
                { name: "at showdown", points: points.map((p) => [p[0], p[2]]), colour: COLOURS[1] },
                { name: "without showdown", points: points.map((p) => [p[0], p[1] - p[2]]), colour: COLOURS[2] },
              ],
            });
          } else {
            const points = (data.over_hands[name] || { points: [] }).points;
            lineChart(plot, {
              time: false,
              xLabel: "hands played",
              yLabel: "net won (big bets)",
              series: [
                { name: "net won", points: points.map((p) => [p[0], p[1]]), colour: COLOURS[0] },
                { name: "all-in EV", points: points.map((p) => [p[0], p[3]]), colour: COLOURS[4] },
                { name: "at showdown", points: points.map((p) => [p[0], p[2]]), colour: COLOURS[1] },
                { name: "without showdown", points: points.map((p) => [p[0], p[1] - p[2]]), colour: COLOURS[2] },
              ],
            });
          }
        };
        figure.querySelectorAll(".switch button").forEach((b) => b.addEventListener("click", () => show(b.dataset.x)));
        show("hands");
      } else if (kind === "by_game") {
        const rows = (data.by_game || []).filter((r) => r.bb_per_100 !== null);
        barChart(
          plot,
          rows.map((r) => ({
            label: `${r.player} (${r.site}) ${r.game}${r.structure === "fixed" ? "" : " " + r.structure + " limit"}`,
            short: `${r.player.length > 12 ? r.player.slice(0, 11) + "…" : r.player} · ${r.game}`,
            value: r.bb_per_100,
            low: r.ci_low,
            high: r.ci_high,
            colour: r.bb_per_100 >= 0 ? "#059669" : "#dc2626",
            tip: `${r.player} (${r.site}), ${r.game}: ${format(r.bb_per_100)} BB/100 over ${format(r.hands, 0)} hands, 95% CI ${format(r.ci_low)} to ${format(r.ci_high)}`,
          })),
          "big bets / 100 hands"
        );
      } else if (kind === "flags") {
        const kindColours = { illegal: "#dc2626", "mis-split": "#7c3aed", inconsistent: "#d97706" };
        const byDay = {};
        for (const [day, kindName, flags] of data.flags || []) {
          byDay[day] = byDay[day] || { day: day, total: 0, parts: [], words: [] };
          byDay[day].total += flags;
          byDay[day].parts.push({ value: flags, colour: kindColours[kindName] || "#6b7280" });
          byDay[day].words.push(`${kindName}: ${flags}`);
        }
        const days = Object.values(byDay);
        barChart(
          plot,
          days.map((d) => ({ label: d.day, short: d.day.slice(5), value: d.total, parts: d.parts, tip: `${d.day}: ${d.total} flags (${d.words.join(", ")})` })),
          "flags"
        );
        const legend = html("div", "legend");
        for (const [name, colour] of Object.entries(kindColours)) {
          const item = html("span", "key");
          const swatch = html("i");
          swatch.style.background = colour;
          item.appendChild(swatch);
          item.appendChild(document.createTextNode(name));
          legend.appendChild(item);
        }
        plot.appendChild(legend);
      }
    });
  }

  // -- the replayer ----------------------------------------------------------------------

  function money(value, unit) {
    if (value === null || value === undefined) return "";
    if (unit === "chips") return Number(value).toLocaleString("en-US");
    const sign = value < 0 ? "-" : "";
    const body = (Math.abs(value) / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    const symbols = { USD: "$", EUR: "€", GBP: "£" };
    return symbols[unit] ? `${sign}${symbols[unit]}${body}` : `${sign}${body}${unit === "chips/100" ? "" : " " + unit}`;
  }

  function cardNode(slot) {
    const node = html("span", "card");
    if (slot.card) {
      node.textContent = slot.card;
      node.classList.add(`suit-${slot.card.slice(-1)}`);
    } else {
      node.textContent = "??";
      node.classList.add("unknown");
    }
    node.classList.add(slot.up ? "up" : "down");
    node.title = `${slot.up ? "face up" : "face down"}${slot.card ? "" : ", not known to the history"}`;
    return node;
  }

  function initReplayer(root) {
    const source = root.querySelector("#replay-data");
    const section = root.querySelector("#replayer");
    if (!source || !section) return;
    const data = JSON.parse(source.textContent);
    const steps = data.steps;
    if (!steps.length) return;
    const seats = section.querySelector("#seats");
    const pot = section.querySelector("#pot");
    const now = section.querySelector("#now");
    const equity = section.querySelector("#equity");
    const equities = data.equities || [];
    const position = section.querySelector("#position");
    const items = Array.from(section.querySelectorAll("#steps li.step"));
    let current = 0;

    // Equities (the page's `equities`, one per street or the all-in; each step names its own):
    // "59.2%" and "exact" or "±0.5" (the 95% error, in points).
    function percent(share, found) {
      return `${(100 * share.equity).toFixed(1)}%${found.method === "exact" ? "" : " ±" + (100 * share.error).toFixed(1)}`;
    }

    function seatEquity(found, player) {
      const parts = [];
      for (const pot of found.pots) {
        for (const share of pot.shares) {
          if (share.player === player) parts.push(`${percent(share, found)}${found.pots.length > 1 ? " of the " + pot.name : ""}`);
        }
      }
      return parts.length ? `equity ${parts.join(", ")}` : "";
    }

    function showEquity(found) {
      if (!found) return;
      const head = found.at_all_in ? `equity at the all-in, ${found.street}` : `equity on ${found.street}`;
      equity.appendChild(html("div", "eq-head", `${head} (${found.method}, ${found.deals.toLocaleString("en-US")} deal${found.deals === 1 ? "" : "s"})`));
      for (const pot of found.pots) {
        const line = html("div", "eq-pot", `${pot.name} ${money(pot.amount, data.unit)}: `);
        pot.shares.forEach((share, i) => {
          line.appendChild(html("span", "eq-share", `${share.player} ${percent(share, found)}`));
          if (i < pot.shares.length - 1) line.appendChild(document.createTextNode(", "));
        });
        equity.appendChild(line);
      }
    }

    function show(index) {
      current = Math.max(0, Math.min(steps.length - 1, index));
      const step = steps[current];
      const found = step.equity === null || step.equity === undefined ? null : equities[step.equity];
      seats.textContent = "";
      for (const seat of step.seats) {
        const box = html("div", `seat ${seat.status}${seat.player === step.player ? " acting" : ""}${seat.player === step.to_act ? " to-act" : ""}`);
        const head = html("div", "who");
        head.appendChild(html("b", "", seat.player));
        head.appendChild(html("span", "seatno", ` seat ${seat.seat}`));
        box.appendChild(head);
        const cards = html("div", "cards");
        for (const slot of seat.cards) cards.appendChild(cardNode(slot));
        box.appendChild(cards);
        box.appendChild(html("div", "stack", `stack ${money(seat.stack, data.unit)}`));
        box.appendChild(html("div", "bet", seat.this_street ? `this street ${money(seat.this_street, data.unit)}` : ""));
        box.appendChild(html("div", "status", seat.status === "in" ? `in pot ${money(seat.put_in, data.unit)}` : seat.status));
        const shares = found ? seatEquity(found, seat.player) : "";
        if (shares) box.appendChild(html("div", "seat-equity", shares));
        seats.appendChild(box);
      }
      const street = step.street_equity === null || step.street_equity === undefined || step.street_equity === step.equity ? null : equities[step.street_equity];
      equity.textContent = "";
      showEquity(found);
      showEquity(street);
      pot.textContent = `pot ${money(step.pot, data.unit)}` + (step.to_act ? ` · ${step.to_act} to act${step.to_call ? ", " + money(step.to_call, data.unit) + " to call" : ""}` : "");
      now.textContent = "";
      now.appendChild(html("span", "street", step.street || ""));
      now.appendChild(html("span", "what", ` ${step.text}${step.amount ? " " + money(step.amount, data.unit) : ""}`));
      for (const flag of step.flags) {
        const note = html("div", flag.follows ? "flagnote follows" : "flagnote");
        note.appendChild(html("span", "badge", flag.follows ? `follows ${flag.follows}` : flag.kind));
        note.appendChild(document.createTextNode(` ${flag.code}: ${flag.message}`));
        for (const consequence of flag.consequences || []) {
          note.appendChild(html("div", "consequence", `↳ ${consequence.code} (line ${consequence.line}): ${consequence.message}`));
        }
        now.appendChild(note);
      }
      position.textContent = `step ${current + 1} of ${steps.length}`;
      items.forEach((item, i) => item.classList.toggle("current", i === current));
      const item = items[current];
      if (item) {
        const list = item.parentElement;
        if (item.offsetTop < list.scrollTop || item.offsetTop > list.scrollTop + list.clientHeight - item.offsetHeight) {
          list.scrollTop = item.offsetTop - list.clientHeight / 2;
        }
      }
      const raw = document.getElementById("raw-link");
      if (raw && step.line) raw.href = `${raw.pathname}?line=${step.line}#L${step.line}`;
      const params = new URLSearchParams(location.search);
      params.set("step", String(current));
      params.delete("line");
      history.replaceState(null, "", `${location.pathname}?${params}`);
    }

    function nextFlag() {
      for (let i = current + 1; i < steps.length; i++) if (steps[i].flags.length) return show(i);
      for (let i = 0; i <= current; i++) if (steps[i].flags.length) return show(i);
    }

    section.querySelectorAll("[data-step]").forEach((button) => {
      button.addEventListener("click", () => {
        const action = button.dataset.step;
        if (action === "first") show(0);
        else if (action === "back") show(current - 1);
        else if (action === "forward") show(current + 1);
        else if (action === "last") show(steps.length - 1);
        else if (action === "next-flag") nextFlag();
      });
    });
    items.forEach((item, i) => item.addEventListener("click", () => show(i)));
    root.querySelectorAll("button.goto").forEach((button) => {
      button.addEventListener("click", () => {
        const line = Number(button.dataset.line);
        const found = steps.findIndex((s) => s.line === line && s.flags.length);
        show(found >= 0 ? found : steps.findIndex((s) => s.line === line));
        section.scrollIntoView({ block: "start" });
      });
    });
    document.addEventListener("keydown", (event) => {
      if (event.target.closest && event.target.closest("input, textarea, select")) return;
      if (event.key === "ArrowRight") show(current + 1);
      else if (event.key === "ArrowLeft") show(current - 1);
      else if (event.key === "Home") show(0);
      else if (event.key === "End") show(steps.length - 1);
      else if (event.key === "f") nextFlag();
      else return;
      event.preventDefault();
    });
    const params = new URLSearchParams(location.search);
    let start = 0;
    if (params.get("step")) start = Number(params.get("step")) || 0;
    else if (params.get("line")) {
      const line = Number(params.get("line"));
      const found = steps.findIndex((s) => s.line === line && s.flags.length);
      start = found >= 0 ? found : Math.max(0, steps.findIndex((s) => s.line === line));
    }
    show(start);
  }

  // -- live updates ----------------------------------------------------------------------

  function notice(node) {
    const box = document.getElementById("notices");
    if (!box) return;
    const item = html("div", "notice");
    item.appendChild(node);
    const close = html("button", "close", "×");
    close.type = "button";
    close.title = "dismiss";
    close.addEventListener("click", () => item.remove());
    item.appendChild(close);
    box.prepend(item);
    while (box.children.length > 6) box.lastChild.remove();
  }

  let refreshing = false;
  async function refresh() {
    if (refreshing || document.getElementById("replayer") || location.pathname.startsWith("/query")) return;
    refreshing = true;
    try {
      const response = await fetch(location.href, { headers: { "x-handlog-refresh": "1" } });
      if (!response.ok) return;
      const text = await response.text();
      const doc = new DOMParser().parseFromString(text, "text/html");
      const fresh = doc.getElementById("main");
      const main = document.getElementById("main");
      if (fresh && main) {
        main.replaceChildren(...Array.from(fresh.childNodes).map((n) => document.importNode(n, true)));
        document.body.dataset.version = doc.body.dataset.version;
        init(main);
      }
      const banner = document.querySelector(".banner");
      const freshBanner = doc.querySelector(".banner");
      if (banner && !freshBanner) banner.remove();
    } finally {
      refreshing = false;
    }
  }

  function initLive() {
    if (document.body.dataset.live !== "on" || !window.EventSource) return;
    const events = new EventSource("/events");
    // Closed when the page is left: a browser opens only six connections to a server, and
    // pages kept for the back button would otherwise hold theirs.
    window.addEventListener("pagehide", () => events.close());
    const live = document.getElementById("live");
    events.addEventListener("hello", (event) => {
      const data = JSON.parse(event.data);
      if (String(data.version) !== document.body.dataset.version) refresh();
      if (live) live.classList.remove("down");
    });
    events.addEventListener("stored", (event) => {
      const data = JSON.parse(event.data);
      for (const flag of data.flagged || []) {
        const text = html("span");
        text.appendChild(document.createTextNode("New flagged hand: "));
        const link = html("a", "", `${flag.hand_id}`);
        link.href = `/hand/${encodeURIComponent(flag.site)}/${encodeURIComponent(flag.hand_id)}?line=${flag.line}`;
        text.appendChild(link);
        text.appendChild(document.createTextNode(` (${flag.site}, ${flag.table || "?"}): ${flag.code}: ${flag.message}`));
        notice(text);
      }
      if (data.new_hands && !(data.flagged || []).length) {
        const info = html("span", "quiet", `${Number(data.new_hands).toLocaleString("en-US")} new hands stored`);
        notice(info);
        setTimeout(() => info.parentElement && info.parentElement.remove(), 6000);
      }
      refresh();
    });
    events.onerror = () => {
      if (live) live.classList.add("down");
    };
  }

  function init(root) {
    initSorting(root);
    initCharts(root);
    initReplayer(root);
  }

  document.addEventListener("DOMContentLoaded", () => {
    init(document);
    initLive();
    const lit = document.querySelector("tr.lit");
    if (lit) lit.scrollIntoView({ block: "center" });
  });
})();
