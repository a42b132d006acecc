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
};

std::span<const SolverInfo> solverInfos();
const SolverInfo* findSolverInfo(const std::string& name);
std::string solverNameList();

// Throws std::runtime_error for an unknown name.
template <int D>
std::unique_ptr<Solver<D>> makeSolver(const std::string& name);

// Applies key -> text overrides to a solver's parameters (throws ParamError).
void applyParamText(ParamRef params, const std::map<std::string, std::string>& values);
// Checks overrides against a solver's table without keeping a solver.
void validateSolverParams(const std::string& solver, const std::map<std::string, std::string>& values);

}  // namespace sloshlab
