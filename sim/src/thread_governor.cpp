#include "thread_governor.h"

#include <omp.h>

#include <algorithm>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <utility>

namespace sloshlab {

namespace {
constexpr double kFirstProbeMs = 500.0;   // wall time stepped between trials, at first
constexpr double kLongestProbeMs = 8000.0;
constexpr double kKeepFactor = 0.85;      // a trial is kept when its mean is this much faster
constexpr double kWindowMs = 300.0;       // the current count's cost: the mean over this much wall time
constexpr double kTrialMs = 100.0;        // a trial runs at least this long
constexpr std::size_t kMinSteps = 3;
constexpr int kTrialSteps = 3;
constexpr double kQuietBarrierS = 50e-6;  // an idle 2-core VM: 1-5 us per barrier

// Times a few empty barriers on `threads` threads: on a machine where another process
// holds a core, each waits for the descheduled thread, milliseconds instead of
// microseconds.
bool barriersLookQuiet(int threads) {
  constexpr int kBarriers = 4;
  double seconds = 0.0;
#pragma omp parallel num_threads(threads)
  {
#pragma omp barrier
    const double start = omp_get_wtime();
    for (int k = 0; k < kBarriers; ++k) {
#pragma omp barrier
    }
#pragma omp master
    seconds = omp_get_wtime() - start;
  }
  return seconds / kBarriers < kQuietBarrierS;
}
}  // namespace

ThreadGovernor::ThreadGovernor(int maxThreads, std::function<bool(int)> barriersQuiet)
    : m_barriersQuiet(std::move(barriersQuiet)) {
  configure(maxThreads);
}

void ThreadGovernor::configure(int maxThreads) {
  m_max = std::max(1, maxThreads);
  m_current = m_max;
  const char* env = std::getenv("SLOSHLAB_ADAPTIVE_THREADS");
  m_adaptive = !(env && std::strcmp(env, "0") == 0);
  m_log = m_adaptive && env && std::strcmp(env, "log") == 0;
  // The first trial comes after kMinSteps steps; a machine that is busy already starts
  // on one thread.
  m_probeIntervalMs = kFirstProbeMs;
  m_sinceProbeMs = m_probeIntervalMs;
  if (m_adaptive && m_max > 1 && !quiet(m_max)) m_current = 1;
  // The full count first, then half, then one: a quick look covers a many-core machine too.
  for (int n : {m_max, std::max(1, m_max / 2), 1})
    if (std::find(m_candidates.begin(), m_candidates.begin() + m_candidateCount, n) ==
        m_candidates.begin() + m_candidateCount)
      m_candidates[static_cast<std::size_t>(m_candidateCount++)] = n;
}

void ThreadGovernor::beginStep() {
  if (m_max == 0) configure(omp_get_max_threads());
  m_used = m_trial ? m_trial : m_current;
  omp_set_num_threads(m_used);
}

void ThreadGovernor::abandonStep() {
  omp_set_num_threads(m_max);
}

void ThreadGovernor::endStep(double stepMs) {
  omp_set_num_threads(m_max);
  if (!m_adaptive || m_candidateCount < 2) return;
  m_sinceProbeMs += stepMs;
  const double base = m_recentMs / static_cast<double>(std::max<std::size_t>(1, m_recent.size()));
  if (m_trial) {
    m_trialCost.push_back(stepMs);
    double trialMs = 0.0;
    for (double ms : m_trialCost) trialMs += ms;
    const double trialMean = trialMs / static_cast<double>(m_trialCost.size());
    // A stalled trial step ends the trial at once; otherwise it runs long enough to
    // see the stalls a busy machine puts between quick steps.
    // A trial of more threads runs longer: on a busy machine their stalls come in bursts.
    const double trialLength = m_trial > m_current ? 2.0 * kTrialMs : kTrialMs;
    if (stepMs > 4.0 * base || (trialMs >= trialLength && static_cast<int>(m_trialCost.size()) >= kTrialSteps)) {
      if (m_log)
        std::fprintf(stderr, "sloshlab: threads: %d for %zu steps, %.3g ms a step, against %d, %.3g ms: %s\n", m_trial,
                     m_trialCost.size(), trialMean, m_current, base, trialMean < kKeepFactor * base ? "switch" : "stay");
      if (trialMean < kKeepFactor * base) {
        // The interval between trials is kept: on a busy machine, where a lucky trial of
        // more threads is soon undone, switching back and forth every 0.5 s cost the
        // hybrid bottles 2-3x their one-thread time.
        m_current = m_trial;
        m_recent.assign(m_trialCost.begin(), m_trialCost.end());
        m_recentMs = trialMs;
      } else {
        backOff();
      }
      m_trial = 0;
      m_trialCost.clear();
      m_sinceProbeMs = 0.0;
    }
    return;
  }
  m_recent.push_back(stepMs);
  m_recentMs += stepMs;
  while (m_recent.size() > kMinSteps && m_recentMs - m_recent.front() >= kWindowMs) {
    m_recentMs -= m_recent.front();
    m_recent.pop_front();
  }
  // A step far slower than the usual: something else may have started on the machine.
  // Measure the current count afresh from this step on, and try another as soon as
  // that measure is long enough to compare.
  if (m_current > 1 && m_recent.size() > kMinSteps && stepMs > 4.0 * base && m_sinceProbeMs >= kTrialMs) {
    m_recent.assign(1, stepMs);
    m_recentMs = stepMs;
    m_sinceProbeMs = m_probeIntervalMs;
  }
  startTrialIfDue();
}

void ThreadGovernor::startTrialIfDue() {
  if (m_recent.size() < kMinSteps || m_recentMs < kTrialMs || m_sinceProbeMs < m_probeIntervalMs) return;
  m_candidate = (m_candidate + 1) % m_candidateCount;
  if (m_candidates[static_cast<std::size_t>(m_candidate)] == m_current)
    m_candidate = (m_candidate + 1) % m_candidateCount;
  const int next = m_candidates[static_cast<std::size_t>(m_candidate)];
  if (next > m_current && !quiet(next)) {
    if (m_log) std::fprintf(stderr, "sloshlab: threads: barriers on %d threads are slow, staying on %d\n", next, m_current);
    backOff();
    return;
  }
  m_trial = next;
}

bool ThreadGovernor::quiet(int threads) const {
  return m_barriersQuiet ? m_barriersQuiet(threads) : barriersLookQuiet(threads);
}

void ThreadGovernor::backOff() {
  m_probeIntervalMs = std::min(2.0 * m_probeIntervalMs, kLongestProbeMs);
  m_sinceProbeMs = 0.0;
}

}  // namespace sloshlab
