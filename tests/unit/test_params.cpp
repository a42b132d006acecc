// Parameter tables: every solver's table is well formed; parsing is strict and
// clamping holds (one table per solver drives parsing, --set, clamping and the panel:
// sim/include/sloshlab/params.h; ParamRef::setClamped is the one place that clamps).
#include "sloshlab/container.h"
#include "sloshlab/run_settings.h"
#include "sloshlab/solver_registry.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

namespace sloshlab {
namespace {

TEST(ParamTables, EverySolverDescribesEveryParameter) {
  for (const SolverInfo& info : solverInfos()) {
    auto solver = makeSolver<2>(info.name);
    ParamRef p = solver->params();
    EXPECT_EQ(p.table().owner, info.name);
    std::set<std::string> keys;
    ASSERT_FALSE(p.table().entries.empty()) << info.name;
    for (const ParamInfo& e : p.table().entries) {
      EXPECT_TRUE(keys.insert(e.key).second) << info.name << ": duplicate key " << e.key;
      EXPECT_LT(e.min, e.max) << e.key;
      EXPECT_GE(p.get(e), e.min) << info.name << "." << e.key << " default below its range";
      EXPECT_LE(p.get(e), e.max) << info.name << "." << e.key << " default above its range";
      EXPECT_GT(std::string(e.description).size(), 10u) << e.key;
      EXPECT_GT(std::string(e.label).size(), 0u) << e.key;
      if (e.logScale) {
        EXPECT_GT(e.min, 0.0) << e.key << ": log scale needs a positive range";
      }
      if (e.kind == ParamKind::Choice) {
        EXPECT_EQ(e.choices.size(), static_cast<std::size_t>(e.max + 1)) << e.key;
      }
    }
    // The same table describes the 3D solver.
    auto solver3 = makeSolver<3>(info.name);
    EXPECT_EQ(solver3->params().table().entries.size(), p.table().entries.size());
  }
}

TEST(ParamTables, StrictTextParsing) {
  auto solver = makeSolver<2>("wcsph");
  ParamRef p = solver->params();
  p.setFromText("speed_of_sound", "40");
  EXPECT_EQ(p.get(*p.table().find("speed_of_sound")), 40.0);
  p.setFromText("clamp_negative_pressure", "false");
  EXPECT_EQ(p.get(*p.table().find("clamp_negative_pressure")), 0.0);
  p.setFromText("clamp_negative_pressure", "on");
  EXPECT_EQ(p.get(*p.table().find("clamp_negative_pressure")), 1.0);

  auto message = [&](const char* key, const char* text) {
    try {
      p.setFromText(key, text);
    } catch (const ParamError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("no_such_key", "1").find("unknown parameter 'no_such_key'"), std::string::npos);
  EXPECT_NE(message("no_such_key", "1").find("speed_of_sound"), std::string::npos);  // lists the known keys
  EXPECT_NE(message("speed_of_sound", "fast").find("cannot read 'fast'"), std::string::npos);
  EXPECT_NE(message("speed_of_sound", "1e9").find("out of range"), std::string::npos);
  EXPECT_NE(message("speed_of_sound", "-3").find("out of range"), std::string::npos);
  EXPECT_NE(message("speed_of_sound", "nan").find("cannot read"), std::string::npos);
  EXPECT_NE(message("speed_of_sound", "40x").find("cannot read"), std::string::npos);
  EXPECT_NE(message("clamp_negative_pressure", "maybe").find("true/false"), std::string::npos);
  // A failed set leaves the value as it was.
  EXPECT_EQ(p.get(*p.table().find("speed_of_sound")), 40.0);
}

// The range an error or --list-params prints can be typed back: every bound of every
// table, entered as printed, is accepted and lands exactly on the bound (1/60 printed
// as 0.0166667 was refused as "out of range [0.0001, 0.0166667]").
TEST(ParamTables, PrintedBoundsCanBeEntered) {
  for (const SolverInfo& info : solverInfos()) {
    auto solver = makeSolver<2>(info.name);
    ParamRef p = solver->params();
    for (const ParamInfo& e : p.table().entries) {
      if (e.kind != ParamKind::Real) continue;
      for (double bound : {e.min, e.max}) {
        EXPECT_NO_THROW(p.setFromText(e.key, formatNumber(bound))) << info.name << "." << e.key;
        EXPECT_EQ(p.get(e), bound) << info.name << "." << e.key;
      }
    }
  }
  EXPECT_EQ(fitRange(0.0166667, 1e-4, 1.0 / 60.0), 1.0 / 60.0);
  EXPECT_EQ(fitRange(-6.28319, -2.0 * kPi, 2.0 * kPi), -2.0 * kPi);
  EXPECT_FALSE(fitRange(0.0166668, 1e-4, 1.0 / 60.0));
  EXPECT_FALSE(fitRange(std::nan(""), 0.0, 1.0));
  EXPECT_FALSE(fitRange(INFINITY, 0.0, INFINITY));
  EXPECT_EQ(describeRange(1e-4, 1.0 / 60.0), "[0.0001, 0.0166667]");
}

TEST(ParamTables, ClampingHoldsForEveryField) {
  for (const SolverInfo& info : solverInfos()) {
    auto solver = makeSolver<3>(info.name);
    ParamRef p = solver->params();
    for (const ParamInfo& e : p.table().entries) {
      p.setClamped(e, e.max + 1e6);
      EXPECT_LE(p.get(e), e.max) << e.key;
      p.setClamped(e, e.min - 1e6);
      EXPECT_GE(p.get(e), e.min) << e.key;
      p.setClamped(e, std::numeric_limits<double>::quiet_NaN());  // ignored
      EXPECT_GE(p.get(e), e.min) << e.key;
    }
    EXPECT_EQ(p.clampAll(), 0);
  }
}

TEST(ParamTables, IntegersMustBeWhole) {
  struct Demo {
    int iterations = 3;
  };
  static const ParamInfo entries[] = {
      {"iterations", "Iterations", "1", "Solver", SLOSHLAB_PARAM_FIELD(Demo, iterations), 1, 10, false, "k"}};
  static const ParamTable table{"demo", entries};
  Demo d;
  ParamRef p(&d, &table);
  p.setFromText("iterations", "7");
  EXPECT_EQ(d.iterations, 7);
  EXPECT_THROW(p.setFromText("iterations", "2.5"), ParamError);
  p.setClamped(entries[0], 4.6);
  EXPECT_EQ(d.iterations, 5);
}

// The settings outside the solvers have tables too (run_settings.h, container.h): the
// defaults lie in their ranges, every entry names its unit and the equation it enters,
// and the mouse spring's table edits the driver's own settings, strictly or clamped.
TEST(ParamTables, RunSettingsAndTheMouseSpringAreTables) {
  RunSettings run;
  ParamRef runRef(&run, &runSettingsTable());
  ContainerDriver driver;
  ParamRef spring = driver.followParams();
  for (ParamRef ref : {runRef, spring})
    for (const ParamInfo& info : ref.table().entries) {
      EXPECT_GE(ref.get(info), info.min) << info.key;
      EXPECT_LE(ref.get(info), info.max) << info.key;
      EXPECT_NE(std::string(info.description).find("physics.md"), std::string::npos) << info.key;
      EXPECT_STRNE(info.unit, "") << info.key;
    }
  EXPECT_EQ(runSetting("spacing").min, 1e-5);  // the scene files', the state files' and --spacing's bound
  EXPECT_EQ(runSetting("speed").max, 2.0);
  spring.setFromText("frequency", "3");
  EXPECT_EQ(driver.followSettings().frequency, 3.0);
  EXPECT_THROW(spring.setFromText("max_acceleration", "1e4"), ParamError);
  spring.setClamped(*spring.table().find("max_speed"), 1e9);
  EXPECT_EQ(driver.followSettings().maxSpeed, 20.0);
  // A stiffer spring reaches a target sooner (physics.md (8.7)).
  auto travelled = [](double frequency) {
    ContainerDriver d;
    d.followParams().setStrict("frequency", frequency);
    d.reset(ContainerPose{});
    ContainerPose target;
    target.position.x = 0.1;
    d.setTarget(target);
    ContainerState state;
    for (int k = 0; k < 10; ++k) d.advance(state, k * 0.01, 0.01);
    return state.pose.position.x;
  };
  EXPECT_GT(travelled(12.0), travelled(3.0) + 0.01);
}

}  // namespace
}  // namespace sloshlab
