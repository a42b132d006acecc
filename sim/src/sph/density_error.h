// The density error an SPH solver reports (SolverReport, physics.md (10.7)): over the
// particles, the largest compression e_i = max(rho_i / rho0 - 1, 0) and its mean over
// all particles (an expanded particle counts 0). WCSPH and PBF measure rho_i; DFSPH
// reports the positive part of its density solve's last predicted error (6.6).
#pragma once

#include "ordered_sum.h"
#include "sloshlab/diagnostics.h"

#include <algorithm>
#include <cstdint>
#include <span>

namespace sloshlab {

struct DensityError {
  double max = 0.0;
  double mean = 0.0;
};

// The largest and the mean of per-particle compressions (each >= 0). The mean is summed
// in fixed chunks (ordered_sum.h), so it is the same for any thread count, as the
// solvers' stopping tests and the stats must be.
inline DensityError compressionError(std::span<const double> compression) {
  const std::int64_t n = static_cast<std::int64_t>(compression.size());
  double worst = 0.0;
#pragma omp parallel for schedule(static) reduction(max : worst)
  for (std::int64_t i = 0; i < n; ++i) worst = std::max(worst, compression[i]);
  return {worst, n > 0 ? orderedSum(compression) / static_cast<double>(n) : 0.0};
}

inline void reportDensityError(const DensityError& error, SolverReport& report) {
  report.densityErrorMax = error.max;
  report.densityErrorMean = error.mean;
}

}  // namespace sloshlab
