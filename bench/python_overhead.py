#!/usr/bin/env python3
"""What stepping from Python costs beside the command line (docs/python.md, "Speed").

    python3 bench/python_overhead.py [BUILD_DIR] [--repeats R] [--markdown FILE]

Two cases: the default bottle (WCSPH 2D, 1,000 particles) and the 3D dam break at
59,474 particles (DFSPH, spacing 0.0023 m). For each, in particle-steps per second:

- solver only: the solver's own wall time as the engine measures it (stats wall_ms),
  summed over the same steps in the Python process (without the step's diagnostics);
- step() loop: sim.step() called once per step, timed around the calls;
- step(N): one call for all N steps (the loop stays in C++);
- step() + positions: the loop, reading the positions array after every step;
- command line: `sloshlab --headless --steps N` minus `--steps 0` (the start-up), wall.

The overhead per step is the step() loop's time per step minus step(N)'s: what calling
into the module once per step adds (the call, the GIL's release and the stats read). Each case
runs R times (default 3); the table gives the range. Run it alone on the machine.
"""
import argparse
import os
import platform
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))

CASES = [
    {"name": "default bottle (wcsph 2D)", "scene": "bottle", "solver": "wcsph", "dim": 2, "spacing": 0.0, "steps": 2000},
    {"name": "dam break (dfsph 3D)", "scene": "dam_break", "solver": "dfsph", "dim": 3, "spacing": 0.0023, "steps": 30},
]


def make(sloshlab, case):
    sim = sloshlab.Simulation(scene=case["scene"], solver=case["solver"], dim=case["dim"], spacing=case["spacing"])
    sim.step(5)  # warm-up: neighbour lists, first pressure solves
    return sim


def engine_and_loop(sloshlab, case, read_positions=False):
    sim = make(sloshlab, case)
    engine_ms = 0.0
    start = time.perf_counter()
    for _ in range(case["steps"]):
        sim.step()
        engine_ms += sim.stats["wall_ms"]
        if read_positions:
            sim.positions
    wall = time.perf_counter() - start
    return len(sim), engine_ms / 1000.0, wall


def one_call(sloshlab, case):
    sim = make(sloshlab, case)
    start = time.perf_counter()
    sim.step(case["steps"])
    return time.perf_counter() - start


def command_line(executable, case):
    def run(steps):
        args = [executable, "--headless", "--scene", case["scene"], "--solver", case["solver"], "--dim", str(case["dim"]),
                "--steps", str(steps)]
        if case["spacing"]:
            args += ["--spacing", str(case["spacing"])]
        start = time.perf_counter()
        subprocess.run(args, check=True, capture_output=True)
        return time.perf_counter() - start
    # The 5 warm-up steps are in both runs, as in Python's.
    return run(case["steps"] + 5) - run(5)


def span(values, scale=1.0, digits=3):
    lo, hi = min(values) * scale, max(values) * scale
    return f"{lo:.{digits}g}" if f"{lo:.{digits}g}" == f"{hi:.{digits}g}" else f"{lo:.{digits}g}-{hi:.{digits}g}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build", nargs="?", default=os.path.join(HERE, "..", "build"))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--markdown")
    args = parser.parse_args()
    sys.path.insert(0, os.path.join(args.build, "python"))
    import sloshlab

    lines = [f"Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
             f"OpenMP threads: {os.environ.get('OMP_NUM_THREADS', 'all')}; Python {platform.python_version()}",
             "",
             "| case | particles | solver only | step() loop | step(N) | step() + positions | command line | overhead per step |",
             "|---|---|---|---|---|---|---|---|"]
    for case in CASES:
        figures = {k: [] for k in ("engine", "loop", "call", "read", "cli", "overhead")}
        count = 0
        for _ in range(args.repeats):
            count, engine, loop = engine_and_loop(sloshlab, case)
            _, _, read = engine_and_loop(sloshlab, case, read_positions=True)
            call = one_call(sloshlab, case)
            cli = command_line(os.path.join(args.build, "sloshlab"), case)
            work = count * case["steps"]
            figures["engine"].append(work / engine)
            figures["loop"].append(work / loop)
            figures["call"].append(work / call)
            figures["read"].append(work / read)
            figures["cli"].append(work / cli)
            figures["overhead"].append((loop - call) / case["steps"] * 1e6)
        row = [case["name"], f"{count:,}"] + [span(figures[k], 1e-6) + " M" for k in ("engine", "loop", "call", "read", "cli")]
        lo, hi = min(figures["overhead"]), max(figures["overhead"])
        row.append(f"{span(figures['overhead'])} us" if lo > 0 else f"within the noise ({lo:.0f} to {hi:.0f} us)")
        lines.append("| " + " | ".join(row) + " |")
    lines += ["", "Particle-steps per second (M: millions); overhead: the step() loop's time per step minus "
              f"step(N)'s, in microseconds; {args.repeats} repeats, the range shown."]
    text = "\n".join(lines)
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as out:
            out.write(text + "\n")


if __name__ == "__main__":
    main()
