// The soak: every solver, in 2D and 3D, through random violent container motion
// (drags, throws with sudden stops, shakes, turns; at least 5 g) broken by calm
// periods. After every calm period it checks that no particle is outside, that the run
// has not failed (non-finite state, runaway speed, energy gained at rest: the
// simulation's own checks), that the liquid is going back to rest and that memory stays
// flat. Going back to rest: the sloshing energy, the mechanical energy above the lowest
// seen so far (the liquid at rest), is at the end of each 2 s calm no more than when the
// container stopped (+0.05 g H, below), and the table reports how much of it is left. It
// need not halve: FLIP and APIC keep two thirds of it over 2 s, as a liquid of little
// viscosity should (issue 12: free sloshing must last). The elastic gas (collisions)
// may only not gain energy.
//
//   sloshlab_soak [--cycles N | --minutes M] [--spacing-factor F] [--seed S]
//                 [--solvers a,b,...] [--dims 2,3]
//
// --cycles N runs N cycles per case; --minutes M cycles until M minutes of wall time
// per case. --spacing-factor scales each scene spacing (2: 1/4 of the particles in
// 2D), for a short form. Prints a line per case; exit status 1 when a check failed.
#include "sloshlab/simulation.h"
#include "sloshlab/solver_registry.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace sloshlab;

namespace {

constexpr double kViolentSeconds = 1.0;
constexpr double kCalmSeconds = 2.0;
constexpr double kRow = 0.005;  // s between motion rows

struct Options {
  int cycles = 2;
  double minutes = 0.0;
  double spacingFactor = 1.0;
  unsigned seed = 1;
  std::vector<std::string> solvers;
  std::vector<int> dims{2, 3};
};

double residentMb() {
  std::ifstream in("/proc/self/statm");
  long pages = 0, resident = 0;
  in >> pages >> resident;
  return static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
}

// One violent episode starting at time t0 from offset `from`, ending at rest at t0 + 1 s
// (back at the home pose, angle 0): one of a drag with a sudden stop, a throw and
// catch, a shake, a turn. Accelerations: a drag of d metres in T seconds starts and
// stops within one 5 ms row (2 m/s in 5 ms is 40 g); the shakes reach 5-8 g.
void violentEpisode(std::mt19937& rng, double t0, std::vector<MotionScript::Row>& rows) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const int kind = static_cast<int>(rng() % 4);
  const Vec3 target(0.3 * u(rng), 0.15 * u(rng), 0.1 * u(rng));
  const double turn = 0.6 * u(rng);
  const double f = 4.0 + 2.0 * std::abs(u(rng));  // Hz
  for (double s = 0.0; s <= kViolentSeconds + 1e-9; s += kRow) {
    MotionScript::Row r;
    r.t = t0 + s;
    switch (kind) {
      case 0: {  // drag out in 0.15 s, stop dead, hold, drag back in 0.15 s, stop dead
        const double out = std::min(s / 0.15, 1.0), back = std::clamp((s - 0.6) / 0.15, 0.0, 1.0);
        r.offset = target * (out - back);
        break;
      }
      case 1: {  // throw up and sideways, caught 0.3 s later, put back
        const double a = std::min(s / 0.1, 1.0) - std::clamp((s - 0.5) / 0.3, 0.0, 1.0);
        r.offset = Vec3(target.x, std::abs(target.y) + 0.05, target.z) * a;
        break;
      }
      case 2: {  // shake at f Hz with 6-8 g peaks, fading in the last 0.2 s
        const double w = 2.0 * 3.14159265358979 * f, amp = 7.0 * 9.81 / (w * w);
        const double fade = s < 0.8 ? 1.0 : std::max(0.0, (1.0 - s) / 0.2);
        r.offset = Vec3(amp * std::sin(w * s), 0.5 * amp * std::sin(1.3 * w * s), 0.0) * fade;
        break;
      }
      default: {  // turn by up to 0.6 rad in 0.2 s, hold, turn back
        const double a = std::min(s / 0.2, 1.0) - std::clamp((s - 0.6) / 0.2, 0.0, 1.0);
        r.angle = turn * a;
        r.offset = 0.3 * target * a;
        break;
      }
    }
    rows.push_back(r);
  }
}

MotionScript soakMotion(unsigned seed, int cycles) {
  std::mt19937 rng(seed);
  std::vector<MotionScript::Row> rows;
  for (int c = 0; c < cycles; ++c) {
    const double t0 = c * (kViolentSeconds + kCalmSeconds);
    violentEpisode(rng, t0, rows);
    rows.push_back({t0 + kViolentSeconds + kCalmSeconds - kRow, Vec3(0.0), 0.0});  // calm
  }
  return MotionScript::fromRows(std::move(rows));
}

struct CaseResult {
  int cycles = 0;
  double wallSeconds = 0.0;
  std::size_t particles = 0;
  double worstRestRatio = 0.0;  // sloshing energy at the end of a calm / at the stop
  double firstMb = 0.0, lastMb = 0.0;
  std::string failure;
};

// Mechanical energy per kg (J/kg): kinetic plus potential.
double energyPerKg(const StepStats& s) { return (s.kineticEnergy + s.potentialEnergy) / s.mass; }

CaseResult runCase(const std::string& solver, int dim, const Options& o, int plannedCycles) {
  SimulationSetup setup;
  setup.scene = loadScene("bottle");
  setup.dim = dim;
  setup.solver = solver;
  setup.spacing = setup.scene.spacingFor(solver, dim) * o.spacingFactor;
  setup.seed = o.seed;
  setup.motion = soakMotion(o.seed * 7919u + static_cast<unsigned>(dim), plannedCycles);
  auto sim = Simulation::create(setup);
  CaseResult r;
  r.particles = sim->particleCount();
  const bool gas = solver == "collisions";  // an elastic gas does not come to rest
  const auto start = std::chrono::steady_clock::now();
  const double cycleSeconds = kViolentSeconds + kCalmSeconds;
  double restEnergy = energyPerKg(sim->stats());
  // A compressible liquid (WCSPH, toy) gives back the elastic energy of its compression
  // after a stop, up to 0.21 J/kg in the bottle (issue 12): the sloshing energy may rise
  // by 0.05 g H (0.20 J/kg in the bottle), half the energy watchdog's allowance
  // (physics.md (10.10)).
  const double riseAllowed = 0.05 * glm::length(setup.scene.gravity) * setup.scene.containerSize.y;
  for (int c = 0; c < plannedCycles; ++c) {
    const double t0 = c * cycleSeconds;
    sim->advanceTo(t0 + kViolentSeconds);
    const double stopEnergy = energyPerKg(sim->stats());
    // The lowest energy so far, sampled every 0.1 s of the calm: the liquid at rest.
    for (double t = t0 + kViolentSeconds + 0.1; t < t0 + cycleSeconds - 1e-9 && !sim->failed(); t += 0.1) {
      sim->advanceTo(t);
      restEnergy = std::min(restEnergy, energyPerKg(sim->stats()));
    }
    sim->advanceTo(t0 + cycleSeconds);
    restEnergy = std::min({restEnergy, stopEnergy, energyPerKg(sim->stats())});
    ++r.cycles;
    std::ostringstream why;
    const StepStats& s = sim->stats();
    const double energy = energyPerKg(s);
    const double sloshAtStop = stopEnergy - restEnergy, slosh = energy - restEnergy;
    if (sim->failed()) why << sim->failureMessage();
    else if (sim->countOutside() > 0) why << sim->countOutside() << " particles outside the container";
    else if (!std::isfinite(energy)) why << "energy is not finite";
    else if (gas && energy > stopEnergy * 1.01 + 1e-6)
      why << "the gas gained energy while the container stood still: " << stopEnergy << " -> " << energy << " J/kg";
    else if (!gas && slosh > sloshAtStop + riseAllowed)
      why << "not going back to rest: sloshing energy " << sloshAtStop << " -> " << slosh << " J/kg in "
          << kCalmSeconds << " s";
    if (!gas && sloshAtStop > 0.01) r.worstRestRatio = std::max(r.worstRestRatio, slosh / sloshAtStop);
    const double mb = residentMb();
    if (c == 0) r.firstMb = mb;
    r.lastMb = mb;
    // Flat memory: after the first cycle (allocations that settle), at most 4 MB more.
    if (why.str().empty() && c > 0 && mb > r.firstMb + 4.0)
      why << "memory grew from " << r.firstMb << " to " << mb << " MB";
    if (!why.str().empty()) {
      r.failure = "cycle " + std::to_string(c + 1) + " (t = " + std::to_string(sim->time()) + " s): " + why.str();
      break;
    }
    r.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (o.minutes > 0.0 && r.wallSeconds > 60.0 * o.minutes) break;
  }
  r.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

std::vector<std::string> splitList(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

[[noreturn]] void usage(const std::string& problem) {
  std::fprintf(stderr, "sloshlab_soak: error: %s (options: --cycles N, --minutes M, --spacing-factor F, --seed S, "
                       "--solvers a,b, --dims 2,3)\n", problem.c_str());
  std::exit(2);
}

double positive(const std::string& key, const char* text, double hi) {
  char* end = nullptr;
  const double x = std::strtod(text, &end);
  if (end == text || *end != '\0' || !(x > 0.0) || x > hi) usage(key + " needs a number in (0, " + std::to_string(hi) + "]");
  return x;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string key = argv[i];
    if (i + 1 >= argc) usage(key + " needs a value");
    const char* value = argv[++i];
    if (key == "--cycles") o.cycles = static_cast<int>(positive(key, value, 1e6));
    else if (key == "--minutes") o.minutes = positive(key, value, 1e4);
    else if (key == "--spacing-factor") o.spacingFactor = positive(key, value, 10.0);
    else if (key == "--seed") o.seed = static_cast<unsigned>(positive(key, value, 1e9));
    else if (key == "--solvers") o.solvers = splitList(value);
    else if (key == "--dims") {
      o.dims.clear();
      for (const std::string& d : splitList(value)) {
        if (d != "2" && d != "3") usage("--dims takes 2 and/or 3");
        o.dims.push_back(d == "2" ? 2 : 3);
      }
    } else {
      usage("unknown option '" + key + "'");
    }
  }
  if (o.solvers.empty())
    for (const SolverInfo& info : solverInfos()) o.solvers.emplace_back(info.name);
  for (const std::string& s : o.solvers)
    if (!findSolverInfo(s)) usage("unknown solver '" + s + "'");
  // With --minutes the motion is planned for 2,000 cycles (6,000 s, 16 MB of rows); the
  // run stops on the clock or at the end of them.
  const int planned = o.minutes > 0.0 ? 2000 : o.cycles;
  int failures = 0;
  std::printf("| solver | dim | particles | cycles | wall s | worst sloshing energy after calm / at stop | memory MB (first -> last) | result |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---:|---|\n");
  for (int dim : o.dims)
    for (const std::string& solver : o.solvers) {
      const CaseResult r = runCase(solver, dim, o, planned);
      std::printf("| %s | %dD | %zu | %d | %.0f | %.3f | %.1f -> %.1f | %s |\n", solver.c_str(), dim, r.particles,
                  r.cycles, r.wallSeconds, r.worstRestRatio, r.firstMb, r.lastMb,
                  r.failure.empty() ? "ok" : r.failure.c_str());
      std::fflush(stdout);
      failures += !r.failure.empty();
    }
  return failures == 0 ? 0 : 1;
}
