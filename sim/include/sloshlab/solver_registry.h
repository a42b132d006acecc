// Solvers by name: the single list the CLI, scenes and UI choose from.
#pragma once

#include "sloshlab/solver.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace sloshlab {

struct SolverInfo {
  const char* name;         // CLI / scene name
  const char* label;        // UI label
  const char* description;  // one line
  // The solver whose scene parameters, spacing and parameter table this one shares (the
  // GPU path's twins: gpu-pbf runs a scene's "pbf" settings); nullptr: its own.
  const char* twin = nullptr;
};

// The built-in solvers, then those registered from outside the engine (registerSolver).
// Registration happens at start-up, before anyone keeps this span.
std::span<const SolverInfo> solverInfos();
const SolverInfo* findSolverInfo(const std::string& name);
std::string solverNameList();

// Throws std::runtime_error for an unknown name.
template <int D>
std::unique_ptr<Solver<D>> makeSolver(const std::string& name);

// A solver that lives outside the engine library (the GPU path, sim/gpu/, which links GL)
// joins the list by name. Its factories throw a one-line std::runtime_error where it
// cannot run (no OpenGL 4.3, say). Registering a known name again replaces nothing.
struct ExternalSolver {
  SolverInfo info;
  std::unique_ptr<Solver<2>> (*make2)();
  std::unique_ptr<Solver<3>> (*make3)();
};
void registerSolver(const ExternalSolver& solver);

// The solver that runs `solver` on `device` ("cpu" or "gpu"): on the GPU its registered
// twin (pbf -> gpu-pbf). Throws std::runtime_error with one line where there is none.
std::string solverOnDevice(const std::string& solver, const std::string& device);

// The name whose scene parameters and spacing a solver reads: its twin's, or its own.
std::string sceneKeyOf(const std::string& solver);

// Applies key -> text overrides to a solver's parameters (throws ParamError).
void applyParamText(ParamRef params, const std::map<std::string, std::string>& values);
// Checks overrides against a solver's table without keeping a solver.
void validateSolverParams(const std::string& solver, const std::map<std::string, std::string>& values);

}  // namespace sloshlab
