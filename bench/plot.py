#!/usr/bin/env python3
"""Draw benchmark results as an SVG, using the standard library only.

usage: plot.py RESULTS.csv OUTPUT.svg
       plot.py --self-test

The CSV has the columns  layer,op,bytes,ours_us,baseline,baseline_us,ratio.
Each (layer, op, baseline) group gets one row of two panels:
  left:  ratio = ours_us / baseline_us against message size (log2 axis),
         with a dashed line at 1.0 (parity);
  right: ours_us and baseline_us against message size, both axes logarithmic.
The SVG is parsed back before it is written, so a malformed file is never
left behind.
"""

import csv
import math
import os
import sys
import tempfile
import xml.etree.ElementTree as ET
from xml.sax.saxutils import escape

COLUMNS = ["layer", "op", "bytes", "ours_us", "baseline", "baseline_us", "ratio"]

SVG_NS = "http://www.w3.org/2000/svg"
OURS_COLOUR = "#1f77b4"
BASE_COLOUR = "#d95f02"
RATIO_COLOUR = "#2a7f3f"
GRID_COLOUR = "#dddddd"

PANEL_W, PANEL_H = 470, 300          # whole panel, including margins
MARGIN_L, MARGIN_R, MARGIN_T, MARGIN_B = 70, 20, 30, 50
TITLE_H = 50                          # figure title
GROUP_TITLE_H = 26                    # title above each row of panels
GAP = 20


class CsvError(Exception):
    pass


# ---- reading ------------------------------------------------------------------

def _number(text):
    """A positive finite float, or None for an empty / unusable field."""
    text = (text or "").strip()
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        return None
    if not math.isfinite(value) or value <= 0.0:
        return None
    return value


def read_results(path):
    """Returns {(layer, op, baseline): [(bytes, ours, base, ratio), ...]}
    sorted by bytes; a later row for the same size replaces an earlier one."""
    groups = {}
    with open(path, newline="") as f:
        reader = csv.reader(f)
        header = next(reader, None)
        if header is None:
            raise CsvError(f"{path}: empty file (expected the header line)")
        header = [h.strip() for h in header]
        if header != COLUMNS:
            raise CsvError(f"{path}:1: header is {','.join(header)!r}, "
                           f"expected {','.join(COLUMNS)!r}")
        for lineno, row in enumerate(reader, start=2):
            if not row or all(not c.strip() for c in row):
                continue
            if len(row) != len(COLUMNS):
                raise CsvError(f"{path}:{lineno}: {len(row)} fields, "
                               f"expected {len(COLUMNS)}")
            rec = dict(zip(COLUMNS, (c.strip() for c in row)))
            try:
                size = int(rec["bytes"])
            except ValueError:
                size = 0
            if size <= 0:
                raise CsvError(f"{path}:{lineno}: bytes must be a positive "
                               f"integer, got {rec['bytes']!r}")
            ours = _number(rec["ours_us"])
            base = _number(rec["baseline_us"])
            ratio = _number(rec["ratio"])
            if ratio is None and ours is not None and base is not None:
                ratio = ours / base
            key = (rec["layer"], rec["op"], rec["baseline"])
            groups.setdefault(key, {})[size] = (size, ours, base, ratio)
    return {k: [v[s] for s in sorted(v)] for k, v in sorted(groups.items())}


# ---- scales and ticks ---------------------------------------------------------

def human_bytes(n):
    for unit, shift in (("G", 30), ("M", 20), ("K", 10)):
        if n >= (1 << shift) and n % (1 << shift) == 0:
            return f"{n >> shift}{unit}"
    return str(n)


def nice_step(span, target_ticks=5):
    raw = span / max(target_ticks, 1)
    mag = 10.0 ** math.floor(math.log10(raw))
    for m in (1.0, 2.0, 2.5, 5.0, 10.0):
        if m * mag >= raw:
            return m * mag
    return 10.0 * mag


def fmt_tick(v):
    if v == 0:
        return "0"
    if 1 <= abs(v) < 1e7 and v == int(v):
        return str(int(v))
    if abs(v) >= 1e7 or abs(v) < 0.01:
        return f"{v:.0e}".replace("e+0", "e").replace("e-0", "e-")
    return f"{v:g}"


class Axis:
    """Maps a data value to a pixel coordinate along one axis."""

    def __init__(self, lo, hi, p0, p1, transform=lambda v: v):
        self.t = transform
        self.lo, self.hi = transform(lo), transform(hi)
        if self.hi == self.lo:
            self.lo, self.hi = self.lo - 1.0, self.hi + 1.0
        self.p0, self.p1 = p0, p1

    def __call__(self, v):
        f = (self.t(v) - self.lo) / (self.hi - self.lo)
        return self.p0 + f * (self.p1 - self.p0)


def log2_x_ticks(sizes):
    """(all tick exponents, labelled exponents) for a log2 byte axis."""
    k0 = math.floor(math.log2(min(sizes)))
    k1 = math.ceil(math.log2(max(sizes)))
    if k1 == k0:
        k0, k1 = k0 - 1, k1 + 1
    ks = list(range(k0, k1 + 1))
    step = max(1, math.ceil(len(ks) / 8))
    labelled = [k for k in ks if (k - k0) % step == 0]
    return ks, labelled


# ---- SVG drawing --------------------------------------------------------------

class Svg:
    def __init__(self):
        self.parts = []

    def add(self, s):
        self.parts.append(s)

    def line(self, x1, y1, x2, y2, stroke, width=1.0, dash=None):
        d = f' stroke-dasharray="{dash}"' if dash else ""
        self.add(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" '
                 f'y2="{y2:.1f}" stroke="{stroke}" stroke-width="{width}"{d}/>')

    def text(self, x, y, s, anchor="middle", size=12, weight=None,
             rotate=None, colour="#222222"):
        extra = ""
        if weight:
            extra += f' font-weight="{weight}"'
        if rotate is not None:
            extra += f' transform="rotate({rotate} {x:.1f} {y:.1f})"'
        self.add(f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" '
                 f'font-size="{size}" fill="{colour}"{extra}>{escape(s)}</text>')

    def series(self, points, colour, marker="circle"):
        """Polyline through the points plus a marker on each."""
        if not points:
            return
        if len(points) > 1:
            pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
            self.add(f'<polyline points="{pts}" fill="none" stroke="{colour}" '
                     f'stroke-width="1.8"/>')
        for x, y in points:
            if marker == "circle":
                self.add(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" '
                         f'fill="{colour}"/>')
            else:
                self.add(f'<rect x="{x - 4:.1f}" y="{y - 4:.1f}" width="8" '
                         f'height="8" fill="white" stroke="{colour}" '
                         f'stroke-width="1.5"/>')

    def legend(self, x, y, entries):
        """entries: (label, colour, style) with style 'circle', 'square' or
        'dash'.  Drawn in a box whose top-right corner is (x, y)."""
        w = 14 + 8 + max(len(e[0]) for e in entries) * 6.6 + 10
        h = 8 + 18 * len(entries)
        x0 = x - w
        self.add(f'<rect x="{x0:.1f}" y="{y:.1f}" width="{w:.1f}" '
                 f'height="{h:.1f}" fill="white" fill-opacity="0.85" '
                 f'stroke="#999999" stroke-width="0.8"/>')
        for i, (label, colour, style) in enumerate(entries):
            cy = y + 13 + 18 * i
            if style == "dash":
                self.line(x0 + 6, cy, x0 + 22, cy, colour, 1.5, "5,3")
            else:
                self.line(x0 + 6, cy, x0 + 22, cy, colour, 1.8)
                if style == "circle":
                    self.add(f'<circle cx="{x0 + 14:.1f}" cy="{cy:.1f}" r="3" '
                             f'fill="{colour}"/>')
                else:
                    self.add(f'<rect x="{x0 + 10:.1f}" y="{cy - 4:.1f}" '
                             f'width="8" height="8" fill="white" '
                             f'stroke="{colour}" stroke-width="1.5"/>')
            self.text(x0 + 28, cy + 4, label, anchor="start", size=11)

    def render(self, width, height):
        head = (f'<svg xmlns="{SVG_NS}" width="{width}" height="{height}" '
                f'viewBox="0 0 {width} {height}" '
                f'font-family="DejaVu Sans, Helvetica, Arial, sans-serif">')
        body = "\n".join(self.parts)
        return (f'<?xml version="1.0" encoding="UTF-8"?>\n{head}\n'
                f'<rect width="100%" height="100%" fill="white"/>\n{body}\n'
                f'</svg>\n')


def panel_frame(svg, ox, oy, title):
    """Returns the plot rectangle (x0, y0, x1, y1) of a panel at (ox, oy)."""
    x0, y0 = ox + MARGIN_L, oy + MARGIN_T
    x1, y1 = ox + PANEL_W - MARGIN_R, oy + PANEL_H - MARGIN_B
    svg.add(f'<rect class="panel" x="{x0}" y="{y0}" width="{x1 - x0}" '
            f'height="{y1 - y0}" fill="none" stroke="#444444" '
            f'stroke-width="1"/>')
    svg.text((x0 + x1) / 2, oy + 18, title, size=13, weight="bold")
    return x0, y0, x1, y1


def draw_x_axis(svg, xs, sizes, rect):
    x0, y0, x1, y1 = rect
    ks, labelled = log2_x_ticks(sizes)
    for k in ks:
        px = xs(2.0 ** k)
        if k in labelled:
            svg.line(px, y0, px, y1, GRID_COLOUR, 0.8)
            svg.line(px, y1, px, y1 + 5, "#444444")
            svg.text(px, y1 + 18, human_bytes(2 ** k), size=11)
        else:
            svg.line(px, y1, px, y1 + 3, "#444444")
    svg.text((x0 + x1) / 2, y1 + 38, "message size (bytes, log2 scale)")


def x_axis_for(sizes, rect):
    ks, _ = log2_x_ticks(sizes)
    # a little room beyond the outer ticks so edge markers are not clipped
    return Axis(2.0 ** (ks[0] - 0.3), 2.0 ** (ks[-1] + 0.3), rect[0], rect[2],
                math.log2)


def draw_ratio_panel(svg, ox, oy, rows, key):
    layer, op, baseline = key
    rect = panel_frame(svg, ox, oy, f"{layer} {op}: ours / {baseline}")
    x0, y0, x1, y1 = rect
    pts = [(r[0], r[3]) for r in rows if r[3] is not None]
    sizes = [r[0] for r in rows]
    xs = x_axis_for(sizes, rect)

    values = [v for _, v in pts] + [1.0]
    lo, hi = min(values), max(values)
    span = max(hi - lo, 0.2)
    step = nice_step(span)
    lo = math.floor((lo - 0.05 * span) / step) * step
    # extra headroom at the top keeps the legend off the data
    hi = math.ceil((hi + 0.45 * span) / step) * step
    if lo < 0:
        lo = 0.0
    ys = Axis(lo, hi, y1, y0)
    v = lo
    while v <= hi + step * 1e-6:
        py = ys(v)
        svg.line(x0, py, x1, py, GRID_COLOUR, 0.8)
        svg.line(x0 - 5, py, x0, py, "#444444")
        svg.text(x0 - 8, py + 4, fmt_tick(round(v, 10)), anchor="end", size=11)
        v += step
    draw_x_axis(svg, xs, sizes, rect)
    svg.text(ox + 16, (y0 + y1) / 2, f"ours_us / {baseline}_us", rotate=-90)

    svg.line(x0, ys(1.0), x1, ys(1.0), "#555555", 1.5, "6,4")
    svg.series([(xs(s), ys(r)) for s, r in pts], RATIO_COLOUR)
    svg.legend(x1 - 6, y0 + 6, [(f"ours_us / {baseline}_us", RATIO_COLOUR,
                                 "circle"),
                                ("parity (1.0)", "#555555", "dash")])
    if not pts:
        svg.text((x0 + x1) / 2, (y0 + y1) / 2, "no ratio values", size=12)


def draw_time_panel(svg, ox, oy, rows, key):
    layer, op, baseline = key
    rect = panel_frame(svg, ox, oy, f"{layer} {op}: one-way time")
    x0, y0, x1, y1 = rect
    sizes = [r[0] for r in rows]
    xs = x_axis_for(sizes, rect)
    ours = [(r[0], r[1]) for r in rows if r[1] is not None]
    base = [(r[0], r[2]) for r in rows if r[2] is not None]
    values = [v for _, v in ours + base] or [1.0]
    d0 = math.floor(math.log10(min(values)))
    d1 = math.ceil(math.log10(max(values)))
    if d1 == d0:
        d1 += 1
    ys = Axis(10.0 ** d0, 10.0 ** d1, y1, y0, math.log10)
    for d in range(d0, d1 + 1):
        py = ys(10.0 ** d)
        svg.line(x0, py, x1, py, GRID_COLOUR, 0.8)
        svg.line(x0 - 5, py, x0, py, "#444444")
        svg.text(x0 - 8, py + 4, fmt_tick(10.0 ** d), anchor="end", size=11)
        if d < d1:
            for m in range(2, 10):
                svg.line(x0 - 3, ys(m * 10.0 ** d), x0, ys(m * 10.0 ** d),
                         "#444444", 0.8)
    draw_x_axis(svg, xs, sizes, rect)
    svg.text(ox + 16, (y0 + y1) / 2, "time (microseconds, log scale)",
             rotate=-90)
    svg.series([(xs(s), ys(v)) for s, v in base], BASE_COLOUR, "square")
    svg.series([(xs(s), ys(v)) for s, v in ours], OURS_COLOUR, "circle")
    svg.legend(x0 + 6 + 150, y0 + 6, [("ours (mpbridge)", OURS_COLOUR,
                                       "circle"),
                                      (f"baseline ({baseline})", BASE_COLOUR,
                                       "square")])


def render(groups, source_name):
    svg = Svg()
    width = 2 * PANEL_W + GAP
    svg.text(width / 2, 24, "mpbridge benchmarks: ours against baseline",
             size=16, weight="bold")
    svg.text(width / 2, 42, f"from {source_name}; ratio below 1.0 means ours "
             "is faster", size=11, colour="#555555")
    y = TITLE_H
    if not groups:
        svg.text(width / 2, y + 40, "no results in the CSV file", size=13)
        y += 80
    for key, rows in groups.items():
        layer, op, baseline = key
        svg.text(24, y + 18, f"{layer} / {op} against {baseline}",
                 anchor="start", size=14, weight="bold")
        top = y + GROUP_TITLE_H
        draw_ratio_panel(svg, 0, top, rows, key)
        draw_time_panel(svg, PANEL_W + GAP, top, rows, key)
        y = top + PANEL_H + GAP
    return svg.render(width, y)


def check_svg(text, expected_groups):
    """Raises ValueError unless `text` is well-formed SVG with one pair of
    panels per group."""
    try:
        root = ET.fromstring(text.encode("utf-8"))
    except ET.ParseError as e:
        raise ValueError(f"generated SVG is not well-formed XML: {e}") from e
    if root.tag != f"{{{SVG_NS}}}svg":
        raise ValueError(f"root element is {root.tag}, expected svg")
    frames = [r for r in root.iter(f"{{{SVG_NS}}}rect")
              if r.get("class") == "panel"]
    if len(frames) != 2 * expected_groups:
        raise ValueError(f"found {len(frames)} panels, expected "
                         f"{2 * expected_groups}")
    return root


def plot(csv_path, svg_path):
    groups = read_results(csv_path)
    text = render(groups, os.path.basename(csv_path))
    check_svg(text, len(groups))
    tmp = svg_path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, svg_path)
    return groups


def self_test():
    """Plots made-up results (including gaps and a single-size group) in a
    temporary directory and checks the output."""
    rows = [",".join(COLUMNS)]
    for k in range(3, 23):
        n = 1 << k
        base = 0.4 + n / 9000.0
        ours = base * (1.15 - 0.1 * k / 22)
        rows.append(f"core,pingpong,{n},{ours:.3f},mpi,{base:.3f},"
                    f"{ours / base:.3f}")
    rows.append("pvm,send,1024,,pvmd,12.500,")        # missing value
    rows.append("pvm,send,4096,3.000,pvmd,15.000,")   # ratio computed
    rows.append("ga,get<&>,64,2.000,armci,1.000,2.000")  # needs escaping
    with tempfile.TemporaryDirectory() as d:
        c, s = os.path.join(d, "r.csv"), os.path.join(d, "r.svg")
        with open(c, "w") as f:
            f.write("\n".join(rows) + "\n")
        groups = plot(c, s)
        assert len(groups) == 3, groups.keys()
        assert abs(groups[("pvm", "send", "pvmd")][1][3] - 0.2) < 1e-9
        with open(s, encoding="utf-8") as f:
            check_svg(f.read(), 3)
        with open(c, "w") as f:
            f.write(",".join(COLUMNS) + "\n")
        assert plot(c, s) == {}
        with open(c, "w") as f:
            f.write("layer,op,bytes\n")
        try:
            plot(c, s)
        except CsvError:
            pass
        else:
            raise AssertionError("a bad header was accepted")
    print("plot.py self-test: ok")


def main(argv):
    if len(argv) == 2 and argv[1] == "--self-test":
        self_test()
        return 0
    if len(argv) != 3 or argv[1].startswith("-"):
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    try:
        groups = plot(argv[1], argv[2])
    except (OSError, CsvError, ValueError) as e:
        print(f"plot.py: {e}", file=sys.stderr)
        return 1
    n = sum(len(v) for v in groups.values())
    print(f"plot.py: {len(groups)} group(s), {n} row(s) -> {argv[2]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
