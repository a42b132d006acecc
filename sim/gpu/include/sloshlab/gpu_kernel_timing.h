// Per-kernel device times for the benchmark's profile of the GPU path (off unless asked
// for): while on, each compute dispatch and buffer copy is bracketed by two GL timestamp
// queries, named after its shader file, with the bytes of the buffers bound to it (each
// array streamed once: a lower bound on its memory traffic).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace sloshlab::gpu {

struct KernelTime {
  std::string name;
  double ms = 0.0;     // device time, summed over calls
  long calls = 0;
  double bytes = 0.0;  // bound buffers' bytes, summed over calls
};

void setKernelTiming(bool on);
bool kernelTimingOn();
// Brackets one dispatch; call begin before it and end after it, on the context's thread.
void beginKernel();
void endKernel(const std::string& name, std::size_t bytes);
// On the context's thread after a read-back (the queries are done): adds the finished
// queries to the totals.
void collectKernelTimes();
// The totals since the last take, largest first; from any thread.
std::vector<KernelTime> takeKernelTimes();

// The storage buffers allocated now, in bytes (every GPU solver's arrays and grids).
std::size_t deviceBufferBytes();
void countBufferBytes(long long delta);

}  // namespace sloshlab::gpu
