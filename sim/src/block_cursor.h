// Hands the blocks of a pass to the threads of a parallel region so that each thread
// gets the same blocks every pass, and a thread that falls behind gives its remaining
// blocks to the others.
//
// With `schedule(dynamic)` a block goes to whichever thread comes free first, so from
// one pass to the next its particles and pairs move between the cores' caches. On the
// 2-core development VM that cost a third of a DFSPH step in the hours when the VM's
// two cores sit far apart (the 3D bottle: 1.24-1.48 us a particle-step with dynamic
// blocks, 0.90-1.00 with static ones). A static split keeps the blocks in place but
// waits for a thread that shares its core with another program (issue 13, part 3).
// Here thread t owns the contiguous share t of the blocks and claims them in order;
// when its share is done it claims the first unclaimed blocks of the other shares.
#pragma once

#include <omp.h>

#include <algorithm>
#include <array>
#include <atomic>

namespace sloshlab {

class BlockCursor {
 public:
  static constexpr int kMaxThreads = 64;  // more threads share the last counters' ranges

  BlockCursor() = default;
  // A copy starts unclaimed (the counters only live through one pass).
  BlockCursor(const BlockCursor&) {}
  BlockCursor& operator=(const BlockCursor&) { return *this; }

  // Inside a parallel region, by every thread: calls visit(block) for each of `count`
  // blocks exactly once over all threads. No barrier: follow it with one before using
  // the results, and call reset() after the region, before the next claim().
  template <class Visit>
  void claim(int count, Visit&& visit) {
    const int threads = std::min(omp_get_num_threads(), kMaxThreads);
    const int self = std::min(omp_get_thread_num(), threads - 1);
    for (int k = 0; k < threads; ++k) {
      const int share = (self + k) % threads;
      const int begin = count * share / threads, end = count * (share + 1) / threads;
      for (;;) {
        const int block = begin + m_claimed[share].value.fetch_add(1, std::memory_order_relaxed);
        if (block >= end) break;
        visit(block);
      }
    }
  }

  void reset() {
    for (auto& c : m_claimed) c.value.store(0, std::memory_order_relaxed);
  }

 private:
  struct alignas(64) Counter {
    std::atomic<int> value{0};
  };
  std::array<Counter, kMaxThreads> m_claimed;
};

}  // namespace sloshlab
