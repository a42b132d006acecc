"""`sloshlab sweep`: runs one by one equal the whole sweep, a killed sweep resumes, a
broken file is one line and exit 2 with nothing written, and a real Slurm runs the
sweep as a job array (docs/sweeps.md)."""
import csv
import glob
import json
import os
import signal
import subprocess
import time

import numpy as np
import pytest

import sloshlab
from conftest import EXECUTABLE, SOURCE_DIR, run_cli

# Four short runs of the sloshing tank: two frequencies x two solvers.
SWEEP = {
    "name": "tiny",
    "base": {"scene": "sloshing_tank", "dim": 2, "spacing": 0.01, "duration": 0.3,
             "motion": {"kind": "shake", "amplitude": 0.004, "frequency": 1.9, "duration": 0.3}},
    "grid": {"motion.frequency": [1.5, 1.9], "solver": ["flip", "dfsph"]},
}
TIMING = {"wall_s"}  # the only figure that differs between two runs of the same item


def write_sweep(tmp_path, sweep=SWEEP, name="tiny.json"):
    path = tmp_path / name
    path.write_text(json.dumps(sweep))
    return path


def summaries(out, count):
    result = []
    for k in range(count):
        line = (out / f"run_{k:04d}" / "summary.json").read_text()
        assert line.count("\n") == 1, "one line"
        figures = json.loads(line)
        result.append({key: value for key, value in figures.items() if key not in TIMING})
    return result


def table(out):
    with open(out / "summary.csv", newline="") as f:
        return list(csv.DictReader(f))


def test_items_expand_in_the_files_order(tmp_path):
    listed = run_cli("sweep", write_sweep(tmp_path), "--list").stdout.splitlines()
    assert listed == ["0 motion.frequency=1.5 solver=flip", "1 motion.frequency=1.5 solver=dfsph",
                      "2 motion.frequency=1.9 solver=flip", "3 motion.frequency=1.9 solver=dfsph"]
    runs = sloshlab.sweep_runs(str(write_sweep(tmp_path)))
    assert [r["solver"] for r in runs] == ["flip", "dfsph", "flip", "dfsph"]
    assert not (tmp_path / "tiny_runs").exists(), "--list writes nothing"


def test_the_whole_sweep_equals_its_runs_made_one_by_one(tmp_path):
    path = write_sweep(tmp_path)
    whole = run_cli("sweep", path, "--out", tmp_path / "whole", "--jobs", 2)
    assert "4 of 4 runs finished" in whole.stdout
    for k in range(4):
        run_cli("sweep", path, "--out", tmp_path / "single", "--index", k)
    run_cli("sweep", path, "--out", tmp_path / "single", "--merge")
    assert summaries(tmp_path / "whole", 4) == summaries(tmp_path / "single", 4)
    rows = table(tmp_path / "whole")
    assert [row["index"] for row in rows] == ["0", "1", "2", "3"]
    assert {row["solver"] for row in rows} == {"flip", "dfsph"}
    assert rows[2]["motion.frequency"] == "1.9"
    for row in rows:
        assert row["failed"] == "0" and int(row["particles"]) > 100 and row["outside"] == "0"
        assert float(row["elevation_max.0"]) > 0.0, "the shake raised the surface at the left wall"

    # One run again through the module, with the same motion: the same figures.
    first = summaries(tmp_path / "whole", 1)[0]
    sim = sloshlab.Simulation(scene="sloshing_tank", solver="flip", dim=2, spacing=0.01,
                              motion=sloshlab.motion("shake", amplitude=0.004, frequency=1.5, duration=0.3))
    sim.advance(0.3)
    assert sim.steps == first["steps"] and len(sim) == first["particles"]
    kinetic = sim.stats["kinetic_energy"] / sim.stats["mass"]
    assert kinetic == first["kinetic_energy_end"]

    # Each run's stats.csv: one row per step (and one for the start), as --stats writes.
    stats = np.genfromtxt(tmp_path / "whole" / "run_0000" / "stats.csv", delimiter=",", names=True)
    assert len(stats) == first["steps"] + 1
    gauges = np.genfromtxt(tmp_path / "whole" / "run_0000" / "gauges.csv", delimiter=",", names=True)
    assert gauges["time"][-1] == pytest.approx(0.3, abs=0.011)


def wait_until_group_gone(group, timeout=10.0):
    """Until no process of the group runs (zombies aside): SIGKILL is delivered, not
    awaited, and the run a sweep was making is not its caller's child."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        running = False
        for stat in glob.glob("/proc/[0-9]*/stat"):
            try:
                text = open(stat).read()
            except OSError:
                continue
            fields = text[text.rfind(")") + 2:].split()
            running = running or (int(fields[2]) == group and fields[0] != "Z")
        if not running:
            return
        time.sleep(0.05)


def test_a_killed_sweep_resumes(tmp_path):
    sweep = dict(SWEEP, base=dict(SWEEP["base"], duration=1.0))
    path = write_sweep(tmp_path, sweep)
    out = tmp_path / "runs"
    process = subprocess.Popen([EXECUTABLE, "sweep", str(path), "--out", str(out), "--jobs", "1"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.time() + 120
    while not (out / "run_0000" / "summary.json").exists() and time.time() < deadline:
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGKILL)  # the sweep and the run it was making
    process.wait()
    wait_until_group_gone(process.pid)
    finished = sorted(p.name for p in out.iterdir() if (p / "summary.json").exists())
    assert "run_0000" in finished and len(finished) < 4, finished
    assert not (out / "summary.csv").exists()

    resumed = run_cli("sweep", path, "--out", out, "--jobs", 1)
    assert f"{len(finished)} of 4 runs finished before, skipped" in resumed.stdout
    assert sorted(p.name for p in out.iterdir()) == ["run_0000", "run_0001", "run_0002", "run_0003", "summary.csv"], \
        "the killed run's partial folder is gone"
    run_cli("sweep", path, "--out", tmp_path / "fresh", "--jobs", 2)
    assert summaries(out, 4) == summaries(tmp_path / "fresh", 4)


BROKEN = [
    ("{\"grid\": {\"solver\": [\"flip\"]", "not valid JSON"),
    ("{\"grid\": {\"solver\": [\"flip\"]}, \"colour\": 1}", "unknown key 'colour'"),
    ("{\"grid\": {}}", "with at least one key"),
    ("{\"grid\": {\"solver\": []}}", "at least one value"),
    ("{\"runs\": []}", "at least one"),
    ("{\"grid\": {\"solver\": [\"flip\"]}, \"runs\": [{}]}", "exactly one of 'grid' and 'runs'"),
    ("{\"grid\": {\"solver\": [\"no_such\"]}}", "unknown solver 'no_such'"),
    ("{\"grid\": {\"params.viscosity\": [-1]}, \"base\": {\"solver\": \"wcsph\"}}", "viscosity"),
    ("{\"grid\": {\"motion.kind\": [\"wobble\"]}}", "unknown motion 'wobble'"),
    ("{\"grid\": {\"dim\": [4]}}", "dim"),
    ("{\"grid\": {\"spacing\": [\"fine\"]}}", "must be a number"),
    ("{\"runs\": [{\"scene\": \"no_such_scene\"}]}", "no_such_scene"),
    ("{\"runs\": [{\"temperature\": 300}]}", "unknown key 'temperature'"),
]


@pytest.mark.parametrize("text,problem", BROKEN)
def test_a_broken_sweep_file_is_one_line_and_exit_2_and_writes_nothing(tmp_path, text, problem):
    path = tmp_path / "broken.json"
    path.write_text(text)
    result = run_cli("sweep", path, check=False)
    assert result.returncode == 2, result
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"sloshlab: error: sweep '{path}'"), result.stderr
    assert problem in lines[0]
    assert result.stdout == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken.json"], "nothing written"
    with pytest.raises(sloshlab.Error, match="sweep"):
        sloshlab.sweep_runs(str(path))


def test_bad_command_lines_are_one_line_and_exit_2(tmp_path):
    path = write_sweep(tmp_path)
    for args, problem in [(["--index", 4], "out of range"), (["--index", -1], "--index"),
                          (["--jobs", 0], "--jobs"), (["--index", 1, "--merge"], "excludes"),
                          (["--out", path], "not a directory")]:
        result = run_cli("sweep", path, *args, check=False)
        assert result.returncode == 2 and problem in result.stderr, (args, result.stderr)
        assert len(result.stderr.strip().splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tiny.json"]
    missing = run_cli("sweep", tmp_path / "missing.json", check=False)
    assert missing.returncode == 2 and "missing.json" in missing.stderr


def test_a_slurm_job_array_runs_the_sweep(tmp_path):
    """A private single-node Slurm (tests/sweep/slurm_array.sh) runs the four items as an
    array, `--merge` joins them; the table equals the sweep run here."""
    path = write_sweep(tmp_path)
    line = run_cli("sweep", path, "--out", tmp_path / "slurm_runs", "--slurm").stdout
    assert line.startswith("mkdir -p ") and " && sbatch --array=0-3 " in line
    assert "--index \\$SLURM_ARRAY_TASK_ID" in line
    command = f"'{EXECUTABLE}' sweep '{path}' --out '{tmp_path / 'slurm_runs'}' --index $SLURM_ARRAY_TASK_ID --threads 1"
    result = subprocess.run([os.path.join(SOURCE_DIR, "tests/sweep/slurm_array.sh"), str(tmp_path / "cluster"), "4",
                             command], capture_output=True, text=True, timeout=600)
    if result.returncode == 77:
        pytest.skip(result.stderr.strip())
    assert result.returncode == 0, result.stdout + result.stderr
    merged = run_cli("sweep", path, "--out", tmp_path / "slurm_runs", "--merge").stdout
    assert "4 of 4 runs" in merged
    run_cli("sweep", path, "--out", tmp_path / "here", "--jobs", 2)
    assert summaries(tmp_path / "slurm_runs", 4) == summaries(tmp_path / "here", 4)
