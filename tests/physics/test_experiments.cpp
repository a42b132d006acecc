// The lab's experiments (sloshlab/experiments.h) against their references, each with
// its default solver: what `sloshlab --headless --experiment NAME` prints. Tolerances:
// the dam break's front speed within 10 % of Martin & Moyce's (at the scene's a/20;
// test_dam_break.cpp holds a/40 to the same), hydrostatic pressure within 5 % of rho g,
// the accelerated bottle's surface slope within 10 % of -a/g, the first mode's period
// within 5 % of (11.4), a swirled glass's within 8 % of (11.4c); a mid-tank baffle leaves at most three quarters of the open
// tank's sloshing swing (11.4b); APIC keeps a spinning disc's angular momentum within 5 %
// where PIC loses more than a fifth (the lecture's point); an elastic gas keeps its energy.
// An observer (the Experiments panel's live view) sees the run and changes nothing.
#include "sloshlab/experiments.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdint>

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

// The swirled glass (physics.md (11.4c)): swirled three periods at its first mode and
// let go, the liquid's wave runs round the glass the way the glass went, at the period
// of (11.4c). Measured 2026-11-28, 3D (the experiment's spacing, 5 mm for the grid
// solvers, 6 mm for SPH): DFSPH +0.5 %, PIC +2.9 %, PBF +4.3 %, APIC +5.5 %, FLIP +7.2 %,
// each turning 3.1-4.0 times in the four free periods; 2D (the slot, (11.4) with
// L = 2R): PIC +0.2 %, WCSPH +0.9 %, APIC +1.3 %, DFSPH +1.9 %, FLIP +2.2 %, PBF +10.5 %.
// The grid solvers read long where the glass's wall cuts through their cells (whole
// cells, physics.md (15.5); fractional faces gave APIC +3.5 %). Bounds: 8 % in 3D, 5 % in 2D.
TEST(Experiments, ASwirledGlassSwirlsAtItsFirstMode) {
  const ExperimentResult r = run("swirl", "", 3);
  const double xi = 1.8411838, R = 0.09, H = 0.08;
  EXPECT_NEAR(r.reference, 2.0 * kPi / std::sqrt(9.81 * xi / R * std::tanh(xi * H / R)), 1e-9);
  EXPECT_LT(r.relativeError, 0.08);
  double turns = 0.0;
  ASSERT_EQ(std::sscanf(r.method.c_str() + r.method.rfind("turns"), "turns %lf times", &turns), 1) << r.method;
  EXPECT_GT(turns, 3.0) << "the wave goes round about once a period: " << r.method;
  EXPECT_NE(r.method.find("times the glass's way"), std::string::npos) << r.method;
  const ExperimentResult slot = run("swirl", "", 2);
  EXPECT_NEAR(slot.reference, 2.0 * kPi / firstModeOmega(2.0 * R, H), 1e-9);
  EXPECT_LT(slot.relativeError, 0.05);
}

TEST(Experiments, SloshingPeriodAgainstTheFirstMode) {
  const ExperimentResult r = run("sloshing");
  EXPECT_NEAR(r.reference, 2.0 * kPi / firstModeOmega(0.2, 0.1), 1e-12);
  EXPECT_LT(r.relativeError, 0.05);
}

// Why tank trucks have baffles (physics.md (11.4b)): the baffle at mid-tank lowers the
// first mode's frequency and takes its swing. Measured 2026-11-28 (2D): APIC keeps 55 %
// of the swing over three free periods with the baffle and 92 % without, its free period
// 0.650 s against 0.551 s; DFSPH 30 % against 71 %, 0.623 s against 0.538 s. The bounds:
// at most three quarters of the open tank's share, and a period at least 10 % longer.
TEST(Experiments, ABaffleTakesTheSloshingSwing) {
  for (const char* solver : {"apic", "dfsph"}) {
    const ExperimentResult r = run("baffle", solver);
    EXPECT_GT(r.reference, 0.6) << solver << ": the open tank keeps its swing";
    EXPECT_LT(r.measured, 0.75 * r.reference) << solver;
    double baffled = 0.0, open = 0.0;
    ASSERT_EQ(std::sscanf(r.method.c_str() + r.method.rfind("free period"), "free period %lf s baffled, %lf s open",
                          &baffled, &open), 2)
        << r.method;
    EXPECT_GT(baffled, 1.1 * open) << solver << ": the baffle lowers the first mode's frequency";
  }
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

// Bit for bit (NaN, the curve's "not in the table", equals itself).
bool sameBits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }
bool sameRows(const std::vector<std::vector<double>>& a, const std::vector<std::vector<double>>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].size() != b[i].size()) return false;
    for (std::size_t k = 0; k < a[i].size(); ++k)
      if (!sameBits(a[i][k], b[i][k])) return false;
  }
  return true;
}

// The observer is called after steps, in increasing simulated time, up to the end of
// the run; the curve it sees grows row by row and is the final curve's beginning; and
// the result is bit-identical to the run without it. With the default rate it is
// called at most 30 times per wall second (plus the first).
TEST(Experiments, ObserverSeesTheRunAndChangesNothing) {
  const ExperimentResult plain = runExperiment(request("dam_break"));
  std::vector<double> times;
  std::vector<std::size_t> rowCounts;
  bool prefix = true, particles = true;
  ExperimentResult lastCurve;
  ExperimentObserver everyStep;
  everyStep.rate = 0.0;
  everyStep.simulation = [&](const Simulation& sim) {
    times.push_back(sim.time());
    particles = particles && sim.particleCount() == plain.particles;
  };
  everyStep.curve = [&](const ExperimentResult& r) {
    rowCounts.push_back(r.rows.size());
    const auto n = static_cast<std::ptrdiff_t>(std::min(r.rows.size(), plain.rows.size()));
    prefix = prefix && r.rows.size() <= plain.rows.size() &&
             sameRows(r.rows, std::vector<std::vector<double>>(plain.rows.begin(), plain.rows.begin() + n));
    lastCurve = r;
  };
  const ExperimentResult watched = runExperiment(request("dam_break"), {}, &everyStep);

  EXPECT_TRUE(sameBits(watched.measured, plain.measured)) << watched.measured << " against " << plain.measured;
  EXPECT_TRUE(sameBits(watched.reference, plain.reference));
  EXPECT_TRUE(sameBits(watched.relativeError, plain.relativeError));
  EXPECT_TRUE(sameRows(watched.rows, plain.rows));
  EXPECT_EQ(watched.columns, plain.columns);
  EXPECT_EQ(watched.particles, plain.particles);
  EXPECT_EQ(watched.quantity, plain.quantity);
  EXPECT_EQ(watched.method, plain.method);

  // T = 3.6 is t = 3.6 / sqrt(2 g / a) = 0.1952 s, at about 1e-4 s a step.
  std::printf("[ figures  ] observer: %zu steps seen, t %.4f to %.4f s; %zu curves, the last %zu rows, "
              "front speed so far %.4f against %.4f\n",
              times.size(), times.empty() ? 0.0 : times.front(), times.empty() ? 0.0 : times.back(), rowCounts.size(),
              lastCurve.rows.size(), lastCurve.measured, lastCurve.reference);
  ASSERT_GT(times.size(), 100u);
  for (std::size_t i = 1; i < times.size(); ++i) ASSERT_GT(times[i], times[i - 1]) << "call " << i;
  EXPECT_GT(times.front(), 0.0);
  EXPECT_NEAR(times.back(), 3.6 / std::sqrt(2.0 * 9.81 / 0.05715), 1e-9);
  EXPECT_TRUE(particles);
  ASSERT_EQ(rowCounts.size(), plain.rows.size() - 1);  // one after each sample (the first row is T = 0)
  for (std::size_t i = 0; i < rowCounts.size(); ++i) EXPECT_EQ(rowCounts[i], i + 2);
  EXPECT_TRUE(prefix);
  EXPECT_EQ(lastCurve.columns, plain.columns);
  // At the end the front speed so far is fitted over the rows inside the table's times:
  // within 10 % of the table's over the same times, as the final one is of 1.124.
  ASSERT_TRUE(std::isfinite(lastCurve.measured));
  EXPECT_NEAR(lastCurve.relativeError, std::abs(lastCurve.measured / lastCurve.reference - 1.0), 1e-12);
  EXPECT_LT(lastCurve.relativeError, 0.10);

  long calls = 0;
  ExperimentObserver throttled;
  throttled.simulation = [&](const Simulation&) { ++calls; };
  const auto start = std::chrono::steady_clock::now();
  runExperiment(request("dam_break"), {}, &throttled);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("[ figures  ] at 30 per second: %ld calls in %.2f s\n", calls, wall);
  EXPECT_GE(calls, 1);
  EXPECT_LE(static_cast<double>(calls), 30.0 * wall + 1.0);

  // What an observer throws ends the run (the panel's Cancel).
  struct Stop {};
  ExperimentObserver stopping;
  stopping.simulation = [](const Simulation& sim) {
    if (sim.time() > 0.05) throw Stop{};
  };
  EXPECT_THROW(runExperiment(request("dam_break"), {}, &stopping), Stop);
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
  EXPECT_EQ(experimentInfos().size(), 10u);
  for (const ExperimentInfo& e : experimentInfos()) EXPECT_EQ(findExperiment(e.name), &e);
}

}  // namespace
}  // namespace sloshlab
