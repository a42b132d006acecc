// Save and resume (sloshlab/state_file.h): for every solver in 2D and 3D, 60 steps
// straight equal 30 steps, saved, loaded into a new simulation, and 30 more, bit for
// bit; damaged and foreign files are refused with one line naming the file.
#include "support/test_support.h"

#include "sloshlab/state_file.h"

#include <gtest/gtest.h>

#include <map>

namespace sloshlab::test {
namespace {

// One live edit per solver, made at step 20 as the window's panel makes it (a value
// the scene did not set), so that the file must carry the edited parameters.
const std::map<std::string, std::pair<std::string, double>> kEdits = {
    {"collisions", {"restitution", 0.9}}, {"toy", {"viscosity", 0.2}},     {"wcsph", {"viscosity", 0.002}},
    {"dfsph", {"support", 2.5}},          {"pbf", {"xsph", 0.05}},         {"pic", {"cell_size", 3.0}},
    {"flip", {"pic_fraction", 0.1}},      {"apic", {"reseed", 0.0}},
};

template <int D>
void edit(SimulationImpl<D>& sim, const std::string& solver) {
  const auto& [key, value] = kEdits.at(solver);
  ParamRef params = sim.solverParams();
  const ParamInfo* info = params.table().find(key);
  ASSERT_NE(info, nullptr) << key;
  ASSERT_NE(params.get(*info), value) << "the edit must change " << key;
  params.setClamped(*info, value);
  sim.solverParamsEdited();
}

// The run: a violent script, then at step 10 a drag (the follow spring), at step 20 an edit.
template <int D>
void runSteps(SimulationImpl<D>& sim, const std::string& solver, long from, long to) {
  for (long s = from; s < to && !sim.failed(); ++s) {
    if (s == 10) {
      ContainerPose target = sim.driver().home();
      target.position.x += 0.05;
      target.angle += 0.2;
      sim.driver().setTarget(target);
    }
    if (s == 20) edit(sim, solver);
    sim.step(0.0);
  }
}

template <int D>
SimSpec specFor(const std::string& solver) {
  SimSpec spec;
  spec.solver = solver;
  spec.spacing = D == 2 ? 0.01 : 0.03;
  spec.motion = D == 2 ? violentMotion(0.5) : tumblingMotion(0.5);  // 3D: turning about any axis
  return spec;
}

template <int D>
void expectSameRun(const std::string& solver) {
  auto straight = makeSim<D>(specFor<D>(solver));
  runSteps(*straight, solver, 0, 60);
  ASSERT_FALSE(straight->failed()) << straight->failureMessage();

  auto first = makeSim<D>(specFor<D>(solver));
  runSteps(*first, solver, 0, 30);
  const std::string bytes = saveState(*first);
  first.reset();
  std::unique_ptr<Simulation> loaded = loadState(bytes, "memory");
  auto* resumed = dynamic_cast<SimulationImpl<D>*>(loaded.get());
  ASSERT_NE(resumed, nullptr);
  EXPECT_EQ(resumed->stepCount(), 30);
  EXPECT_EQ(resumed->solverName(), straight->solverName());
  runSteps(*resumed, solver, 30, 60);
  ASSERT_FALSE(resumed->failed()) << resumed->failureMessage();

  EXPECT_EQ(resumed->stepCount(), straight->stepCount());
  EXPECT_EQ(resumed->time(), straight->time());  // exactly: the same dt's summed in the same order
  const auto& a = straight->particles();
  const auto& b = resumed->particles();
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(particlesDifferingInBits<D>(a, b), 0u)
      << solver << " " << D << "D: particles differing after the resume, of " << a.size();
  EXPECT_EQ(resumed->container().pose.position, straight->container().pose.position);
  EXPECT_EQ(resumed->container().pose.angles(), straight->container().pose.angles());
  EXPECT_EQ(resumed->container().angularVelocity, straight->container().angularVelocity);
  if (D == 3) {
    EXPECT_NE(straight->container().pose.angleX, 0.0);
  }
}

class StateRoundTrip : public ::testing::TestWithParam<std::string> {};
TEST_P(StateRoundTrip, SixtyStepsEqualThirtySavedAndThirtyResumed2D) { expectSameRun<2>(GetParam()); }
TEST_P(StateRoundTrip, SixtyStepsEqualThirtySavedAndThirtyResumed3D) { expectSameRun<3>(GetParam()); }

INSTANTIATE_TEST_SUITE_P(EverySolver, StateRoundTrip, ::testing::ValuesIn(allSolverNames()),
                         [](const auto& param) { return param.param; });

std::string savedBottle() {
  auto sim = makeSim<2>(specFor<2>("wcsph"));
  for (int s = 0; s < 5; ++s) sim->step(0.0);
  return saveState(*sim);
}

// Loading must fail with a StateFileError whose one-line message holds `expected`.
void expectRefused(const std::string& bytes, const std::string& expected) {
  try {
    loadState(bytes, "x.state");
    ADD_FAILURE() << "accepted; expected '" << expected << "'";
  } catch (const StateFileError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(expected), std::string::npos) << what;
    EXPECT_NE(what.find("x.state"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
}

TEST(StateFile, ForeignFilesAreRefused) {
  expectRefused("", "is not a sloshlab state file");
  expectRefused("{\"name\": \"bottle\"}", "is not a sloshlab state file");
  expectRefused(std::string("\x89PNG\r\n\x1a\n", 8) + std::string(64, '\0'), "is not a sloshlab state file");
}

TEST(StateFile, DamagedFilesAreRefused) {
  const std::string good = savedBottle();
  ASSERT_NO_THROW(loadState(good, "x.state"));

  expectRefused(good.substr(0, 30), "ends inside its header");
  expectRefused(good.substr(0, good.size() - 1), "its header gives");
  std::string flipped = good;
  flipped[good.size() / 2] ^= 0x10;
  expectRefused(flipped, "checksum does not match");
  std::string version = good;
  version[16] = 7;
  expectRefused(version, "format version 7");
}

// Without the checksum, damage reaches the body's reader: a count beyond the file, or a
// particle moved outside the box, is named instead of crashing or loading garbage.
TEST(StateFile, DamagedBodiesAreNamed) {
  const std::string good = savedBottle();
  std::string truncated = good.substr(0, good.size() - 100);
  const std::uint64_t length = truncated.size() - 40;
  std::memcpy(truncated.data() + 24, &length, sizeof length);
  try {
    loadStateUnchecked(truncated, "x.state", 1e5);
    ADD_FAILURE() << "a truncated body was accepted";
  } catch (const StateFileError& e) {
    EXPECT_NE(std::string(e.what()).find("is damaged"), std::string::npos) << e.what();
  }
  // Every byte of the body set to 0xff in turn, for a stretch at its start (the set-up)
  // and around the particles: always a clean refusal or a valid simulation.
  int refused = 0;
  for (std::size_t at = 40; at < good.size(); at += at < 2000 ? 1 : 997) {
    std::string damaged = good;
    damaged[at] = static_cast<char>(0xff);
    try {
      auto sim = loadStateUnchecked(damaged, "x.state", 1e5);
      EXPECT_GT(sim->particleCount(), 0u);
    } catch (const StateFileError&) {
      ++refused;
    }
  }
  EXPECT_GT(refused, 0);
}

TEST(StateFile, AFailedSimulationHasNoStateToSave) {
  auto sim = makeSim<2>(specFor<2>("wcsph"));
  sim->particles().v[0].x = std::numeric_limits<double>::quiet_NaN();
  sim->step(0.0);
  ASSERT_TRUE(sim->failed());
  EXPECT_THROW(saveState(*sim), std::runtime_error);
}

}  // namespace
}  // namespace sloshlab::test
