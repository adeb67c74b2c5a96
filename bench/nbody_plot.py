#!/usr/bin/env python3
"""Draws the galaxy N-body experiment: run time against group order for
the plain MPI program (fixed 3/1/5 mapping) and the mpc.h program, as an
SVG line chart from the "NBODY mpi|mpc ORDER SECONDS" lines that
scripts/bench.sh collects.

usage: nbody_plot.py NBODY_OUTPUT.txt OUT.svg
"""

import sys
from xml.sax.saxutils import escape


def read(path):
    times = {"mpi": {}, "mpc": {}}
    orders = []
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) == 4 and w[0] == "NBODY" and w[1] in times:
                times[w[1]][w[2]] = float(w[3])
                if w[2] not in orders:
                    orders.append(w[2])
    return orders, times


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    orders, times = read(sys.argv[1])
    if not orders:
        sys.exit("nbody_plot.py: no NBODY lines in " + sys.argv[1])
    width, height, left, bottom, top = 760, 360, 60, 90, 30
    top_t = max(max(t.values(), default=0) for t in times.values()) * 1.1
    plot_w = width - left - 20
    plot_h = height - top - bottom

    def x(i):
        return left + plot_w * (i + 0.5) / len(orders)

    def y(t):
        return top + plot_h * (1 - t / top_t)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        'font-family="sans-serif" font-size="11">',
        f'<text x="{left}" y="18" font-size="13">Galaxy N-body on hosts of speeds '
        "1150, 331, 1662: time against group order</text>",
        f'<line x1="{left}" y1="{top + plot_h}" x2="{left + plot_w}" y2="{top + plot_h}" stroke="black"/>',
        f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + plot_h}" stroke="black"/>',
    ]
    step = max(1, round(top_t / 5))
    t = 0
    while t <= top_t:
        out.append(f'<text x="{left - 6}" y="{y(t) + 4:.1f}" text-anchor="end">{t} s</text>')
        out.append(f'<line x1="{left}" y1="{y(t):.1f}" x2="{left + plot_w}" y2="{y(t):.1f}" stroke="#ddd"/>')
        t += step
    for i, o in enumerate(orders):
        out.append(
            f'<text transform="translate({x(i):.1f},{top + plot_h + 10}) rotate(30)">{escape(o)}</text>'
        )
    for name, colour in (("mpi", "#c0392b"), ("mpc", "#2471a3")):
        pts = [(x(i), y(times[name][o])) for i, o in enumerate(orders) if o in times[name]]
        path = " ".join(f"{a:.1f},{b:.1f}" for a, b in pts)
        out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for a, b in pts:
            out.append(f'<circle cx="{a:.1f}" cy="{b:.1f}" r="3" fill="{colour}"/>')
    legend = (("mpi", "#c0392b", "plain MPI, fixed 3/1/5 mapping"), ("mpc", "#2471a3", "mpc.h, dispatcher's mapping"))
    for k, (_, colour, text) in enumerate(legend):
        ly = top + 10 + 16 * k
        out.append(f'<rect x="{left + plot_w - 230}" y="{ly - 8}" width="10" height="10" fill="{colour}"/>')
        out.append(f'<text x="{left + plot_w - 215}" y="{ly + 1}">{escape(text)}</text>')
    out.append("</svg>")
    with open(sys.argv[2], "w") as f:
        f.write("\n".join(out) + "\n")
    print(f"nbody_plot.py: {len(orders)} orders -> {sys.argv[2]}")


if __name__ == "__main__":
    main()
