// The window's particle export (app/export_run.h): a frame at the start, then one at the
// first step on or after each multiple of the interval (or every K steps), and a refused
// folder said in error() with nothing running.
#include "export_run.h"

#include "support/test_support.h"

#include "io/csv_reader.h"

#include <gtest/gtest.h>

#include <cmath>

namespace sloshlab::test {
namespace {

// A quick simulation to export: the dam break's column as hard spheres.
std::unique_ptr<SimulationImpl<2>> gasColumn() {
  SimSpec spec;
  spec.scene = "dam_break";
  spec.solver = "collisions";
  return makeSim<2>(spec);
}

TEST(ExportRun, AFrameAtTheStartThenOneAtEachIntervalOfSimulatedTime) {
  const std::string dir = makeTempDir("export_run");
  auto sim = gasColumn();
  sim->advanceTo(0.013);  // the export starts off the interval's grid
  app::ExportRun run;
  run.start(app::ExportSettings{dir, ExportFormat::Csv, 1, 0.05}, *sim);
  ASSERT_TRUE(run.active()) << run.error();
  while (sim->time() < 0.013 + 0.3 - 1e-9) {
    sim->step(0.013 + 0.3);
    run.afterStep(*sim);
  }
  run.stop();
  EXPECT_FALSE(run.active());
  EXPECT_EQ(run.error(), "");
  const CsvTable c = readCsv(dir + "/container.csv", "container");
  ASSERT_EQ(c.rows.size(), 7u);  // the start and 6 intervals of 0.05 s
  EXPECT_EQ(run.frames(), 7);
  for (std::size_t k = 0; k < c.rows.size(); ++k) {
    const double t = c.rows[k][c.column("time")], due = 0.013 + 0.05 * static_cast<double>(k);
    EXPECT_GE(t, due - 1e-12) << k;
    EXPECT_LT(t, due + 0.01) << k << ": the first step on or after the multiple";  // steps are ~2 ms
  }
}

TEST(ExportRun, EveryKStepsAndARefusedFolder) {
  const std::string dir = makeTempDir("export_run_steps");
  auto sim = gasColumn();
  app::ExportRun run;
  run.start(app::ExportSettings{dir, ExportFormat::Csv, 4, 0.0}, *sim);
  for (int k = 0; k < 12; ++k) {
    sim->step(0.0);
    run.afterStep(*sim);
  }
  EXPECT_EQ(run.frames(), 4);  // steps 0, 4, 8, 12
  run.start(app::ExportSettings{dir + "/container.csv", ExportFormat::Csv, 1, 0.0}, *sim);  // a file, not a folder
  EXPECT_FALSE(run.active());
  EXPECT_EQ(run.error().rfind("cannot export: '" + dir + "/container.csv': ", 0), 0u) << run.error();
  EXPECT_EQ(run.frames(), 0);
}

}  // namespace
}  // namespace sloshlab::test
