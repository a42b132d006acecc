// The block cursor's hand-out (sim/src/block_cursor.h): every block exactly once, each
// thread on its own share while the threads keep pace, and a thread that stalls has
// its share taken by the others.
#include "sph/block_cursor.h"

#include <gtest/gtest.h>

#include <omp.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace sloshlab {
namespace {

// Which thread took each block, over `passes` passes with the cursor reset in between.
std::vector<std::vector<int>> takers(BlockCursor& cursor, int blocks, int threads, int passes, int stalledThread) {
  std::vector<std::vector<int>> taken(passes, std::vector<int>(blocks, -1));
  std::vector<std::atomic<int>> visits(blocks);
  for (int pass = 0; pass < passes; ++pass) {
    for (auto& v : visits) v.store(0);
#pragma omp parallel num_threads(threads)
    {
      // The stalled thread starts late, as one whose core runs another program.
      if (omp_get_thread_num() == stalledThread) std::this_thread::sleep_for(std::chrono::milliseconds(50));
      BlockCursor::Claims claims(cursor, blocks);
      for (int b; (b = claims.next()) >= 0;) {
        ++visits[b];
        taken[pass][b] = omp_get_thread_num();
        std::this_thread::sleep_for(std::chrono::microseconds(200));
      }
    }
    cursor.reset();
    for (int b = 0; b < blocks; ++b) EXPECT_EQ(visits[b].load(), 1) << "block " << b << " pass " << pass;
  }
  return taken;
}

TEST(BlockCursor, EveryBlockOnceForAnyThreadCount) {
  BlockCursor cursor;
  for (int threads : {1, 2, 3, 5})
    for (int blocks : {1, 2, 7, 12, 64}) takers(cursor, blocks, threads, 3, -1);
}

TEST(BlockCursor, ThreadsKeepingPaceKeepTheirOwnShare) {
  // Two threads and 12 blocks of 0.2 ms: thread 0 owns blocks 0-5, thread 1 blocks 6-11,
  // and each claims its own share first. Dynamic scheduling would alternate them
  // (0, 1, 0, 1, ...). A thread descheduled for a moment (ctest runs tests side by side)
  // loses blocks to the other, so the test asks for one undisturbed pass in six and for
  // most blocks on their owner overall.
  BlockCursor cursor;
  const auto taken = takers(cursor, 12, 2, 6, -1);
  int own = 0, total = 0, wholePasses = 0;
  for (const auto& pass : taken) {
    int ownInPass = 0;
    for (int b = 0; b < 12; ++b) ownInPass += pass[b] == (b < 6 ? 0 : 1);
    own += ownInPass, total += 12, wholePasses += ownInPass == 12;
  }
  EXPECT_GE(wholePasses, 1);
  EXPECT_GE(own, total / 2) << own << " of " << total << " blocks on their owner";
}

TEST(BlockCursor, AStalledThreadsShareGoesToTheOthers) {
  // Thread 1 starts 50 ms late; the 12 blocks take 2.4 ms, so thread 0 does them all.
  BlockCursor cursor;
  const auto taken = takers(cursor, 12, 2, 2, 1);
  for (const auto& pass : taken)
    for (int b = 0; b < 12; ++b) EXPECT_EQ(pass[b], 0) << "block " << b;
}

TEST(BlockCursor, ACopyStartsUnclaimed) {
  BlockCursor cursor;
#pragma omp parallel num_threads(1)
  {
    BlockCursor::Claims claims(cursor, 4);
    while (claims.next() >= 0) {
    }
  }
  BlockCursor copy(cursor);
  int visited = 0;
#pragma omp parallel num_threads(1)
  {
    BlockCursor::Claims claims(copy, 4);
    while (claims.next() >= 0) ++visited;
  }
  EXPECT_EQ(visited, 4);
}

}  // namespace
}  // namespace sloshlab
