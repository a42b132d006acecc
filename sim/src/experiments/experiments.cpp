// The experiments' list, what they share, and runExperiment (sloshlab/experiments.h).
#include "experiments/experiment_runs.h"

#include "io/csv_reader.h"
#include "sloshlab/embedded.h"
#include "sloshlab/solver_registry.h"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace sloshlab {

namespace embedded {
extern const EmbeddedFile kValidationData[];
extern const std::size_t kValidationDataCount;
}  // namespace embedded

CsvTable validationTable(const std::string& file) {
  for (std::size_t i = 0; i < embedded::kValidationDataCount; ++i) {
    if (file != embedded::kValidationData[i].name) continue;
    std::istringstream in(embedded::kValidationData[i].text);
    return parseCsv(in, "assets/data/" + file, "validation data");
  }
  throw std::logic_error(file + " is not embedded");
}

namespace {

using experiments::Run;

constexpr ExperimentInfo kExperiments[] = {
    {"dam_break", "the surge front's speed dZ/dT against Martin & Moyce 1952 (physics.md (11.8))", "wcsph"},
    {"hydrostatic", "the pressure's gradient with depth against rho g (11.1)", "wcsph"},
    {"tilt", "the free surface's slope in a bottle accelerating at 0.2 g against -a/g (11.2)", "wcsph"},
    {"sloshing", "the first sloshing mode's period after a one-period shake against 2 pi / omega_1 (11.4)", "wcsph"},
    {"baffle", "the sloshing swing a baffle leaves after a two-period shake against the open tank's (11.4b)", "apic"},
    {"swirl", "the period of the wave a swirled round glass sets going against its first mode (11.4c)", "apic"},
    {"torricelli", "the discharge coefficient of a hole in a draining tank's floor against a sharp-edged orifice's (14.6)", "dfsph"},
    {"forced_sway", "a wave gauge in a tank swayed from rest against Faltinsen et al. 2000's measurements (11.10)", "apic"},
    {"spinning_disc", "the angular momentum a spinning disc keeps after 1 s, against 1 (10.3)", "apic"},
    {"hard_spheres", "the kinetic energy an elastic hard-sphere gas keeps after 1 s, against 1 (1.3)", "collisions"},
};

template <int D>
ExperimentResult dispatch(const std::string& name, const Run& run) {
  if (name == "dam_break") return experiments::damBreak<D>(run);
  if (name == "hydrostatic") return experiments::hydrostatic<D>(run);
  if (name == "tilt") return experiments::tilt<D>(run);
  if (name == "sloshing") return experiments::sloshing<D>(run);
  if (name == "baffle") return experiments::baffle<D>(run);
  if (name == "swirl") return experiments::swirl<D>(run);
  if (name == "torricelli") return experiments::torricelli<D>(run);
  if (name == "forced_sway") return experiments::forcedSway<D>(run);
  if (name == "spinning_disc") return experiments::spinningDisc<D>(run);
  return experiments::hardSpheres<D>(run);
}

}  // namespace

std::span<const ExperimentInfo> experimentInfos() { return kExperiments; }

const ExperimentInfo* findExperiment(const std::string& name) {
  for (const ExperimentInfo& e : kExperiments)
    if (name == e.name) return &e;
  return nullptr;
}

std::string experimentNameList() {
  std::string list;
  for (const ExperimentInfo& e : kExperiments) list += (list.empty() ? "" : ", ") + std::string(e.name);
  return list;
}

ExperimentResult runExperiment(const ExperimentRequest& request, const std::function<void(double)>& progress,
                               const ExperimentObserver* observer) {
  const ExperimentInfo* info = findExperiment(request.name);
  if (!info) throw std::runtime_error("unknown experiment '" + request.name + "' (known: " + experimentNameList() + ")");
  Run run{request.solver.empty() ? info->solver : request.solver, request.dim, request.spacing, progress, observer};
  if (!findSolverInfo(run.solver))
    throw std::runtime_error("unknown solver '" + run.solver + "' (known: " + solverNameList() + ")");
  if (run.dim != 2 && run.dim != 3) throw std::runtime_error("dimension must be 2 or 3");
  ExperimentResult result = run.dim == 2 ? dispatch<2>(request.name, run) : dispatch<3>(request.name, run);
  result.experiment = request.name;
  result.solver = run.solver;
  result.dim = run.dim;
  result.relativeError = std::abs(result.measured / result.reference - 1.0);
  run.report(1.0);
  return result;
}

double firstModeOmega(double width, double depth, double g) {
  const double k = kPi / width;
  return std::sqrt(g * k * std::tanh(k * depth));
}

namespace experiments {

void advance(Simulation& sim, double t, const Run& run) {
  while (!sim.failed() && sim.time() < t - 1e-12) {  // Simulation::advanceTo's loop
    sim.step(t);
    run.watch(sim);
  }
  if (sim.failed()) throw ExperimentFailure(sim.failureMessage());
}

std::pair<double, double> fitLine(const std::vector<double>& x, const std::vector<double>& y) {
  const double n = static_cast<double>(x.size());
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) sx += x[i], sy += y[i], sxx += x[i] * x[i], sxy += x[i] * y[i];
  const double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
  return {slope, (sy - slope * sx) / n};
}

bool setParamIfPresent(Simulation& sim, const std::string& key, double value) {
  ParamRef params = sim.solverParams();
  const ParamInfo* info = params.table().find(key);
  if (!info) return false;
  params.setClamped(*info, value);
  sim.solverParamsEdited();
  return true;
}

}  // namespace experiments

}  // namespace sloshlab
