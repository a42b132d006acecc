// Sums over particles that do not depend on the thread count.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

namespace sloshlab {

// Sums `n` items in fixed chunks of `chunk` items: sumRange(begin, end) gives one chunk's
// T (in parallel), and the chunks' results are added with T += T in chunk order, the
// same for any thread count (OpenMP's reduction order depends on the threads, and
// stopping criteria, the energy watchdog and state files must not).
template <class T, class SumRange>
T orderedChunks(std::int64_t n, std::int64_t chunk, SumRange&& sumRange) {
  const std::int64_t chunks = std::max<std::int64_t>(1, (n + chunk - 1) / chunk);
  std::vector<T> partial(static_cast<std::size_t>(chunks));
#pragma omp parallel for schedule(static) if (chunks > 1)
  for (std::int64_t c = 0; c < chunks; ++c)
    partial[static_cast<std::size_t>(c)] = sumRange(c * chunk, std::min(n, (c + 1) * chunk));
  T total{};
  for (const T& p : partial) total += p;
  return total;
}

// The sum of a per-particle array, in chunks of 4096 values.
inline double orderedSum(std::span<const double> values) {
  return orderedChunks<double>(static_cast<std::int64_t>(values.size()), 4096, [&](std::int64_t b, std::int64_t e) {
    double sum = 0.0;
    for (std::int64_t k = b; k < e; ++k) sum += values[static_cast<std::size_t>(k)];
    return sum;
  });
}

}  // namespace sloshlab
