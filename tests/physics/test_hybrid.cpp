// Physics of the hybrid solvers (PIC, FLIP, APIC; physics.md section 3): the projection
// leaves no divergence, APIC keeps the angular momentum of a spinning disc that PIC
// dissipates, FLIP keeps more kinetic energy than PIC, a tank at rest stays at rest.
// (Their dam break against Martin & Moyce (1952) is a row of test_dam_break.cpp.)
// Formulas: physics.md (3.12)-(3.13), (10.3), (10.8).
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

namespace sloshlab::test {
namespace {

// Tolerance: max |div u| h / max |u| < 1e-5 on the fluid cells after every projection
// (the default PCG tolerance is 1e-6), over a dam break in 2D and 3D.
template <int D>
void expectDivergenceFree(const std::string& solver, double spacing, double duration,
                          const std::string& preconditioner = "multigrid") {
  SimSpec spec;
  spec.scene = "dam_break";
  spec.solver = solver;
  spec.spacing = spacing;
  spec.overrides = {{"preconditioner", preconditioner}};
  auto sim = makeSim<D>(spec);
  double worst = 0.0, iterations = 0.0;
  int steps = 0;
  while (sim->time() < duration) {
    sim->step(duration);
    ASSERT_FALSE(sim->failed()) << sim->failureMessage();
    const SolverReport& r = sim->stats().solver;
    worst = std::max(worst, r.divergenceMax);
    iterations += r.iterations;
    ++steps;
  }
  EXPECT_LT(worst, 1e-5);
  std::printf("[ figures  ] %s %dD dam break, %d steps: max |div u| h / max|u| after projection %.2e; PCG (%s) %.1f "
              "iterations per step\n",
              solver.c_str(), D, steps, worst, preconditioner.c_str(), iterations / steps);
}

TEST(HybridProjection, DivergenceIsNearZeroAfterProjection) {
  const double a = 0.05715;
  expectDivergenceFree<2>("flip", a / 20, 0.2);
  expectDivergenceFree<2>("apic", a / 20, 0.2);
  expectDivergenceFree<2>("flip", a / 20, 0.2, "mic0");
  expectDivergenceFree<3>("flip", a / 8, 0.1);
  expectDivergenceFree<3>("apic", a / 8, 0.1, "mic0");
}

// A disc (2D) / cylinder (3D) of liquid spinning rigidly in zero gravity, 1 s.
template <int D>
double keptAngularMomentum(const std::string& solver, double* keptEnergy = nullptr) {
  const std::string scene = R"({
    "name": "spinning_disc", "solver": "apic", "spacing": 0.01, "spacing_3d": 0.0125, "gravity": [0, 0, 0],
    "container": {"size": [0.4, 0.4, 0.1]},
    "fluid": [{"disc": {"centre": [0.2, 0.2], "radius": 0.12}, "angular_velocity": 2.0}]
  })";
  SimSpec spec;
  spec.solver = solver;
  auto sim = makeSimFromJson<D>(scene, spec);
  const double L0 = sim->stats().angularMomentum.z, E0 = sim->stats().kineticEnergy;
  sim->advanceTo(1.0);
  EXPECT_FALSE(sim->failed()) << sim->failureMessage();
  if (keptEnergy) *keptEnergy = sim->stats().kineticEnergy / E0;
  return sim->stats().angularMomentum.z / L0;
}

// Tolerances: APIC keeps >= 95 % of L after 1 s (about a third of a turn); PIC keeps at
// least 10 points less.
TEST(HybridRotation, ApicKeepsTheAngularMomentumOfASpinningDisc) {
  const double apic2 = keptAngularMomentum<2>("apic"), pic2 = keptAngularMomentum<2>("pic");
  const double apic3 = keptAngularMomentum<3>("apic"), pic3 = keptAngularMomentum<3>("pic");
  std::printf("[ figures  ] spinning disc, L(1 s)/L(0): 2D APIC %.4f, PIC %.4f; 3D cylinder APIC %.4f, PIC %.4f\n",
              apic2, pic2, apic3, pic3);
  EXPECT_GE(apic2, 0.95);
  EXPECT_GE(apic3, 0.95);
  EXPECT_LT(pic2, apic2 - 0.10);
  EXPECT_LT(pic3, apic3 - 0.10);
}

// FLIP against PIC on the same sloshing run: the dam break, 0.6 s (the surge has hit the
// far wall and runs back). Tolerance: FLIP keeps more kinetic energy than PIC.
TEST(HybridEnergy, FlipKeepsMoreKineticEnergyThanPic) {
  auto run = [](const std::string& solver) {
    SimSpec spec;
    spec.scene = "dam_break";
    spec.solver = solver;
    spec.spacing = 0.05715 / 20;
    auto sim = makeSim<2>(spec);
    const double released = sim->stats().potentialEnergy;
    sim->advanceTo(0.6);
    EXPECT_FALSE(sim->failed()) << sim->failureMessage();
    return std::pair(sim->stats().kineticEnergy, released - sim->stats().potentialEnergy);
  };
  const auto [flip, flipDrop] = run("flip");
  const auto [pic, picDrop] = run("pic");
  std::printf("[ figures  ] dam break 2D at 0.6 s: kinetic energy FLIP %.4f J, PIC %.4f J (ratio %.2f); "
              "potential energy released FLIP %.4f J, PIC %.4f J\n",
              flip, pic, flip / pic, flipDrop, picDrop);
  EXPECT_GT(flip, pic);
}

// A tank at rest (H = 0.2 m) for 2 s: max particle speed below 1 % of sqrt(g H) on every
// step, not only the last (a disturbance the tank has forgotten by 2 s is still a fault).
template <int D>
void expectRest(const std::string& solver) {
  SimSpec spec;
  spec.scene = "hydrostatic";
  spec.solver = solver;
  auto sim = makeSim<D>(spec);
  const double limit = 0.01 * std::sqrt(9.81 * 0.2);
  double worst = 0.0, worstTime = 0.0;
  while (sim->time() < 2.0) {
    sim->step(2.0);
    ASSERT_FALSE(sim->failed()) << sim->failureMessage();
    if (sim->stats().maxSpeed > worst) worst = sim->stats().maxSpeed, worstTime = sim->time();
  }
  EXPECT_LT(worst, limit) << solver << " " << D << "D: max speed over the run, at t = " << worstTime << " s";
  std::printf("[ figures  ] %s %dD hydrostatic tank, %zu particles: max speed after 2 s %.2e m/s, over the run %.2e "
              "m/s (limit %.2e)\n",
              solver.c_str(), D, sim->particleCount(), sim->stats().maxSpeed, worst, limit);
}

TEST(HybridRest, TankAtRestStaysAtRest) {
  expectRest<2>("flip");
  expectRest<2>("apic");
  expectRest<3>("flip");
  expectRest<3>("apic");
}

}  // namespace
}  // namespace sloshlab::test
