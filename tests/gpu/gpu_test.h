// What the GPU path's test files share (tests/gpu/): the skip where no OpenGL 4.3 context
// can be made, and the GPU solvers by name for parameterised tests.
#pragma once

#include "sloshlab/gpu.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

// Skips the test with the one-line reason where the GPU path is not available.
#define REQUIRE_GPU()                                                \
  do {                                                               \
    const std::string reason = ::sloshlab::gpu::unavailableReason(); \
    if (!reason.empty()) GTEST_SKIP() << reason;                     \
  } while (0)

namespace sloshlab::gpu::test_names {

inline const auto kGpuSolvers = ::testing::Values("gpu-pbf", "gpu-dfsph");
// "gpu-pbf" -> "gpu_pbf", for the tests' names.
inline std::string solverTestName(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

}  // namespace sloshlab::gpu::test_names
