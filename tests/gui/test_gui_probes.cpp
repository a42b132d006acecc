// The Probes panel through the real window (tests/gui/probes_session.sh, in 2D and
// 3D): a wave gauge and a pressure sensor placed with clicks
// near the left wall of the sloshing tank,
// the bottle shaken, the readings saved. The saved CSV holds both, where they were
// clicked, sampled at the panel's 50 per simulated second; the gauge saw the slosh and
// the sensor about rho g d (physics.md (11.9), (11.11)); the picture shows the markers.
#include "gui/gui_support.h"
#include "support/test_support.h"

#include "io/csv_reader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

namespace sloshlab::test {
namespace {

// Runs the session in `dim`, then checks the saved CSV and the picture; returns the
// probes' header cells (the gauge's, the sensor's) for the caller's checks of where they went.
std::pair<std::string, std::string> expectProbesRecordTheSlosh(int dim) {
  const std::string dir = makeTempDir("probes");
  const CommandResult r = runCommand(kXvfb + "'" + std::string(SLOSHLAB_TEST_SOURCE_DIR) + "/gui/probes_session.sh' '" +
                                     SLOSHLAB_EXECUTABLE + "' '" + dir + "' " + std::to_string(dim));
  EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
  const CsvTable t = readCsv(dir + "/probes.csv", "probes", true);
  EXPECT_EQ(t.header.size(), 3u);
  if (t.header.size() != 3u) return {};
  EXPECT_EQ(t.header[1].rfind("h_m_at_x", 0), 0u) << t.header[1];
  EXPECT_EQ(t.header[2].rfind("p_Pa_at_x", 0), 0u) << t.header[2];
  double sensorX = 0.0, sensorY = 0.0;
  EXPECT_GE(std::sscanf(t.header[2].c_str(), "p_Pa_at_x%lf_y%lf", &sensorX, &sensorY), 2) << t.header[2];
  EXPECT_GT(t.rows.size(), 100u) << "at least 2 simulated s at 50 per s";
  double lowest = 1.0, highest = 0.0, pressure = 0.0;
  for (std::size_t k = 1; k < t.rows.size(); ++k) {
    EXPECT_NEAR(t.rows[k][0] - t.rows[k - 1][0], 0.02, 0.016) << "row " << k;
    lowest = std::min(lowest, t.rows[k][1]), highest = std::max(highest, t.rows[k][1]);
    pressure += t.rows[k][2] / static_cast<double>(t.rows.size() - 1);
  }
  std::printf("[ figures  ] window probes %dD: %s read %.1f-%.1f mm; %s read %.0f Pa on average (rho g d = %.0f "
              "Pa); %zu rows; picture %s/probes.png\n",
              dim, t.header[1].c_str(), 1e3 * lowest, 1e3 * highest, t.header[2].c_str(), pressure,
              9810.0 * (0.1 - sensorY), t.rows.size(), dir.c_str());
  EXPECT_GT(highest - lowest, 0.01) << "the shake made waves at the wall";
  EXPECT_NEAR(pressure, 9810.0 * (0.1 - sensorY), 0.25 * 9810.0 * (0.1 - sensorY));
  // The markers: yellow pixels between the panels, wherever the drag left the bottle
  // (nothing else there is yellow: the liquid is blue, the container white).
  const Image picture = loadPng(dir + "/probes.png");
  int yellow = 0;
  for (int y = 200; y < 600; ++y)
    for (int x = 290; x < 990; ++x) {
      const unsigned char* p = picture.at(x, y);
      yellow += p[0] > 200 && p[1] > 150 && p[2] < 120;
    }
  EXPECT_GT(yellow, dim == 2 ? 150 : 100) << "the gauge's line and the sensor's circle";
  return {t.header[1], t.header[2]};
}

TEST(Gui, ProbesPlacedWithClicksRecordTheSlosh) {
  ASSERT_TRUE(haveFfmpeg()) << "ffmpeg is not installed (third_party/install_deps.sh)";
  const auto [gauge, sensor] = expectProbesRecordTheSlosh(2);
  // Where they were clicked: 8 and 4 px inside the left wall (about 1.7 px per mm), the
  // sensor 48 px above the floor.
  ASSERT_FALSE(gauge.empty());
  const double gaugeX = std::stod(gauge.substr(8));
  double sensorX = 0.0, sensorY = 0.0;
  ASSERT_EQ(std::sscanf(sensor.c_str(), "p_Pa_at_x%lf_y%lf", &sensorX, &sensorY), 2) << sensor;
  EXPECT_GT(gaugeX, 0.0);
  EXPECT_LT(gaugeX, 0.01);
  EXPECT_LT(sensorX, 0.006);
  EXPECT_NEAR(sensorY, 0.028, 0.006);
}

// In 3D through the front glass (probes_session.sh with DIM 3): the gauge on the column in the
// middle of the click's path through the tank, left of the middle; the sensor where the
// path leaves the tank low on the left, on the left wall.
TEST(Gui, ProbesPlacedWithClicksRecordTheSlosh3D) {
  ASSERT_TRUE(haveFfmpeg()) << "ffmpeg is not installed (third_party/install_deps.sh)";
  const auto [gauge, sensor] = expectProbesRecordTheSlosh(3);
  ASSERT_FALSE(gauge.empty());
  double gaugeX = 0.0, gaugeZ = 0.0, sensorX = 0.0, sensorY = 0.0, sensorZ = 0.0;
  ASSERT_EQ(std::sscanf(gauge.c_str(), "h_m_at_x%lf_z%lf", &gaugeX, &gaugeZ), 2) << gauge;
  ASSERT_EQ(std::sscanf(sensor.c_str(), "p_Pa_at_x%lf_y%lf_z%lf", &sensorX, &sensorY, &sensorZ), 3) << sensor;
  EXPECT_GT(gaugeX, 0.0);
  EXPECT_LT(gaugeX, 0.1) << "left of the middle";
  EXPECT_GT(gaugeZ, 0.0);
  EXPECT_LT(gaugeZ, 0.04) << "inside the 4 cm deep tank";
  EXPECT_LT(sensorX, 1e-3) << "on the left wall";
  EXPECT_LT(sensorY, 0.03) << "low";
  EXPECT_GT(sensorZ, 0.0);
  EXPECT_LT(sensorZ, 0.04);
}

}  // namespace
}  // namespace sloshlab::test
