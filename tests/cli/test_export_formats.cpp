// The VTK and PLY exports, read by the tools they are for: one short run, the same in
// each format, and check_export.py reads the .vtp and .pvd files with VTK's own reader
// (python3-vtk9) and the .ply files with meshio (python3-meshio), and compares them
// with the CSV export: point counts, positions, velocities, density and pressure, the
// container's corners and every frame in the .pvd index at its time. Without the
// Python packages the test fails, saying how to install them.
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace sloshlab::test {
namespace {

namespace fs = std::filesystem;

class ExportFormats : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override { dir = makeTempDir("export_formats"); }
  void TearDown() override { fs::remove_all(dir); }
  std::string dir;
};

TEST_P(ExportFormats, ParaViewAndMeshioReadWhatTheCsvExportHolds) {
  const int dim = GetParam();
  // The container moves and turns a little, so that the container files are tested
  // away from the scene's pose.
  const std::string motion = dir + "/motion.csv";
  writeText(motion, dim == 3 ? "t,x,y,z,angle\n0,0,0,0,0\n0.01,0.002,0.001,0.0005,0.05\n"
                             : "t,x,y,angle\n0,0,0,0\n0.01,0.002,0.001,0.05\n");
  const std::string run = "--headless --scene drop --solver wcsph --dim " + std::to_string(dim) +
                          " --steps 20 --every 10 --threads 1 --motion '" + motion + "'";
  for (const char* format : {"csv", "vtk", "ply"}) {
    const CommandResult r = runSloshlab(run + " --export '" + dir + "/" + format + "' --format " + format);
    ASSERT_EQ(r.exitCode, 0) << format << ": " << r.err;
  }
  for (const auto& e : fs::directory_iterator(dir + "/vtk")) EXPECT_NE(e.path().extension(), ".tmp") << e.path();
  EXPECT_FALSE(fs::exists(dir + "/vtk/container.csv"));  // each format writes its own files only
  const CommandResult check = runCommand("'" SLOSHLAB_PYTHON3 "' '" SLOSHLAB_TEST_SOURCE_DIR "/cli/check_export.py' '" +
                                         dir + "/csv' '" + dir + "/vtk' '" + dir + "/ply' --dim " +
                                         std::to_string(dim) + " --steps 0,10,20 --fields density,pressure");
  EXPECT_EQ(check.exitCode, 0) << check.out << check.err;
}

INSTANTIATE_TEST_SUITE_P(Dims, ExportFormats, ::testing::Values(2, 3),
                         [](const auto& param) { return std::to_string(param.param) + "D"; });

}  // namespace
}  // namespace sloshlab::test
