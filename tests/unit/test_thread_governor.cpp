// The thread governor's choices, with made-up step costs (no clock is read): it keeps
// the faster thread count, leaves a count whose steps stall, and comes back when the
// machine is quiet again. sim/src/thread_governor.h.
#include "thread_governor.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <functional>

namespace sloshlab {
namespace {

struct Machine {
  bool busy = false;
  double costOneThread = 2.0;  // ms per step
  double costTwoThreads = 1.0;
  double costTwoThreadsBusy = 40.0;
  double cost(int threads) const {
    if (threads == 1) return costOneThread;
    return busy ? costTwoThreadsBusy : costTwoThreads;
  }
};

// Steps for `ms` of (made-up) wall time; returns the share of that time spent on 2 threads.
double run(ThreadGovernor& g, const Machine& m, double ms) {
  double t = 0.0, onTwo = 0.0;
  while (t < ms) {
    g.beginStep();
    const double cost = m.cost(g.threads());
    if (g.threads() == 2) onTwo += cost;
    g.endStep(cost);
    t += cost;
  }
  return onTwo / t;
}

ThreadGovernor makeGovernor(Machine& m) {
  return ThreadGovernor(2, [&m](int) { return !m.busy; });
}

TEST(ThreadGovernor, KeepsTwoThreadsWhenTheyAreFaster) {
  Machine m;
  ThreadGovernor g = makeGovernor(m);
  // Trials of one thread cost 100 ms every 0.5-8 s: at least 95 % of the time on two.
  EXPECT_GT(run(g, m, 20000.0), 0.95);
  EXPECT_EQ(g.threads(), 2);
}

TEST(ThreadGovernor, TakesOneThreadForASceneTooSmallForTwo) {
  Machine m;
  m.costOneThread = 1.0;
  m.costTwoThreads = 1.3;
  ThreadGovernor g = makeGovernor(m);
  EXPECT_LT(run(g, m, 20000.0), 0.08);  // trials of two threads: 0.2 s every 0.5-8 s
}

TEST(ThreadGovernor, StartsOnOneThreadOnABusyMachine) {
  Machine m;
  m.busy = true;
  ThreadGovernor g = makeGovernor(m);
  EXPECT_EQ(run(g, m, 20000.0), 0.0);  // the barrier timing keeps it off two threads
}

TEST(ThreadGovernor, LeavesStallingThreadsAndComesBackWhenQuiet) {
  Machine m;
  ThreadGovernor g = makeGovernor(m);
  run(g, m, 5000.0);
  ASSERT_EQ(g.threads(), 2);
  m.busy = true;
  // Within 0.3 s of the machine getting busy the steps run on one thread: 0.1 s to
  // measure the stalls, 0.1 s of trial.
  run(g, m, 300.0);
  EXPECT_EQ(g.threads(), 1);
  EXPECT_LT(run(g, m, 20000.0), 0.01);
  m.busy = false;
  // Back on two within the longest probe interval (8 s) and a trial (0.2 s).
  run(g, m, 8500.0);
  EXPECT_EQ(g.threads(), 2);
}

TEST(ThreadGovernor, FixedWhenSwitchedOff) {
  Machine m;
  m.costOneThread = 0.5;
  ::setenv("SLOSHLAB_ADAPTIVE_THREADS", "0", 1);
  ThreadGovernor g = makeGovernor(m);
  ::unsetenv("SLOSHLAB_ADAPTIVE_THREADS");
  EXPECT_EQ(run(g, m, 5000.0), 1.0);
}

}  // namespace
}  // namespace sloshlab
