// The headless command line, through the real executable: the files it writes
// follow the contract of design.md, also when a run is stopped. Bad input of every
// kind is the corpus in test_bad_input.cpp.
#include "support/test_support.h"

#include "io/csv_reader.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <cmath>
#include <fstream>
#include <iterator>
#include <sstream>

namespace sloshlab::test {
namespace {

namespace fs = std::filesystem;

std::string quote(const std::string& s) { return "'" + s + "'"; }

class Cli : public ::testing::Test {
 protected:
  void SetUp() override { dir = makeTempDir("cli"); }
  void TearDown() override { fs::remove_all(dir); }
  std::string dir;
};

TEST_F(Cli, StatsHaveTheContractColumnsAndOneRowPerStep) {
  const std::string stats = dir + "/stats.csv";
  const CommandResult r = runSloshlab("--headless --scene dam_break --steps 25 --stats " + quote(stats));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  const CsvTable t = readCsv(stats, "stats", true);
  for (const char* col : {"step", "time", "dt", "particles", "mass", "momentum_x", "momentum_y", "kinetic_energy",
                          "wall_ms", "density_error_max", "angular_momentum_z", "potential_energy", "liquid_volume"})
    EXPECT_GE(t.column(col), 0) << col;
  EXPECT_LT(t.column("momentum_z"), 0);  // 2D
  ASSERT_EQ(t.rows.size(), 26u);         // the initial state and 25 steps
  EXPECT_GE(t.column("ms_density"), 0);  // the solver's phases
  EXPECT_TRUE(std::isnan(t.rows[0][t.column("density_error_max")]));  // not measured before the first step
  EXPECT_FALSE(std::isnan(t.rows[1][t.column("density_error_max")]));
  EXPECT_EQ(t.rows.back()[t.column("step")], 25.0);
  EXPECT_EQ(t.rows.back()[t.column("particles")], 800.0);
  EXPECT_GT(t.rows.back()[t.column("time")], 0.0);
  for (const auto& e : fs::directory_iterator(dir)) EXPECT_NE(e.path().extension(), ".tmp");

  const CommandResult r3 = runSloshlab("--headless --scene bottle --dim 3 --steps 3 --stats " + quote(stats));
  ASSERT_EQ(r3.exitCode, 0) << r3.err;
  EXPECT_GE(readCsv(stats, "stats", true).column("momentum_z"), 0);

  // A grid solver's phase "pressure change" is the one-word column ms_pressure_change.
  const CommandResult rf = runSloshlab("--headless --scene dam_break --solver flip --steps 3 --stats " + quote(stats));
  ASSERT_EQ(rf.exitCode, 0) << rf.err;
  const CsvTable flip = readCsv(stats, "stats", true);
  EXPECT_GE(flip.column("ms_pressure_change"), 0);
  // Its liquid volume: the dam break's column, 0.05715 x 0.1143 m, within a cell row's worth.
  EXPECT_NEAR(flip.rows.back()[flip.column("liquid_volume")], 0.05715 * 0.1143, 0.15 * 0.05715 * 0.1143);
  EXPECT_TRUE(std::isnan(t.rows.back()[t.column("liquid_volume")])) << "WCSPH has no cells";
}

// Probes (docs/cli.md, "Probes"): the scene's own and --probe's, a row at t = 0 and one
// per 1/rate of simulated time, the scene's columns first; the still bottle's gauge reads
// its fill (0.2 m) and its floor sensor rho g d.
TEST_F(Cli, ProbesFromTheSceneAndTheCommandLineAreRecordedAtTheirRate) {
  const std::string scene = dir + "/probed.json", out = dir + "/probes.csv";
  std::ofstream(scene) << R"({"name": "probed", "solver": "apic", "spacing": 0.01, "container": {"size": [0.5, 0.4, 0.2]},
    "fluid": [{"box": {"min": [0, 0], "max": [0.5, 0.2]}}], "probes": ["gauge:x=0.25"]})";
  const CommandResult r = runSloshlab("--headless --scene " + quote(scene) + " --time 0.5 --probe sensor:x=0.25,y=0,r=0.02 "
                                      "--probes " + quote(out) + " --probe-rate 20");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const CsvTable t = readCsv(out, "probes", true);
  EXPECT_EQ(t.header, (std::vector<std::string>{"time", "h_m_at_x0.25", "p_Pa_at_x0.25_y0"}));
  ASSERT_EQ(t.rows.size(), 11u);  // t = 0, 0.05, ..., 0.5
  for (std::size_t k = 0; k < t.rows.size(); ++k) {
    EXPECT_NEAR(t.rows[k][0], 0.05 * static_cast<double>(k), 0.01);
    EXPECT_NEAR(t.rows[k][1], 0.2, 0.005);
  }
  // The floor sensor's half disc sits 4 r / (3 pi) above the floor on average, (11.11).
  EXPECT_NEAR(t.rows.back()[2], 1000.0 * 9.81 * (0.2 - 4.0 * 0.02 / (3.0 * M_PI)), 0.05 * 1962.0);

  // --probes alone records the scene's probes; without any probe it is refused.
  ASSERT_EQ(runSloshlab("--headless --scene " + quote(scene) + " --steps 2 --probes " + quote(out)).exitCode, 0);
  EXPECT_EQ(readCsv(out, "probes", true).header, (std::vector<std::string>{"time", "h_m_at_x0.25"}));
  const CommandResult none = runSloshlab("--headless --steps 2 --probes " + quote(dir + "/none.csv"));
  EXPECT_EQ(none.exitCode, 2);
  EXPECT_NE(none.err.find("no probe to record"), std::string::npos) << none.err;
  EXPECT_FALSE(fs::exists(dir + "/none.csv"));
}

// Two runs writing the same files at once: each writes under its own temporary name
// (a shared "PATH.tmp" let one run's rename take the other's half-written file).
TEST_F(Cli, ConcurrentRunsDoNotShareTemporaryFiles) {
  const std::string stats = dir + "/stats.csv", out = dir + "/export";
  const std::string run = "'" SLOSHLAB_EXECUTABLE "' --headless --scene dam_break --solver collisions --steps 40 "
                          "--threads 1 --stats " + quote(stats) + " --export " + quote(out) + " --every 10";
  const CommandResult r = runCommand(run + " & a=$!; " + run + " & b=$!; wait $a; x=$?; wait $b; exit $((x | $?))");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(readCsv(stats, "stats", true).rows.size(), 41u);
  EXPECT_EQ(readCsv(out + "/particles_40.csv", "particles").rows.size(), 800u);
  for (const std::string& d : {dir, out})
    for (const auto& e : fs::directory_iterator(d)) EXPECT_NE(e.path().extension(), ".tmp") << e.path();
}

// SIGINT and SIGTERM stop the run at the next step: status 128 + signal, one line
// saying so, the stats file holds every step so far, the export folder is whole and no
// temporary file is left (a killed run left .tmp files and no container.csv).
TEST_F(Cli, SignalsStopTheRunAndLeaveConsistentFiles) {
  for (const auto& [signal, status] : {std::pair<std::string, int>{"INT", 130}, {"TERM", 143}}) {
    const std::string stats = dir + "/stats_" + signal + ".csv", out = dir + "/export_" + signal;
    const CommandResult r = runCommand("timeout --preserve-status -s " + signal + " 0.5 '" SLOSHLAB_EXECUTABLE
                                       "' --headless --scene dam_break --solver collisions --time 1000 --stats " +
                                       quote(stats) + " --export " + quote(out) + " --every 5");
    EXPECT_EQ(r.exitCode, status) << r.err;
    EXPECT_EQ(countLines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("stopped by SIG" + signal), std::string::npos) << r.err;
    const CsvTable t = readCsv(stats, "stats", true);
    ASSERT_GT(t.rows.size(), 1u);
    EXPECT_EQ(t.rows.back()[t.column("step")], static_cast<double>(t.rows.size() - 1));
    const CsvTable c = readCsv(out + "/container.csv", "container");
    std::size_t particleFiles = 0;
    for (const auto& e : fs::directory_iterator(out)) particleFiles += e.path().filename().string() != "container.csv";
    EXPECT_EQ(c.rows.size(), particleFiles);
    const long last = static_cast<long>(c.rows.back()[c.column("step")]);
    EXPECT_EQ(readCsv(out + "/particles_" + std::to_string(last) + ".csv", "particles").rows.size(), 800u);
    for (const std::string& d : {dir, out})
      for (const auto& e : fs::directory_iterator(d)) EXPECT_NE(e.path().extension(), ".tmp") << e.path();
  }
}

// The last stats row's cells as written, without the columns of wall time (wall_ms, ms_<phase>).
std::vector<std::string> lastRowOfState(const std::string& statsPath) {
  std::ifstream in(statsPath);
  std::string header, line, last;
  std::getline(in, header);
  while (std::getline(in, line))
    if (!line.empty()) last = line;
  std::vector<std::string> names, cells, kept;
  for (std::stringstream h(header); std::getline(h, line, ',');) names.push_back(line);
  for (std::stringstream r(last); std::getline(r, line, ',');) cells.push_back(line);
  EXPECT_EQ(names.size(), cells.size());
  for (std::size_t c = 0; c < names.size() && c < cells.size(); ++c)
    if (names[c] != "wall_ms" && names[c].rfind("ms_", 0) != 0) kept.push_back(cells[c]);
  return kept;
}

std::string readBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// --save-state then --load-state: 30 + 30 steps write the same stats row and the same
// particle file as 60 straight (the engine's bitwise round trip is test_state_file.cpp).
TEST_F(Cli, ASavedStateContinuesTheRun) {
  for (const std::string run : {"--solver flip --dim 2", "--solver dfsph --dim 3 --spacing 0.03"}) {
    SCOPED_TRACE(run);
    const std::string straight = dir + "/straight", resumed = dir + "/resumed", state = dir + "/run.slosh";
    ASSERT_EQ(runSloshlab("--headless " + run + " --steps 60 --stats " + quote(straight + ".csv") + " --export " +
                          quote(straight)).exitCode, 0);
    ASSERT_EQ(runSloshlab("--headless " + run + " --steps 30 --save-state " + quote(state)).exitCode, 0);
    const CommandResult r = runSloshlab("--headless --load-state " + quote(state) + " --steps 30 --stats " +
                                        quote(resumed + ".csv") + " --export " + quote(resumed));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("now t = "), std::string::npos) << r.out;
    EXPECT_EQ(lastRowOfState(straight + ".csv"), lastRowOfState(resumed + ".csv"));
    const std::string a = readBytes(straight + "/particles_60.csv"), b = readBytes(resumed + "/particles_60.csv");
    EXPECT_GT(a.size(), 1000u);
    EXPECT_EQ(a, b) << "particles_60.csv differ";
    fs::remove_all(straight), fs::remove_all(resumed);
  }
}

// A damaged state file (one byte changed, or cut short) is refused with one line, exit 2.
TEST_F(Cli, ADamagedStateFileIsRefused) {
  const std::string state = dir + "/run.slosh", damaged = dir + "/damaged.slosh";
  ASSERT_EQ(runSloshlab("--headless --solver wcsph --steps 5 --save-state " + quote(state)).exitCode, 0);
  std::string bytes = readBytes(state);
  bytes[bytes.size() - 7] ^= 0x01;
  writeText(damaged, bytes);
  CommandResult r = runSloshlab("--headless --load-state " + quote(damaged) + " --steps 1");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(countLines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("damaged.slosh' is damaged: its checksum does not match"), std::string::npos) << r.err;
  writeText(damaged, readBytes(state).substr(0, 1000));
  r = runSloshlab("--headless --load-state " + quote(damaged) + " --steps 1");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(countLines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("is damaged"), std::string::npos) << r.err;
}

// --list-experiments: one per line, name first; --experiment: one line on stdout with
// the measurement, the reference and the error, and its curve in --stats.
TEST_F(Cli, ExperimentsPrintOneLineAndWriteTheirCurve) {
  const CommandResult list = runSloshlab("--list-experiments");
  ASSERT_EQ(list.exitCode, 0);
  EXPECT_EQ(countLines(list.out), 10) << list.out;
  EXPECT_EQ(list.out.rfind("dam_break ", 0), 0u) << list.out;
  const std::string curve = dir + "/curve.csv";
  const CommandResult r = runSloshlab("--headless --experiment spinning_disc --solver apic --stats " + quote(curve));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(countLines(r.out), 1) << r.out;
  EXPECT_NE(r.out.find("angular momentum kept after 1 s 0.9"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("reference 1, error"), std::string::npos) << r.out;
  const CsvTable t = readCsv(curve, "curve", true);
  ASSERT_EQ(t.header, (std::vector<std::string>{"t_s", "kept"}));
  EXPECT_EQ(t.rows.size(), 51u);
  EXPECT_EQ(t.rows.front()[1], 1.0);
  EXPECT_NEAR(t.rows.back()[0], 1.0, 1e-9);
  const CommandResult windowed = runSloshlab("--experiment dam_break");
  EXPECT_EQ(windowed.exitCode, 2);
  EXPECT_NE(windowed.err.find("--experiment runs headless"), std::string::npos) << windowed.err;
}

// --compare: one line per pane, each pane driven by the same scripted shove. PIC's
// transfers dissipate (physics.md section 6): 1.4 s after the shove its liquid keeps
// well under the kinetic energy of pure FLIP's.
TEST_F(Cli, CompareRunsEveryPaneWithTheSameMotion) {
  const std::string motion = dir + "/shove.csv";
  writeText(motion, "t,x,y,angle\n0,0,0,0\n0.1,0.1,0,0\n");
  const CommandResult r =
      runSloshlab("--headless --compare pic,flip:pic_fraction=0 --time 1.5 --motion " + quote(motion));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  ASSERT_EQ(countLines(r.out), 3) << r.out;
  EXPECT_NE(r.out.find("2 panes side by side"), std::string::npos) << r.out;
  const auto kinetic = [&](const std::string& pane) {
    const auto at = r.out.find(pane);
    EXPECT_NE(at, std::string::npos) << r.out;
    const auto k = r.out.find("kinetic energy ", at);
    return std::stod(r.out.substr(k + 15));
  };
  const double pic = kinetic("pane 1 pic:"), flip = kinetic("pane 2 flip pic_fraction=0:");
  EXPECT_GT(pic, 0.1);  // the shove moved the liquid
  EXPECT_LT(pic, 0.7 * flip);
  EXPECT_EQ(r.out.find("outside 1"), std::string::npos) << r.out;
}

// A pane may have a scene of its own (`scene=`): the baffled tank beside the open one,
// both shaken two periods at the open tank's first mode (physics.md (11.4), (11.4b)).
// After 2 s the baffled tank keeps well under the open one's kinetic energy (measured
// 2026-11-28, APIC: 0.026 J/m against 0.106). An unknown scene is one line, exit 2.
TEST_F(Cli, CompareRunsABaffledTankBesideTheOpenOne) {
  const std::string motion = dir + "/shake.csv";
  const double omega = 11.89, amplitude = 0.005;  // omega_1 of the 0.2 m tank filled to 0.1 m
  std::string rows = "t,x,y,angle\n";
  for (int k = 0; k <= 200; ++k) {
    const double t = k * 2.0 * 2.0 * kPi / omega / 200.0;
    rows += std::to_string(t) + "," + std::to_string(amplitude * (1.0 - std::cos(omega * t))) + ",0,0\n";
  }
  writeText(motion, rows);
  const CommandResult r = runSloshlab("--headless --scene baffled_tank --compare apic,apic:scene=sloshing_tank "
                                      "--time 2 --motion " + quote(motion));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto kinetic = [&](const std::string& pane) {
    const auto at = r.out.find(pane);
    EXPECT_NE(at, std::string::npos) << r.out;
    return std::stod(r.out.substr(r.out.find("kinetic energy ", at) + 15));
  };
  const double baffled = kinetic("pane 1 apic:"), open = kinetic("pane 2 apic scene=sloshing_tank:");
  std::printf("[ figures  ] kinetic energy after the shake: baffled %.3g J/m, open %.3g J/m\n", baffled, open);
  EXPECT_GT(open, 1e-4);
  EXPECT_LT(baffled, 0.5 * open);
  const CommandResult bad = runSloshlab("--headless --compare apic,apic:scene=nonesuch --time 0.1");
  EXPECT_EQ(bad.exitCode, 2);
  EXPECT_EQ(countLines(bad.err), 1) << bad.err;
  EXPECT_NE(bad.err.find("no such built-in scene"), std::string::npos) << bad.err;
}

TEST_F(Cli, TimeRunsToTheRequestedSimulatedTime) {
  const std::string stats = dir + "/stats.csv";
  ASSERT_EQ(runSloshlab("--headless --scene bottle --solver toy --time 0.25 --stats " + quote(stats)).exitCode, 0);
  const CsvTable t = readCsv(stats, "stats", true);
  EXPECT_NEAR(t.rows.back()[t.column("time")], 0.25, 1e-9);
}

TEST_F(Cli, ExportWritesParticlesInWorldCoordinatesAndTheContainerPose) {
  const std::string motion = dir + "/motion.csv";
  writeText(motion, "t,x,y,angle\n0,0,0,0\n0.05,0.1,0.02,0.2\n");
  const std::string out = dir + "/export";
  const CommandResult r = runSloshlab("--headless --scene bottle --solver collisions --time 0.05 --export " +
                                      quote(out) + " --every 5 --motion " + quote(motion));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const CsvTable c = readCsv(out + "/container.csv", "container");
  for (const char* col : {"step", "time", "x", "y", "angle", "size_x", "size_y"}) EXPECT_GE(c.column(col), 0) << col;
  ASSERT_GE(c.rows.size(), 2u);
  // The bottle scene's container sits at (0, 0.2); the script moves it by (2t, 0.4t)
  // and turns it by 4t rad until t = 0.05.
  for (const auto& row : c.rows) {
    const long step = static_cast<long>(row[c.column("step")]);
    EXPECT_EQ(step % 5, 0);
    const double t = row[c.column("time")];
    EXPECT_NEAR(row[c.column("x")], 2.0 * t, 1e-9);
    EXPECT_NEAR(row[c.column("y")], 0.2 + 0.4 * t, 1e-9);
    EXPECT_NEAR(row[c.column("angle")], 4.0 * t, 1e-9);
    EXPECT_EQ(row[c.column("size_x")], 0.5);
    const CsvTable p = readCsv(out + "/particles_" + std::to_string(step) + ".csv", "particles");
    EXPECT_EQ(p.header, (std::vector<std::string>{"x", "y", "vx", "vy"}));
    EXPECT_EQ(p.rows.size(), 1000u);
  }
  EXPECT_GT(c.rows.back()[c.column("time")], 0.04);
  // World coordinates: at t = 0 the particles fill the lower half of the bottle,
  // x in [-0.25, 0.25], y in [0, 0.2].
  const CsvTable first = readCsv(out + "/particles_0.csv", "particles");
  for (const auto& row : first.rows) {
    EXPECT_GE(row[0], -0.25);
    EXPECT_LE(row[0], 0.25);
    EXPECT_GE(row[1], 0.0);
    EXPECT_LE(row[1], 0.2);
  }
  for (const auto& e : fs::directory_iterator(out)) EXPECT_NE(e.path().extension(), ".tmp");
}

// A motion file whose first row is not at zero displacement starts the container at
// that row's pose: it used to start at the scene's pose and jump there in the first
// step, a wall moving at 200 m/s.
TEST_F(Cli, MotionStartsAtTheFirstRowsPose) {
  const std::string motion = dir + "/motion.csv";
  writeText(motion, "t,x,y,angle\n0,0.5,0.1,0.2\n1,0.5,0.1,0.2\n");
  const std::string out = dir + "/export", stats = dir + "/stats.csv";
  const CommandResult r = runSloshlab("--headless --scene bottle --solver collisions --steps 3 --export " +
                                      quote(out) + " --stats " + quote(stats) + " --motion " + quote(motion));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const CsvTable c = readCsv(out + "/container.csv", "container");
  ASSERT_EQ(c.rows.size(), 4u);
  EXPECT_EQ(c.rows[0][c.column("x")], 0.5);          // the bottle scene sits at (0, 0.2)
  EXPECT_NEAR(c.rows[0][c.column("y")], 0.3, 1e-12);
  EXPECT_EQ(c.rows[0][c.column("angle")], 0.2);
  const CsvTable t = readCsv(stats, "stats", true);
  // Only the 0.2 rad tilt moves the liquid (about 0.1 m/s after 3 steps); the jump
  // flung it past the runaway limit (139 m/s) in step 1.
  ASSERT_EQ(t.rows.size(), 4u);
  for (const auto& row : t.rows) EXPECT_LT(row[t.column("max_speed")], 0.5);
}

// A solver that asks for a step below the floor (1e-7 s) stops the run with one line and
// exit 3 instead of crawling on: 1000 m/s spheres of 1 mm at CFL 0.01 ask for 1e-8 s.
TEST_F(Cli, ATimeStepThatCollapsesStopsTheRun) {
  const std::string scene = dir + "/fast.json", stats = dir + "/stats.csv";
  writeText(scene, R"({"solver": "collisions", "spacing": 0.01, "container": {"size": [0.4, 0.4, 0.2]},
    "fluid": [{"box": {"min": [0.1, 0.1], "max": [0.2, 0.2]}, "velocity": [1000, 0, 0]}]})");
  const CommandResult r = runSloshlab("--headless --scene " + quote(scene) +
                                      " --set radius=0.1 --set cfl=0.01 --time 0.001 --stats " + quote(stats));
  EXPECT_EQ(r.exitCode, 3) << r.out << r.err;
  EXPECT_NE(r.err.find("its time step collapsed to 1e-08 s, below the floor of 1e-07 s"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(readCsv(stats, "stats", true).rows.size(), 1u);  // the initial state, complete
}

TEST_F(Cli, ListsAndHelp) {
  const CommandResult scenes = runSloshlab("--list-scenes");
  EXPECT_EQ(scenes.exitCode, 0);
  for (const char* s : {"bottle", "dam_break", "drop", "hydrostatic"}) EXPECT_NE(scenes.out.find(s), std::string::npos);
  const CommandResult params = runSloshlab("--list-params --solver wcsph");
  EXPECT_EQ(params.exitCode, 0);
  EXPECT_NE(params.out.find("speed_of_sound"), std::string::npos);
  EXPECT_NE(params.out.find("m/s"), std::string::npos);
  EXPECT_EQ(runSloshlab("--help").exitCode, 0);
}

}  // namespace
}  // namespace sloshlab::test
