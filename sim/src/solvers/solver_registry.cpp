#include "sloshlab/solver_registry.h"

#include "solvers/collisions.h"
#include "solvers/dfsph.h"
#include "solvers/hybrid.h"
#include "solvers/pbf.h"
#include "solvers/toy_sph.h"
#include "solvers/wcsph.h"

#include <stdexcept>

namespace sloshlab {

namespace {

constexpr SolverInfo kSolvers[] = {
    {"collisions", "Hard spheres", "elastic particles with oblique collisions: a gas, not a fluid"},
    {"toy", "Toy SPH (demo)", "the drag-the-bottle demo's SPH, faithful to its formulas"},
    {"wcsph", "WCSPH", "weakly compressible SPH: cubic spline, Tait equation of state"},
    {"dfsph", "DFSPH", "divergence-free SPH: incompressible at large time steps"},
    {"pbf", "PBF", "position-based fluids: density constraints on positions, a fixed cost per frame"},
    {"pic", "PIC", "particle-in-cell on a MAC grid with a pressure solve: stable, very viscous"},
    {"flip", "FLIP", "fluid-implicit-particle on a MAC grid, blended with PIC by alpha: lively"},
    {"apic", "APIC", "affine particle-in-cell on a MAC grid: keeps rotation, little noise"},
};

std::vector<SolverInfo>& allInfos() {
  static std::vector<SolverInfo> infos(std::begin(kSolvers), std::end(kSolvers));
  return infos;
}

std::vector<ExternalSolver>& externals() {
  static std::vector<ExternalSolver> list;
  return list;
}

template <int D>
std::unique_ptr<Solver<D>> construct(const std::string& name) {
  for (const ExternalSolver& e : externals()) {
    if (name != e.info.name) continue;
    if constexpr (D == 2) return e.make2();
    else return e.make3();
  }
  if (name == "collisions") return std::make_unique<CollisionSolver<D>>();
  if (name == "toy") return std::make_unique<ToySphSolver<D>>();
  if (name == "wcsph") return std::make_unique<WcsphSolver<D>>();
  if (name == "dfsph") return std::make_unique<DfsphSolver<D>>();
  if (name == "pbf") return std::make_unique<PbfSolver<D>>();
  if (name == "pic") return std::make_unique<HybridSolver<D>>(Transfer::Pic);
  if (name == "flip") return std::make_unique<HybridSolver<D>>(Transfer::Flip);
  if (name == "apic") return std::make_unique<HybridSolver<D>>(Transfer::Apic);
  return nullptr;
}

}  // namespace

std::span<const SolverInfo> solverInfos() { return allInfos(); }

void registerSolver(const ExternalSolver& solver) {
  if (findSolverInfo(solver.info.name)) return;
  externals().push_back(solver);
  allInfos().push_back(solver.info);
}

std::string sceneKeyOf(const std::string& solver) {
  const SolverInfo* info = findSolverInfo(solver);
  return info && info->twin ? info->twin : solver;
}

std::string solverOnDevice(const std::string& solver, const std::string& device) {
  if (device == "cpu") return solver;
  if (device != "gpu") throw std::runtime_error("unknown device '" + device + "' (known: cpu, gpu)");
  std::string twins;
  for (const SolverInfo& info : allInfos()) {
    if (!info.twin) continue;
    if (solver == info.twin || solver == info.name) return info.name;
    twins += (twins.empty() ? "" : ", ") + std::string(info.twin);
  }
  if (twins.empty()) throw std::runtime_error("this build has no GPU solvers (the GPU path is built with the window)");
  throw std::runtime_error("solver '" + solver + "' has no GPU version (on the GPU: " + twins + ")");
}

const SolverInfo* findSolverInfo(const std::string& name) {
  for (const SolverInfo& info : allInfos())
    if (name == info.name) return &info;
  return nullptr;
}

std::string solverNameList() {
  std::string out;
  for (const SolverInfo& info : allInfos()) out += (out.empty() ? "" : ", ") + std::string(info.name);
  return out;
}

template <int D>
std::unique_ptr<Solver<D>> makeSolver(const std::string& name) {
  auto solver = construct<D>(name);
  if (!solver) throw std::runtime_error("unknown solver '" + name + "' (known: " + solverNameList() + ")");
  return solver;
}

void applyParamText(ParamRef params, const std::map<std::string, std::string>& values) {
  for (const auto& [key, text] : values) params.setFromText(key, text);
}

// A twin shares its parameter table: checked there, without starting the twin's device.
void validateSolverParams(const std::string& solver, const std::map<std::string, std::string>& values) {
  applyParamText(makeSolver<2>(sceneKeyOf(solver))->params(), values);
}

template std::unique_ptr<Solver<2>> makeSolver<2>(const std::string&);
template std::unique_ptr<Solver<3>> makeSolver<3>(const std::string&);

}  // namespace sloshlab
