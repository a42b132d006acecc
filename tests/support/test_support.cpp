#include "support/test_support.h"

#include "sloshlab/scene.h"
#include "sloshlab/solver_registry.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

namespace sloshlab::test {

namespace {
template <int D>
std::unique_ptr<SimulationImpl<D>> build(Scene scene, const SimSpec& spec) {
  SimulationSetup setup;
  setup.scene = std::move(scene);
  setup.dim = D;
  setup.solver = spec.solver;
  setup.spacing = spec.spacing;
  setup.overrides = spec.overrides;
  setup.seed = spec.seed;
  setup.motion = spec.motion;
  return std::make_unique<SimulationImpl<D>>(setup);
}
}  // namespace

template <int D>
std::unique_ptr<SimulationImpl<D>> makeSim(const SimSpec& spec) {
  return build<D>(loadScene(spec.scene), spec);
}

template <int D>
std::unique_ptr<SimulationImpl<D>> makeSimFromJson(const std::string& json, const SimSpec& spec) {
  return build<D>(parseScene(json, "test"), spec);
}

template std::unique_ptr<SimulationImpl<2>> makeSim<2>(const SimSpec&);
template std::unique_ptr<SimulationImpl<3>> makeSim<3>(const SimSpec&);
template std::unique_ptr<SimulationImpl<2>> makeSimFromJson<2>(const std::string&, const SimSpec&);
template std::unique_ptr<SimulationImpl<3>> makeSimFromJson<3>(const std::string&, const SimSpec&);


std::vector<std::string> allSolverNames() {
  std::vector<std::string> names;
  for (const SolverInfo& info : solverInfos()) names.emplace_back(info.name);
  return names;
}

MotionScript violentMotion(double duration) {
  // Shakes x = 8 cm sin(2 pi 4 t), y = 5 cm sin(2 pi 5 t + 1): peak accelerations
  // 50.5 and 49.3 m/s^2 (>= 5 g), and turns angle = 0.5 sin(2 pi 2 t): up to 6.3 rad/s
  // and 79 rad/s^2. Sampled every 5 ms and interpolated linearly.
  std::vector<MotionScript::Row> rows;
  const double dt = 0.005;
  for (int k = 0; k * dt <= duration + dt; ++k) {
    MotionScript::Row r;
    r.t = k * dt;
    r.offset = Vec3(0.08 * std::sin(2.0 * kPi * 4.0 * r.t), 0.05 * (std::sin(2.0 * kPi * 5.0 * r.t + 1.0) - std::sin(1.0)),
                    0.0);
    r.angle = 0.5 * std::sin(2.0 * kPi * 2.0 * r.t);
    rows.push_back(r);
  }
  return MotionScript::fromRows(std::move(rows));
}

MotionScript tumblingMotion(double duration) {
  std::vector<MotionScript::Row> rows = violentMotion(duration).rows();
  for (MotionScript::Row& r : rows) {
    r.angleX = 0.6 * std::sin(2.0 * kPi * 1.5 * r.t);
    r.angleY = 2.0 * std::sin(2.0 * kPi * 0.8 * r.t);
  }
  return MotionScript::fromRows(std::move(rows));
}

CommandResult runSloshlab(const std::string& args) {
  return runCommand(std::string("'") + SLOSHLAB_EXECUTABLE + "' " + args);
}

CommandResult runCommand(const std::string& commandLine) {
  const std::string dir = makeTempDir("cmd");
  const std::string outPath = dir + "/out.txt", errPath = dir + "/err.txt";
  const std::string cmd = "( " + commandLine + " ) >'" + outPath + "' 2>'" + errPath + "'";
  const int status = std::system(cmd.c_str());
  CommandResult result;
  result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  auto slurp = [](const std::string& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  };
  result.out = slurp(outPath);
  result.err = slurp(errPath);
  std::filesystem::remove_all(dir);
  return result;
}

void writeText(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

int countLines(const std::string& text) { return static_cast<int>(std::count(text.begin(), text.end(), '\n')); }

std::string makeTempDir(const std::string& tag) {
  static std::mt19937_64 rng(std::random_device{}());
  auto dir = std::filesystem::temp_directory_path() / ("sloshlab_" + tag + "_" + std::to_string(rng()));
  std::filesystem::create_directories(dir);
  return dir.string();
}

}  // namespace sloshlab::test
