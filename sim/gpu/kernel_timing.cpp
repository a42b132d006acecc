#include "sloshlab/gpu_kernel_timing.h"

#include <glad/gl.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>

namespace sloshlab::gpu {

namespace {

struct Pending {
  std::string name;
  std::size_t bytes;
  GLuint begin, end;
};

std::atomic<bool> g_on{false};
std::atomic<long long> g_bufferBytes{0};
// The queries of the context's thread (one GPU context runs the solvers).
thread_local std::vector<Pending> t_pending;
thread_local std::vector<GLuint> t_free;
thread_local GLuint t_open = 0;
std::mutex g_mutex;
std::map<std::string, KernelTime> g_totals;

GLuint query() {
  if (t_free.empty()) {
    t_free.resize(64);
    glGenQueries(64, t_free.data());
  }
  const GLuint q = t_free.back();
  t_free.pop_back();
  return q;
}

}  // namespace

void setKernelTiming(bool on) { g_on = on; }
bool kernelTimingOn() { return g_on; }

void beginKernel() {
  if (!g_on) return;
  t_open = query();
  glQueryCounter(t_open, GL_TIMESTAMP);
}

void endKernel(const std::string& name, std::size_t bytes) {
  if (!g_on || !t_open) return;
  const GLuint end = query();
  glQueryCounter(end, GL_TIMESTAMP);
  t_pending.push_back({name, bytes, t_open, end});
  t_open = 0;
  if (t_pending.size() > 4096) collectKernelTimes();  // waits for the oldest: profiling only
}

void collectKernelTimes() {
  if (t_pending.empty()) return;
  std::lock_guard<std::mutex> lock(g_mutex);
  for (const Pending& p : t_pending) {
    GLuint64 a = 0, b = 0;
    glGetQueryObjectui64v(p.begin, GL_QUERY_RESULT, &a);
    glGetQueryObjectui64v(p.end, GL_QUERY_RESULT, &b);
    KernelTime& t = g_totals[p.name];
    t.name = p.name;
    t.ms += b > a ? 1e-6 * static_cast<double>(b - a) : 0.0;
    t.calls += 1;
    t.bytes += static_cast<double>(p.bytes);
    t_free.push_back(p.begin);
    t_free.push_back(p.end);
  }
  t_pending.clear();
}

std::vector<KernelTime> takeKernelTimes() {
  std::lock_guard<std::mutex> lock(g_mutex);
  std::vector<KernelTime> out;
  for (const auto& entry : g_totals) out.push_back(entry.second);
  g_totals.clear();
  std::sort(out.begin(), out.end(), [](const KernelTime& a, const KernelTime& b) { return a.ms > b.ms; });
  return out;
}

std::size_t deviceBufferBytes() { return static_cast<std::size_t>(std::max(0LL, g_bufferBytes.load())); }
void countBufferBytes(long long delta) { g_bufferBytes += delta; }

}  // namespace sloshlab::gpu
