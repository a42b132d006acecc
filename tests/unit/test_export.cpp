// The export folder is whole after every frame: container.csv lists exactly the frames
// whose particle files are complete, before finish() and without it (a run stopped by a
// signal, or killed, used to leave particle files and no container.csv).
#include "support/test_support.h"

#include "io/csv_reader.h"
#include "io/export_formats.h"
#include "sloshlab/export.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

namespace sloshlab::test {
namespace {

TEST(Export, ContainerFileIsValidAfterEveryFrame) {
  const std::string dir = makeTempDir("export");
  SimSpec spec;
  spec.scene = "dam_break";
  spec.solver = "collisions";
  auto sim = makeSim<2>(spec);
  {
    ParticleExporter exporter(dir, 2);
    std::ifstream header(dir + "/container.csv");  // a whole file, no frame yet
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(header), {}), "step,time,x,y,angle,size_x,size_y\n");
    for (int frame = 0; frame < 3; ++frame) {
      if (frame > 0) sim->step(0.0);
      exporter.exportStep(*sim);
      const CsvTable c = readCsv(dir + "/container.csv", "container");
      ASSERT_EQ(c.rows.size(), static_cast<std::size_t>(frame + 1));
      for (const auto& row : c.rows) {
        const std::string particles = dir + "/particles_" + std::to_string(static_cast<long>(row[0])) + ".csv";
        EXPECT_EQ(readCsv(particles, "particles").rows.size(), sim->particleCount());
      }
    }
  }  // destroyed without finish(): what is on disk stays consistent
  EXPECT_EQ(readCsv(dir + "/container.csv", "container").rows.size(), 3u);
  std::filesystem::remove_all(dir);
}

// The .pvd indexes list exactly the frames whose .vtp files are complete, after every
// frame and before any (ParaView opens the folder of a run that is still going).
TEST(Export, VtkIndexesAreValidAfterEveryFrame) {
  const std::string dir = makeTempDir("export_vtk");
  SimSpec spec;
  spec.scene = "dam_break";
  spec.solver = "collisions";
  auto sim = makeSim<2>(spec);
  auto datasets = [&](const std::string& index) {
    std::ifstream in(dir + "/" + index);
    const std::string text(std::istreambuf_iterator<char>(in), {});
    EXPECT_NE(text.find("</VTKFile>"), std::string::npos) << text;
    std::vector<std::string> files;
    for (std::size_t at = 0; (at = text.find("file=\"", at)) != std::string::npos;) {
      at += 6;
      files.push_back(text.substr(at, text.find('"', at) - at));
    }
    return files;
  };
  ParticleExporter exporter(dir, 2, ExportFormat::Vtk);
  EXPECT_TRUE(datasets("particles.pvd").empty());
  EXPECT_TRUE(datasets("container.pvd").empty());
  for (int frame = 0; frame < 3; ++frame) {
    if (frame > 0) sim->step(0.0);
    exporter.exportStep(*sim);
    const auto particles = datasets("particles.pvd"), container = datasets("container.pvd");
    ASSERT_EQ(particles.size(), static_cast<std::size_t>(frame + 1));
    ASSERT_EQ(container.size(), particles.size());
    EXPECT_EQ(particles.back(), "particles_" + std::to_string(sim->stepCount()) + ".vtp");
    for (const auto& file : particles) EXPECT_TRUE(std::filesystem::is_regular_file(dir + "/" + file)) << file;
    for (const auto& file : container) EXPECT_TRUE(std::filesystem::is_regular_file(dir + "/" + file)) << file;
  }
  EXPECT_EQ(exporter.framesWritten(), 3);
  EXPECT_FALSE(std::filesystem::exists(dir + "/container.csv"));
  std::filesystem::remove_all(dir);
}

TEST(Export, FormatNamesAndExportFileNames) {
  for (ExportFormat f : {ExportFormat::Csv, ExportFormat::Vtk, ExportFormat::Ply})
    EXPECT_EQ(parseExportFormat(exportFormatName(f)), f);
  EXPECT_FALSE(parseExportFormat("VTK"));
  EXPECT_FALSE(parseExportFormat(""));
  for (const char* name : {"container.csv", "particles.pvd", "container.pvd", "particles_0.csv", "particles_12.vtp",
                           "container_12.vtp", "particles_7.ply", "container_7.ply", "obstacles.pvd",
                           "obstacles_12.vtp", "obstacles_7.ply"})
    EXPECT_TRUE(isExportFileName(name)) << name;
  for (const char* name : {"particles_.vtp", "particles_1.vtu", "particles_x.ply", "container_1.csv.tmp", "stats.csv",
                           "particles_-1.csv"})
    EXPECT_FALSE(isExportFileName(name)) << name;
}

// The obstacles are exported where the container stands: each triangle point is the
// container-frame mesh point taken to the world by the container's pose (FrameTransform,
// physics.md (8.1)), for a container moved and turned about all three axes.
TEST(Export, ObstaclesFollowTheContainer) {
  const ContainerState c = test::movedAndTurnedContainer();
  Obstacle o;
  o.shape = Obstacle::Shape::Sphere;
  o.centre = Vec3(0.1, 0.2, 0.05), o.radius = 0.03, o.hasDepth = true;
  const std::vector<Vec3> world = obstacleTriangles({o}, c, 3);
  const std::vector<Vec3> local = obstacleMesh({o}, c.size, 3).triangles;
  ASSERT_EQ(world.size(), local.size());
  ASSERT_GT(world.size(), 0u);
  const FrameTransform<3> toWorld = FrameTransform<3>::make(c);
  for (std::size_t k = 0; k < world.size(); ++k) EXPECT_LT(glm::length(world[k] - toWorld.toWorld(local[k])), 1e-12);
  const std::string vtp = vtkTriangles(world, 1.5);
  EXPECT_NE(vtp.find("NumberOfPolys=\"" + std::to_string(world.size() / 3) + "\""), std::string::npos);
}

// A blown-up step's figures are NaN of either sign; the stats file says "nan" for both
// (it used to hold the C library's "-nan").
TEST(Export, StatsRowOfABlownUpStepReadsNan) {
  const std::string dir = makeTempDir("stats");
  StepStats s;
  s.step = 7;
  s.kineticEnergy = -std::numeric_limits<double>::quiet_NaN();
  s.maxSpeed = std::numeric_limits<double>::quiet_NaN();
  {
    StatsWriter writer(dir + "/stats.csv", 2);
    writer.write(s);
    writer.finish();
  }
  std::ifstream in(dir + "/stats.csv");
  const std::string text(std::istreambuf_iterator<char>(in), {});
  EXPECT_EQ(text.find("-nan"), std::string::npos) << text;
  EXPECT_NE(text.find(",nan,"), std::string::npos) << text;
  std::filesystem::remove_all(dir);
}

// A phase's column is one word: the hybrid solvers' "pressure change" and the GPU
// path's "gpu step" used to give the header cells "ms_pressure change" and "ms_gpu step".
TEST(Export, StatsPhaseColumnsHaveNoSpaces) {
  const std::string dir = makeTempDir("stats");
  StepStats s;
  s.step = 1;
  s.solver.addPhase("P2G", 1.0);
  s.solver.addPhase("pressure change", 2.0);
  s.solver.addPhase("gpu step", 3.0);
  {
    StatsWriter writer(dir + "/stats.csv", 2);
    writer.write(s);
    writer.finish();
  }
  std::ifstream in(dir + "/stats.csv");
  std::string header;
  std::getline(in, header);
  EXPECT_EQ(header.find(' '), std::string::npos) << header;
  EXPECT_NE(header.find(",wall_ms,liquid_volume,ms_P2G,ms_pressure_change,ms_gpu_step"), std::string::npos) << header;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace sloshlab::test
