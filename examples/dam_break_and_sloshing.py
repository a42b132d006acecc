#!/usr/bin/env python3
"""Two of the lab's experiments from Python, plotted against their references:

1. the dam break's surge front against Martin & Moyce (1952), docs/physics.md (11.8);
2. a sloshing sweep: the sloshing tank shaken at ten frequencies, the largest wave at its
   left wall against the frequency, with the first mode's f1 of linear theory (11.4).

    python3 examples/dam_break_and_sloshing.py [OUTDIR] [--quick]

Writes OUTDIR/dam_break.png and OUTDIR/slosh_response.png (default OUTDIR: examples_out)
and prints the figures. --quick runs a coarser, shorter version (the tests run it).
The same steps, cell by cell, are in examples/sloshlab_tour.ipynb.
"""
import argparse
import csv
import json
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")  # files, no window
import matplotlib.pyplot as plt
import numpy as np

import sloshlab

HERE = os.path.dirname(os.path.abspath(__file__))


def dam_break(outdir, quick):
    """The dam break with DFSPH: Z = x_front / a against T = t sqrt(2 g / a), (11.8)."""
    result = sloshlab.run_experiment("dam_break", solver="dfsph", spacing=0.0057 if quick else 0.0)
    curve = result["curve"]
    with open(os.path.join(HERE, "../assets/data/martin_moyce_1952_front_n2_2_table2.csv")) as f:
        lines = [line for line in f if line.strip() and not line.startswith("#")][1:]  # after the header T,Z
    table = np.array([[float(v) for v in line.split(",")] for line in lines])
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot(curve["T_shifted"], curve["Z_simulated"], label=f"DFSPH, {result['particles']} particles (shifted by dT = 0.25)")
    ax.plot(table[:, 0], table[:, 1], "o", label="Martin & Moyce 1952, Table 2")
    ax.set_xlabel("T = t sqrt(2g/a)")
    ax.set_ylabel("Z = x_front / a")
    ax.set_title("Dam break: the surge front")
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(outdir, "dam_break.png"), dpi=100)
    plt.close(fig)
    print(f"dam break: {result['quantity']} {result['measured']:.3f} against {result['reference']:.3f} "
          f"({100 * result['relative_error']:.1f} % off)")
    return result


def first_mode_frequency(width, depth, g=9.81):
    """f1 = omega_1 / 2 pi, omega_1^2 = g k tanh(k H), k = pi / L: physics.md (11.4)."""
    k = math.pi / width
    return math.sqrt(g * k * math.tanh(k * depth)) / (2.0 * math.pi)


def slosh_sweep(outdir, quick):
    """The sweep file's runs, then the table's largest left-wall elevation per frequency."""
    sweep_file = os.path.join(HERE, "sweeps/slosh_frequency.json")
    if quick:  # three frequencies, a coarser tank, a shorter shake
        sweep = json.load(open(sweep_file))
        sweep["base"].update(spacing=0.01, duration=2.5)
        sweep["base"]["motion"]["duration"] = 2.5
        sweep["grid"]["motion.frequency"] = [1.2, 1.9, 2.7]
        sweep_file = os.path.join(outdir, "slosh_frequency_quick.json")
        json.dump(sweep, open(sweep_file, "w"))
    table_path = sloshlab.run_sweep(sweep_file, out=os.path.join(outdir, "slosh_runs"))
    with open(table_path, newline="") as f:
        rows = list(csv.DictReader(f))
    frequency = np.array([float(r["motion.frequency"]) for r in rows])
    elevation = np.array([float(r["elevation_max.0"]) for r in rows])
    f1 = first_mode_frequency(0.2, 0.1)

    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot(frequency, 1000 * elevation, "o-", label=f"{rows[0]['solver'].upper()}, largest rise at the left wall")
    ax.axvline(f1, color="k", linestyle="--", label=f"f1 = {f1:.3f} Hz, linear theory (11.4)")
    ax.set_xlabel("shake frequency (Hz)")
    ax.set_ylabel("largest elevation (mm)")
    ax.set_title(f"Sloshing tank L = 0.2 m, H = 0.1 m, shaken at A = {rows[0]['motion.amplitude']} m")
    ax.legend(loc="upper left")
    fig.tight_layout()
    fig.savefig(os.path.join(outdir, "slosh_response.png"), dpi=100)
    plt.close(fig)
    peak = frequency[np.argmax(elevation)]
    print(f"sloshing sweep: {len(rows)} runs; the largest wave at {peak:.3f} Hz, f1 = {f1:.3f} Hz; "
          f"elevations {', '.join(f'{1000 * e:.1f}' for e in elevation)} mm")
    return frequency, elevation, f1


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir", nargs="?", default="examples_out")
    parser.add_argument("--quick", action="store_true", help="a coarser, shorter run (the tests')")
    args = parser.parse_args()
    os.makedirs(args.outdir, exist_ok=True)
    dam_break(args.outdir, args.quick)
    slosh_sweep(args.outdir, args.quick)
    return 0


if __name__ == "__main__":
    sys.exit(main())
