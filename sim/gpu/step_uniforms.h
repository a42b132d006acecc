// The uniform block `Step` of shaders/gpu/common.glsl, field for field in std140 (vec4s
// first, then scalars in fours), and its buffer.
#pragma once

#include <glad/gl.h>

#include <cstdint>

namespace sloshlab::gpu {

struct StepUniforms {
  float box[4]{};
  float gravityMinusA[4]{};
  float frameCentre[4]{};
  std::int32_t gridDims[4]{};
  std::int32_t innerCount[4]{};
  float innerStep[4]{};
  float frameOmega[4]{};  // R^T omega, the container's turn rate in its axes
  float frameAlpha[4]{};  // R^T alpha
  float bodyLo[4]{};      // the floating bodies' samples' bounds, grown by h (body_samples.h)
  float bodyHi[4]{};
  float opening[4]{};     // the outlet's hole in a wall: its centre, and its radius in w
  float cellSize = 0, h = 0, sigma = 0, volume = 0;
  float wallVolume = 0, spacing = 0, margin = 0, dt = 0;
  float damping = 0, relax = 0;
  float eps = 0, tensile = 0, invWdq = 0, warm = 0;
  float share = 1, xsph = 0, vorticity = 0;
  std::uint32_t n = 0;
  std::int32_t layers = 0;
  std::uint32_t listCapacity = 0;  // neighbour-list entries per particle (cell_sort.h)
  std::uint32_t bodySamples = 0;   // the floating bodies' samples this step (body_samples.h)
  std::uint32_t bodyBuckets = 0;   // and the buckets of their hashed cells, a power of two
  std::uint32_t firstBodySample = 0;  // the box's samples come first: their count
  std::uint32_t obstacles = 0;        // obstacles fixed to the container (common.glsl, Obstacles)
  std::int32_t openingWall = -1;      // the hole's wall, 2 axis + side; -1: none (physics.md (14.3))
};
static_assert(sizeof(StepUniforms) == 11 * 16 + 25 * 4, "std140 layout of Step");

// The block's buffer at binding 0; upload() after changing the values.
class StepBlock {
 public:
  StepUniforms values;
  ~StepBlock();
  void upload();
  // Binds the block as the Step uniforms again (another solver's may have been bound
  // since: side by side, two GPU solvers share the context).
  void bind() const;

 private:
  GLuint m_id = 0;
  unsigned long m_generation = 0;
};

}  // namespace sloshlab::gpu
