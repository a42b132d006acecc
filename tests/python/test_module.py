"""The Python module against the command line: the same runs give the same numbers, bit
for bit, and bad input the same one-line messages (docs/python.md)."""
import glob
import json
import math
import os

import numpy as np
import pytest

import sloshlab
from conftest import cli_error_line, run_cli


def read_particles(path, dim):
    table = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)
    return table[:, :dim], table[:, dim:2 * dim]


@pytest.mark.parametrize("solver,dim", [("dfsph", 2), ("flip", 2), ("wcsph", 3)])
def test_arrays_equal_the_command_lines_export_bit_for_bit(tmp_path, solver, dim):
    steps = 12
    run_cli("--headless", "--scene", "bottle", "--solver", solver, "--dim", dim, "--steps", steps,
            "--export", tmp_path / "cli", "--every", steps, "--threads", 1)
    x_cli, v_cli = read_particles(tmp_path / "cli" / f"particles_{steps}.csv", dim)

    sim = sloshlab.Simulation(scene="bottle", solver=solver, dim=dim)
    sim.step(steps)
    assert sim.steps == steps
    assert sim.positions.shape == (len(sim), dim)
    # The CSV holds the shortest text of each double: equal, not close.
    np.testing.assert_array_equal(sim.positions, x_cli)
    np.testing.assert_array_equal(sim.velocities, v_cli)


def test_stats_are_the_command_lines_columns(tmp_path):
    """The last step's figures under the --stats columns' names, the solver's own included
    (the hybrid solvers' liquid volume and pressure iterations)."""
    run_cli("--headless", "--scene", "bottle", "--solver", "flip", "--steps", 5, "--stats", tmp_path / "stats.csv",
            "--threads", 1)
    table = np.genfromtxt(tmp_path / "stats.csv", delimiter=",", names=True)
    sim = sloshlab.Simulation(scene="bottle", solver="flip")
    sim.step(5)
    for column in ("kinetic_energy", "iterations", "residual", "divergence_max", "liquid_volume"):
        assert float(table[column][-1]) == pytest.approx(sim.stats[column], rel=1e-9), column
    assert sim.stats["liquid_volume"] == pytest.approx(0.5 * 0.2, rel=0.02)  # the bottle's half-filled 2D area
    assert math.isnan(sloshlab.Simulation(scene="bottle", solver="wcsph").stats["liquid_volume"])


def test_arrays_are_read_only_and_follow_the_steps():
    sim = sloshlab.Simulation(scene="dam_break", solver="pbf")
    before = sim.positions.copy()
    with pytest.raises(ValueError):
        sim.positions[0, 0] = 1.0
    sim.step(5)
    assert not np.array_equal(before, sim.positions), "the liquid moved, the array did not"
    # The container's frame: the walls at 0 and size, every particle inside them.
    size = sim.container["size"]
    local = sim.container_positions
    assert np.all(local >= 0.0) and np.all(local[:, 0] <= size[0]) and np.all(local[:, 1] <= size[1])
    speed = sim.field("speed")
    np.testing.assert_allclose(speed, np.linalg.norm(sim.container_velocities, axis=1), rtol=1e-6)
    assert sim.field("vorticity") is None or len(sim.field("vorticity")) == len(sim)


def test_a_parameter_edited_between_steps_gives_the_command_lines_state(tmp_path):
    """Python edits WCSPH's viscosity after 10 steps and saves the state; the command line
    resumes that state for 10 steps. Python's own 10 further steps must equal them bit for
    bit, and differ from a run without the edit (so the edit took effect)."""
    sim = sloshlab.Simulation(scene="bottle", solver="wcsph", params={"viscosity": 0.02})
    assert sim.params["viscosity"] == 0.02
    sim.step(10)
    sim.set_param("viscosity", 0.08)
    assert sim.params["viscosity"] == 0.08
    state = tmp_path / "edited.state"
    sim.save_state(str(state))
    run_cli("--headless", "--load-state", state, "--steps", 10, "--export", tmp_path / "cli", "--every", 10,
            "--threads", 1)
    sim.step(10)
    x_cli, v_cli = read_particles(tmp_path / "cli" / "particles_20.csv", 2)
    np.testing.assert_array_equal(sim.positions, x_cli)
    np.testing.assert_array_equal(sim.velocities, v_cli)

    unedited = sloshlab.Simulation(scene="bottle", solver="wcsph", params={"viscosity": 0.02})
    unedited.step(20)
    assert not np.array_equal(unedited.velocities, sim.velocities)


def test_state_files_scene_files_and_exports_round_trip(tmp_path):
    sim = sloshlab.Simulation(scene="drop", solver="apic", dim=2)
    sim.advance(0.05)
    sim.save_state(str(tmp_path / "a.state"))
    again = sloshlab.Simulation.load_state(str(tmp_path / "a.state"))
    assert again.time == sim.time and again.steps == sim.steps
    sim.step(3)
    again.step(3)
    np.testing.assert_array_equal(sim.positions, again.positions)

    sim.save_scene(str(tmp_path / "scene.json"))
    scene = json.loads((tmp_path / "scene.json").read_text())
    assert scene["solver"] == "apic"

    sim.export(str(tmp_path / "out"))
    sim.step(1)
    sim.export(str(tmp_path / "out"))
    frames = sorted(glob.glob(str(tmp_path / "out" / "particles_*.csv")))
    assert len(frames) == 2
    x, _ = read_particles(frames[-1], 2)
    np.testing.assert_array_equal(x, sim.positions)
    assert len((tmp_path / "out" / "container.csv").read_text().splitlines()) == 3  # header and two frames
    sim.export(str(tmp_path / "vtk"), format="vtk")
    assert glob.glob(str(tmp_path / "vtk" / "particles_*.vtp"))


def test_gauges_and_sensors_read_the_still_tank():
    sim = sloshlab.Simulation(scene="sloshing_tank", solver="apic")
    assert sim.surface_heights([0.005, 0.1, 0.195]) == pytest.approx([0.1, 0.1, 0.1], abs=1e-9)
    sim.advance(0.5)
    # rho g d at 0.05 m depth, physics.md (11.1), (11.11)
    assert sim.pressure_at((0.0, 0.05), 0.01) == pytest.approx(1000 * 9.81 * 0.05, rel=0.05)
    with pytest.raises(sloshlab.Error, match="outside the container"):
        sim.pressure_at((0.5, 0.05), 0.01)
    with pytest.raises(sloshlab.Error):
        sim.surface_heights([-1.0])


def test_motions_move_the_container():
    sim = sloshlab.Simulation(scene="bottle", solver="dfsph")
    home = sim.container["position"]
    shake = sloshlab.motion("shake", amplitude=0.02, frequency=2.0, duration=1.0)
    assert shake.duration == pytest.approx(1.0)
    sim.play(shake)
    swing = 0.0
    while sim.time < 0.5:
        sim.step()
        swing = max(swing, abs(sim.container["position"][0] - home[0]))
    assert 0.01 < swing <= 0.02 + 1e-9, "the shake's half swing is its amplitude"
    sim.advance(0.6)  # past the motion's end: back home, at rest
    assert sim.container["position"][0] == pytest.approx(home[0], abs=1e-9)

    sim.move_to((home[0] + 0.1, home[1]), angle=0.2)
    sim.advance(1.5)  # the follow spring, 6 Hz, has long settled
    assert sim.container["position"][0] == pytest.approx(home[0] + 0.1, abs=1e-3)
    assert sim.container["angle"] == pytest.approx(0.2, abs=1e-3)
    assert not sim.failed


def test_a_3d_container_tips_and_spins():
    sim = sloshlab.Simulation(scene="bottle", solver="pbf", dim=3, spacing=0.03)
    sim.play(sloshlab.motion("spin", rate=2.0, duration=0.5, ramp_time=0.1))
    sim.advance(0.25)
    omega = sim.container["angular_velocity"]
    assert omega[1] == pytest.approx(2.0, rel=1e-6), "a spin turns about the vertical, y"
    assert omega[0] == 0.0 and omega[2] == 0.0
    sim.advance(0.6)
    spun = sim.container["angle_y"]
    assert spun == pytest.approx(2.0 * 0.4, rel=0.02), "2 rad/s for 0.5 s less a 0.1 s ramp"
    sim.move_to(sim.container["position"], angle=0.0, angle_x=0.3, angle_y=spun)
    sim.advance(1.5)
    assert sim.container["angle_x"] == pytest.approx(0.3, abs=1e-3)
    assert not sim.failed
    with pytest.raises(sloshlab.Error, match="3D only"):
        sloshlab.Simulation(scene="bottle", dim=2, motion=sloshlab.motion("spin"))


def test_an_experiment_returns_the_command_lines_figures(tmp_path):
    line = run_cli("--headless", "--experiment", "hydrostatic", "--solver", "dfsph", "--stats", tmp_path / "curve.csv",
                   "--threads", 1).stdout
    result = sloshlab.run_experiment("hydrostatic", solver="dfsph")
    assert result["experiment"] == "hydrostatic" and result["solver"] == "dfsph"
    assert result["relative_error"] < 0.05, "the hydrostatic gradient within 5 % of rho g, physics.md (11.1)"
    assert result["relative_error"] == pytest.approx(abs(result["measured"] / result["reference"] - 1.0))
    cli_curve = np.genfromtxt(tmp_path / "curve.csv", delimiter=",", names=True, skip_header=1)  # after the "# experiment" line
    for name in cli_curve.dtype.names:
        np.testing.assert_allclose(result["curve"][name], cli_curve[name], rtol=1e-8, err_msg=name)
    assert f"{result['measured']:.4g}"[:4] in line


def test_bad_input_raises_the_command_lines_message(tmp_path):
    cases = [
        ({"scene": "no_such_scene"}, ["--scene", "no_such_scene"]),
        ({"solver": "no_such_solver"}, ["--solver", "no_such_solver"]),
        ({"solver": "wcsph", "params": {"no_such_key": 1}}, ["--solver", "wcsph", "--set", "no_such_key=1"]),
        ({"solver": "wcsph", "params": {"viscosity": float("nan")}}, ["--solver", "wcsph", "--set", "viscosity=nan"]),
        ({"solver": "wcsph", "params": {"viscosity": 1e9}}, ["--solver", "wcsph", "--set", "viscosity=1000000000"]),
    ]
    for kwargs, args in cases:
        expected = cli_error_line("--headless", "--steps", 1, *args)
        with pytest.raises(sloshlab.Error) as caught:
            sloshlab.Simulation(**kwargs)
        assert str(caught.value) == expected, kwargs
    assert issubclass(sloshlab.Error, RuntimeError)

    sim = sloshlab.Simulation(solver="wcsph")
    with pytest.raises(sloshlab.Error, match="viscosity"):
        sim.set_param("viscosity", -1.0)
    with pytest.raises(sloshlab.Error):
        sim.field("no_such_field")
    with pytest.raises(sloshlab.Error):
        sim.advance(math.inf)


def test_a_blow_up_raises_and_stops_the_simulation(tmp_path):
    """The bottle jerked 0.1 m sideways and back within 4 ms (50 m/s, the scripts' limit):
    WCSPH's liquid gains energy once the bottle stands still; the command line exits 3
    with the message, Python raises it, and nothing steps after."""
    jerk = tmp_path / "jerk.csv"
    jerk.write_text("t,x,y,angle\n0,0,0,0\n0.002,0.1,0,0\n0.004,0,0,0\n")
    result = run_cli("--headless", "--solver", "wcsph", "--motion", jerk, "--time", 0.1, check=False)
    assert result.returncode == 3, result
    message = result.stderr.strip().splitlines()[-1]
    assert message.startswith("sloshlab: error: solver 'wcsph' gained energy at step ")
    sim = sloshlab.Simulation(solver="wcsph", motion=str(jerk))
    with pytest.raises(sloshlab.Error) as caught:
        sim.advance(0.1)
    assert "sloshlab: error: " + str(caught.value) == message
    assert sim.failed
    steps = sim.steps
    with pytest.raises(sloshlab.Error):
        sim.step()
    assert sim.steps == steps


def test_lists_name_what_the_command_line_offers():
    listed = run_cli("--list-scenes").stdout
    for name in sloshlab.scenes():
        assert name in listed
    assert {"wcsph", "dfsph", "pbf", "pic", "flip", "apic", "collisions", "toy"} <= set(sloshlab.solvers())
    assert "dam_break" in sloshlab.experiments()
    info = sloshlab.Simulation(solver="dfsph").param_info()
    assert all({"key", "unit", "min", "max", "description"} <= set(entry) for entry in info)


def test_the_pour_scene_balances_its_mass():
    """physics.md (14.4): held = start + in - out, and switched off the faucet stops."""
    sim = sloshlab.Simulation(scene="pour", solver="pbf")
    start = sim.stats["mass"]
    sim.advance(0.5)
    pour = sim.pour
    assert pour["has_faucet"] and pour["has_outlet"]
    assert pour["particles_in"] > 0 and pour["particles_out"] > 0
    assert sim.stats["mass"] == pytest.approx(start + pour["mass_in"] - pour["mass_out"], rel=1e-9)
    sim.set_pour(faucet=False, outlet=True)
    poured = sim.pour["particles_in"]
    sim.advance(0.2)
    assert sim.pour["particles_in"] == poured
    assert not sim.pour["faucet_on"]


def test_a_floating_box_reads_its_draft_and_takes_a_new_density():
    """physics.md (16.8): the half-density box of floating_box settles near half its 6 cm
    height under water (within 20 %: the window's scene at 5 mm, read after 3 s); made
    denser it floats deeper. Its state is the Scene panel's, in the container's frame."""
    sim = sloshlab.Simulation(scene="floating_box", solver="wcsph")
    bodies = sim.bodies
    assert len(bodies) == 1
    box = bodies[0]
    assert box["shape"] == "box" and box["density"] == 500.0
    assert len(box["position"]) == 2 and isinstance(box["angular_velocity"], float)
    assert box["mass"] == pytest.approx(500.0 * 0.08 * 0.06, rel=1e-12)
    sim.advance(3.0)
    half = sim.bodies[0]["draft"]
    assert half == pytest.approx(0.03, rel=0.2)
    sim.set_body_density(0, 800.0)
    assert sim.bodies[0]["density"] == 800.0
    sim.advance(2.0)
    assert sim.bodies[0]["draft"] > half + 0.005
    with pytest.raises(sloshlab.Error, match="body 1 does not exist"):
        sim.set_body_density(1, 800.0)
    with pytest.raises(sloshlab.Error, match=r"\[1, 1e5\]"):
        sim.set_body_density(0, -5.0)
    assert sloshlab.Simulation(scene="bottle").bodies == []
