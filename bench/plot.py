#!/usr/bin/env python3
"""Draw the benchmark results with matplotlib: one figure per layer.

usage: plot.py RESULTS.csv TARGETS.txt OUTDIR
       plot.py --self-test

RESULTS.csv has the columns  layer,op,bytes,ours_us,baseline,baseline_us,ratio
(the file scripts/bench.sh writes). TARGETS.txt has one target per line,
"layer op baseline bytes max_ratio" (scripts/bench.sh's TARGETS table).

For every layer the CSV holds, OUTDIR/<layer>.svg shows the ratio
ours/baseline against message size (log2 axis), one line per (op,
baseline) pair, a dashed line at parity (1.0) and each target of the
layer as a short red bar at its size, drawn in the colour of its series'
line when that series was measured. Rows whose size is not a message
size (0 or less) are drawn at size 1.
"""

import csv
import os
import sys
import tempfile
import xml.etree.ElementTree as ET

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend is chosen first)

COLUMNS = ["layer", "op", "bytes", "ours_us", "baseline", "baseline_us", "ratio"]


def read_results(path):
    """Rows of the CSV as dicts, numbers converted; bad rows are skipped."""
    rows = []
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            try:
                rows.append(
                    {
                        "layer": r["layer"],
                        "op": r["op"],
                        "bytes": max(int(float(r["bytes"])), 1),
                        "baseline": r["baseline"],
                        "ratio": float(r["ratio"]),
                    }
                )
            except (KeyError, TypeError, ValueError):
                continue
    return rows


def read_targets(path):
    """(layer, op, baseline, bytes, max_ratio) tuples of the targets file."""
    targets = []
    if not path or not os.path.exists(path):
        return targets
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) != 5:
                continue
            layer, op, baseline, size, limit = parts
            try:
                targets.append((layer, op, baseline, max(int(size), 1), float(limit)))
            except ValueError:
                continue
    return targets


def draw_layer(layer, rows, targets, out_path):
    """Writes the figure of one layer; returns the number of series drawn."""
    series = {}
    for r in rows:
        series.setdefault((r["op"], r["baseline"]), []).append((r["bytes"], r["ratio"]))
    fig, ax = plt.subplots(figsize=(8, 4.8))
    colours = {}
    for (op, baseline), points in sorted(series.items()):
        points.sort()
        xs = [p[0] for p in points]
        ys = [p[1] for p in points]
        (line,) = ax.plot(xs, ys, marker="o", label=f"{op} vs {baseline}")
        colours[(op, baseline)] = line.get_color()
    ax.axhline(1.0, color="grey", linestyle="--", linewidth=1, label="parity")
    drawn_target = False
    for t_layer, op, baseline, size, limit in targets:
        if t_layer != layer:
            continue
        colour = colours.get((op, baseline), "red")
        ax.plot(
            [size / 1.25, size * 1.25],
            [limit, limit],
            color=colour,
            linewidth=3,
            solid_capstyle="butt",
            label=None if drawn_target else "target (bar at its size)",
        )
        ax.plot([size], [limit], marker="v", color="red", markersize=5)
        drawn_target = True
    ax.set_xscale("log", base=2)
    ax.set_xlabel("message size (bytes)")
    ax.set_ylabel("ratio ours / baseline (lower is better)")
    ax.set_title(f"mpbridge benchmark: {layer}")
    ax.grid(True, which="major", color="#dddddd")
    ax.legend(fontsize="small", loc="best")
    fig.tight_layout()
    tmp = out_path + ".tmp"
    fig.savefig(tmp, format="svg")
    plt.close(fig)
    ET.parse(tmp)  # a malformed file is never left behind
    os.replace(tmp, out_path)
    return len(series)


def plot(results, targets_path, out_dir):
    rows = read_results(results)
    targets = read_targets(targets_path)
    os.makedirs(out_dir, exist_ok=True)
    written = []
    for layer in sorted({r["layer"] for r in rows}):
        path = os.path.join(out_dir, f"{layer}.svg")
        draw_layer(layer, [r for r in rows if r["layer"] == layer], targets, path)
        written.append(path)
    return written


def self_test():
    with tempfile.TemporaryDirectory() as d:
        csv_path = os.path.join(d, "results.csv")
        with open(csv_path, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(COLUMNS)
            for size in (8, 64, 4096):
                w.writerow(["core", "pingpong", size, 1.2, "mpi", 1.0, 1.2])
            w.writerow(["ga", "get", 8, 0.5, "ga-5.8", 1.0, 0.5])
            w.writerow(["ga", "broken", "x", 1, "mpi", 1, "y"])
        targets_path = os.path.join(d, "targets.txt")
        with open(targets_path, "w") as f:
            f.write("core pingpong mpi 8 0.8\nga get ga-5.8 8 0.5\nnot a target\n")
        out = os.path.join(d, "out")
        written = plot(csv_path, targets_path, out)
        names = sorted(os.path.basename(p) for p in written)
        assert names == ["core.svg", "ga.svg"], names
        for p in written:
            root = ET.parse(p).getroot()
            assert root.tag.endswith("svg"), root.tag
            text = open(p).read()
            assert "benchmark" in text or "<path" in text, p
    print("plot.py self-test: ok")


def main(argv):
    if argv[1:] == ["--self-test"]:
        self_test()
        return 0
    if len(argv) != 4:
        sys.stderr.write(__doc__)
        return 2
    for p in plot(argv[1], argv[2], argv[3]):
        print(f"wrote {p}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
