// A sum over a per-particle array that does not depend on the thread count.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

namespace sloshlab {

// Sums a per-particle array in a fixed order, the same for any thread count (OpenMP's
// reduction order depends on the threads, and stopping criteria must not): chunks of
// kChunk values are summed in parallel, then the chunk sums in chunk order.
inline double orderedSum(std::span<const double> values) {
  constexpr std::size_t kChunk = 4096;
  const std::int64_t chunks = static_cast<std::int64_t>((values.size() + kChunk - 1) / kChunk);
  if (chunks <= 1) {
    double sum = 0.0;
    for (double v : values) sum += v;
    return sum;
  }
  std::vector<double> partial(chunks);
#pragma omp parallel for schedule(static)
  for (std::int64_t c = 0; c < chunks; ++c) {
    double sum = 0.0;
    const std::size_t end = std::min(values.size(), static_cast<std::size_t>(c + 1) * kChunk);
    for (std::size_t k = static_cast<std::size_t>(c) * kChunk; k < end; ++k) sum += values[k];
    partial[c] = sum;
  }
  double sum = 0.0;
  for (double p : partial) sum += p;
  return sum;
}

}  // namespace sloshlab
