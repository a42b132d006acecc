// Helpers shared by the tests: building simulations from the built-in scenes,
// reading the validation data, running the real executable.
#pragma once

#include "simulation_impl.h"
#include "sloshlab/state_file.h"

#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace sloshlab::test {

struct SimSpec {
  std::string scene = "bottle";
  std::string solver;  // empty: the scene's
  double spacing = 0.0;
  std::vector<std::pair<std::string, std::string>> overrides;
  std::uint64_t seed = 1;
  MotionScript motion;
};

template <int D>
std::unique_ptr<SimulationImpl<D>> makeSim(const SimSpec& spec);

// Same as makeSim, from a scene given as JSON text.
template <int D>
std::unique_ptr<SimulationImpl<D>> makeSimFromJson(const std::string& json, const SimSpec& spec);

// How many particles differ in a bit of position or velocity between two runs that
// should be the same (a resumed state against the run that never stopped).
template <int D>
std::size_t particlesDifferingInBits(const ParticleSet<D>& a, const ParticleSet<D>& b) {
  std::size_t differ = 0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i)
    differ += std::memcmp(&a.x[i], &b.x[i], sizeof a.x[i]) != 0 || std::memcmp(&a.v[i], &b.v[i], sizeof a.v[i]) != 0;
  return differ;
}

// A run of 2 x `half` steps that never stopped, and the same run saved after `half`
// steps, loaded from the bytes and stepped `half` more: the pair a resume test compares
// (the resumed one is nullptr when the state did not load as D dimensions).
template <int D>
struct StraightAndResumed {
  std::unique_ptr<SimulationImpl<D>> straight;
  std::unique_ptr<Simulation> loaded;
  SimulationImpl<D>* resumed = nullptr;
};
template <int D>
StraightAndResumed<D> runStraightAndResumed(const std::function<std::unique_ptr<SimulationImpl<D>>()>& make, int half) {
  StraightAndResumed<D> out;
  out.straight = make();
  for (int s = 0; s < 2 * half; ++s) out.straight->step(0.0);
  auto first = make();
  for (int s = 0; s < half; ++s) first->step(0.0);
  const std::string bytes = saveState(*first);
  first.reset();
  out.loaded = loadState(bytes, "memory");
  out.resumed = dynamic_cast<SimulationImpl<D>*>(out.loaded.get());
  if (out.resumed)
    for (int s = 0; s < half; ++s) out.resumed->step(0.0);
  return out;
}

// A container 0.5 x 0.4 x 0.2 m moved off the origin and turned about all three axes:
// for the tests of what is exported in the world frame.
inline ContainerState movedAndTurnedContainer() {
  ContainerState c;
  c.size = Vec3(0.5, 0.4, 0.2);
  c.pose.position = Vec3(1.0, 2.0, -0.5);
  c.pose.angle = 0.3, c.pose.angleX = -0.2, c.pose.angleY = 0.7;
  return c;
}

// Every registered solver's name, for tests run once per solver.
std::vector<std::string> allSolverNames();

// A violent scripted motion: shakes of at least 5 g in x and y, and turns of +-0.5 rad.
MotionScript violentMotion(double duration);
// violentMotion with a tumble about a wandering axis on top (3D): tipping about x by up
// to 0.6 rad (5.7 rad/s) and swinging about the vertical by up to 2 rad (10 rad/s), so
// that omega and alpha point every way (physics.md (8.1a), (8.3)).
MotionScript tumblingMotion(double duration);

struct CommandResult {
  int exitCode = -1;
  std::string out;
  std::string err;
};
// Runs a shell command line, capturing its exit code, stdout and stderr.
CommandResult runCommand(const std::string& commandLine);
// Runs the sloshlab executable with the given arguments (shell-quoted by the caller).
CommandResult runSloshlab(const std::string& args);

// A fresh empty directory under the system temp dir.
std::string makeTempDir(const std::string& tag);

void writeText(const std::string& path, const std::string& text);
int countLines(const std::string& text);  // the newlines in text

}  // namespace sloshlab::test
