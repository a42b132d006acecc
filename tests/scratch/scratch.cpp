#include "support/test_support.h"
#include "sloshlab/solver_registry.h"
#include "solvers/dfsph.h"
#include <gtest/gtest.h>
#include <cstdlib>
namespace sloshlab::test {
TEST(Scratch, Shake2D) {
  SimSpec spec;
  spec.scene = "bottle";
  spec.solver = getenv("SOLVER") ? getenv("SOLVER") : "dfsph";
  spec.spacing = getenv("SPACING") ? atof(getenv("SPACING")) : 0.015;
  spec.motion = violentMotion(1.0);
  for (int k = 0; k < 4; ++k) { std::string n = "OVR" + std::to_string(k); if (!getenv(n.c_str())) continue; std::string o = getenv(n.c_str()); auto eq = o.find(61); spec.overrides.push_back({o.substr(0, eq), o.substr(eq + 1)}); }
  auto sim = makeSim<2>(spec);
  while (sim->time() < 1.0 && !sim->failed()) {
    sim->step(1.0);
    const auto& s = sim->stats();
    if (s.time > (getenv("TDBG") ? atof(getenv("TDBG")) : 0.312) && spec.solver == "dfsph") {
      auto& sol = dynamic_cast<DfsphSolver<2>&>(sim->solver());
      const auto& p = sim->particles();
      std::vector<size_t> idx(p.size()); for (size_t i = 0; i < idx.size(); ++i) idx[i] = i;
      std::partial_sort(idx.begin(), idx.begin() + 4, idx.end(), [&](size_t a, size_t b) { return glm::length(p.v[a]) > glm::length(p.v[b]); });
      auto pr = sol.pressure();
      for (int k = 0; k < 4; ++k) { size_t i = idx[k]; printf("   i %zu x %.4f %.4f v %.3f %.3f rho %.4f p %.1f\n", i, p.x[i].x, p.x[i].y, p.v[i].x, p.v[i].y, sol.densityRatio()[i], pr[i]); }
    }
    if (s.step % (getenv("EVERY") ? atoi(getenv("EVERY")) : 5) == 0 || s.time > 0.25)
      printf("%4ld t %.4f dt %.5f KE %8.3f vmax %7.3f it %3d/%3d dErr %.5f max %.4f acc %.0f\n", s.step, s.time, s.dt,
             s.kineticEnergy, s.maxSpeed, s.solver.iterations, s.solver.divergenceIterations, s.solver.densityErrorMean,
             s.solver.densityErrorMax, glm::length(sim->container().acceleration));
  }
  if (sim->failed()) printf("%s\n", sim->failureMessage().c_str());
}
}
#include "support/tank.h"
namespace sloshlab::test {
TEST(Scratch, Tank) {
  SimSpec spec;
  spec.scene = "hydrostatic";
  spec.solver = getenv("SOLVER") ? getenv("SOLVER") : "dfsph";
  spec.spacing = getenv("SPACING") ? atof(getenv("SPACING")) : 0.005;
  for (int k = 0; k < 4; ++k) { std::string n = "OVR" + std::to_string(k); if (!getenv(n.c_str())) continue; std::string o = getenv(n.c_str()); auto eq = o.find(61); spec.overrides.push_back({o.substr(0, eq), o.substr(eq + 1)}); }
  auto sim = makeSim<2>(spec);
  auto& solver = dynamic_cast<DfsphSolver<2>&>(sim->solver());
  settleAndMeasureTank<2>(*sim, "dfsph", spec.spacing, 1.0, [&] { return solver.pressure(); });
}
}
