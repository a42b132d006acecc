// How many OpenMP threads a step gets. A step has tens to hundreds of barriers (a PBF
// step 32 sweeps of several), and every barrier waits for the slowest thread. On a
// machine where something else runs, one of the threads shares its core and each
// barrier can wait a whole time slice: on the 2-core development VM the 1,000-particle
// PBF bottle took 14.5 ms a step on 2 threads beside a busy loop (2.2 ms quiet, 4.4 ms
// on one thread), and 580 ms while a compiler ran. Small scenes are also faster on one
// thread when quiet (bench/results/window.md).
//
// The governor times every step and now and then tries another thread count for a
// few steps, keeping it when it is clearly faster. Before trying more threads it times
// a few empty barriers, so that a busy machine costs a fraction of a millisecond to
// look at, not a 500 ms step. Results do not depend on the thread count (the solvers'
// sums run in a fixed order: tests/physics/test_determinism.cpp), so the choice
// changes only the speed.
#pragma once

#include <array>
#include <deque>
#include <functional>
#include <vector>

namespace sloshlab {

class ThreadGovernor {
 public:
  // The most threads a step may use: omp_get_max_threads() of the thread that takes
  // the first step (the window builds a simulation on one thread and steps it on
  // another). SLOSHLAB_ADAPTIVE_THREADS=0 keeps every step at that count; =log prints
  // each decision on stderr.
  ThreadGovernor() = default;
  // For tests: a fixed maximum and a stand-in for the barrier timing (true: quiet).
  ThreadGovernor(int maxThreads, std::function<bool(int)> barriersQuiet);

  // Around every step: sets the thread count for the step, then restores the
  // caller's, so that nothing outside the step sees the governor's choice.
  void beginStep();
  void endStep(double stepMs);
  void abandonStep();  // a step begun but not taken: restores the caller's count only

  int threads() const { return m_used; }  // the count the last step ran on
  int maxThreads() const { return m_max; }

 private:
  void configure(int maxThreads);
  void startTrialIfDue();
  void backOff();
  bool quiet(int threads) const;

  std::function<bool(int)> m_barriersQuiet;  // empty: time real barriers
  int m_max = 0;  // 0 until the first step
  int m_current = 1;
  int m_used = 1;
  bool m_adaptive = true;
  bool m_log = false;  // SLOSHLAB_ADAPTIVE_THREADS=log: one line on stderr per decision
  int m_trial = 0;                 // the count being tried, 0 when none
  std::deque<double> m_recent;     // the last steps' costs at m_current (ms), over a window of wall time
  double m_recentMs = 0.0;         // their sum
  std::vector<double> m_trialCost; // step costs of the running trial (ms)
  double m_sinceProbeMs = 0.0;     // wall time stepped since the last trial
  double m_probeIntervalMs = 0.0;  // wall time stepped between trials: 0.5 s at first, up to 8 s
  int m_candidate = 0;             // which alternative is tried next
  std::array<int, 3> m_candidates{};
  int m_candidateCount = 0;
};

}  // namespace sloshlab
