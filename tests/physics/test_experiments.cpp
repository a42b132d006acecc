// The lab's experiments (sloshlab/experiments.h) against their references, each with
// its default solver: what `sloshlab --headless --experiment NAME` prints. Tolerances:
// the dam break's front speed within 10 % of Martin & Moyce's (at the scene's a/20;
// test_dam_break.cpp holds a/40 to the same), hydrostatic pressure within 5 % of rho g,
// the accelerated bottle's surface slope within 10 % of -a/g, the first mode's period
// within 5 % of (11.4); APIC keeps a spinning disc's angular momentum within 5 % where
// PIC loses more than a fifth (the lecture's point); an elastic gas keeps its energy.
#include "sloshlab/experiments.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

namespace sloshlab {
namespace {

ExperimentRequest request(const std::string& name, const std::string& solver = "", int dim = 2) {
  ExperimentRequest r;
  r.name = name, r.solver = solver, r.dim = dim;
  return r;
}

ExperimentResult run(const std::string& name, const std::string& solver = "", int dim = 2) {
  const ExperimentResult r = runExperiment(request(name, solver, dim));
  std::printf("[ figures  ] %s, %s %dD, %zu particles: %s %.5g against %.5g (%.2f %%), %zu curve rows\n", name.c_str(),
              r.solver.c_str(), r.dim, r.particles, r.quantity.c_str(), r.measured, r.reference,
              100.0 * r.relativeError, r.rows.size());
  EXPECT_FALSE(r.rows.empty());
  for (const auto& row : r.rows) EXPECT_EQ(row.size(), r.columns.size());
  return r;
}

TEST(Experiments, DamBreakFrontAgainstMartinMoyce) {
  const ExperimentResult r = run("dam_break");
  EXPECT_NEAR(r.reference, 1.124, 0.001);  // the table's own fit
  EXPECT_LT(r.relativeError, 0.10);
}

TEST(Experiments, HydrostaticPressureAgainstRhoG) {
  const ExperimentResult r = run("hydrostatic");
  EXPECT_NEAR(r.reference, 1000.0 * 9.81, 1e-9);
  EXPECT_LT(r.relativeError, 0.05);
}

TEST(Experiments, AcceleratedSurfaceSlopeAgainstMinusAOverG) {
  const ExperimentResult r = run("tilt");
  EXPECT_NEAR(r.reference, -0.2, 1e-12);
  EXPECT_LT(r.relativeError, 0.10);
}

TEST(Experiments, SloshingPeriodAgainstTheFirstMode) {
  const ExperimentResult r = run("sloshing");
  EXPECT_NEAR(r.reference, 2.0 * kPi / firstModeOmega(0.2, 0.1), 1e-12);
  EXPECT_LT(r.relativeError, 0.05);
}

TEST(Experiments, SpinningDiscKeepsItsAngularMomentumUnderApicNotPic) {
  EXPECT_LT(run("spinning_disc", "apic").relativeError, 0.05);
  EXPECT_GT(run("spinning_disc", "pic").relativeError, 0.2);
}

TEST(Experiments, ElasticGasKeepsItsEnergy) {
  EXPECT_LT(run("hard_spheres").relativeError, 1e-6);
}

TEST(Experiments, ThreeDimensions) {
  EXPECT_LT(run("hydrostatic", "dfsph", 3).relativeError, 0.05);
}

TEST(Experiments, BadRequestsAreRefusedAndFailuresNamed) {
  EXPECT_THROW(runExperiment(request("nope")), std::runtime_error);
  EXPECT_THROW(runExperiment(request("dam_break", "magic")), std::runtime_error);
  try {
    runExperiment(request("hydrostatic", "collisions"));
    ADD_FAILURE() << "a solver without pressure was measured";
  } catch (const ExperimentFailure&) {
    ADD_FAILURE() << "a request, not a failure of the solver";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("no pressure"), std::string::npos) << e.what();
  }
  EXPECT_EQ(experimentInfos().size(), 6u);
  for (const ExperimentInfo& e : experimentInfos()) EXPECT_EQ(findExperiment(e.name), &e);
}

}  // namespace
}  // namespace sloshlab
