// Hands the blocks of a pass to the threads of a parallel region so that each thread
// gets the same blocks every pass, and a thread that falls behind gives its remaining
// blocks to the others.
//
// With `schedule(dynamic)` a block goes to whichever thread comes free first, so from
// one pass to the next its particles and pairs move between the cores' caches. On the
// 2-core development VM that cost a third of a DFSPH step in the hours when the VM is
// slow at moving data between its cores (the 3D bottle: 1.24-1.48 us a particle-step
// with dynamic blocks, 0.90-1.00 with static ones). A static split keeps the blocks in place but
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

  // Inside a parallel region, each thread's claims on `count` blocks: next() returns the
  // thread's next block, or -1 when none is left; over all threads every block comes
  // out exactly once. No barrier: follow the loop with one before using its results,
  // and call reset() after the region, before the next pass. A loop, not a callback,
  // so that the pass's body stays in the caller's function (as a lambda, g++ compiled
  // the pair cache's build 10 % slower on one thread).
  class Claims {
   public:
    Claims(BlockCursor& cursor, int count)
        : m_cursor(cursor),
          m_count(count),
          m_threads(std::min(omp_get_num_threads(), kMaxThreads)),
          m_self(std::min(omp_get_thread_num(), m_threads - 1)) {}
    int next() {
      for (; m_visited < m_threads; ++m_visited) {
        const int share = (m_self + m_visited) % m_threads;
        const int begin = m_count * share / m_threads, end = m_count * (share + 1) / m_threads;
        const int block = begin + m_cursor.m_claimed[share].value.fetch_add(1, std::memory_order_relaxed);
        if (block < end) return block;
      }
      return -1;
    }

   private:
    BlockCursor& m_cursor;
    int m_count, m_threads, m_self;
    int m_visited = 0;  // shares found empty so far (own first, then the next ones)
  };

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
