// The window draws a GPU solver's particles from GPU memory (issue 25; docs/gpu.md,
// "Drawing from GPU memory"). A DrawTarget is a buffer of the compute context; when that
// context shares its objects with the window's (sloshlab/gpu.h, shareWithWindow), the
// window binds the buffer as its particles' vertex array. The solver's own arrays are
// reordered every sub-step, so each frame is copied out (draw_frame.comp) with its
// colour field's value; the colour range comes from a histogram (draw_range.comp) of at
// most 65,536 particles, evenly strided: a read-back of about 4 KB, never the particles.
//
// Two fences keep the two contexts apart: the window waits (on the GPU) for the frame
// written, and the next write waits for the window's draws that read the last one. A
// target is written only while the window does not hold it (the snapshot's triple
// buffer, app/snapshot.h, hands it over).
#pragma once

#include "compute.h"

#include "sloshlab/solver.h"

#include <functional>
#include <memory>

namespace sloshlab::gpu {

// Where a frame's colour value comes from (draw_frame.comp's modes).
struct DrawSource {
  enum Mode { None = 0, Speed = 1, Product = 2, Vorticity = 3 };
  Mode mode = None;
  const Buffer* values = nullptr;  // the vec4 array read by Product and Vorticity
  int a = 0, b = 0, c = 0;         // Product: scale (s[a] + k s[b]) s[c]^2 (or ^0)
  bool squared = false;
  float scale = 1.0f, k = 0.0f;
};

class DrawTarget final : public DeviceDrawTarget {
 public:
  DrawTarget() = default;  // made on the compute thread (makeDrawTarget)
  ~DrawTarget() override;  // hands its GL objects to the compute thread to delete

  void waitBeforeDraw() override;
  void markDrawn() override;
  unsigned buffer() const override;

  // On the compute thread: n particles (x: positions, v: velocities, vec4 each, in
  // device order) and their field into the buffer; the range read back into `out`.
  void write(int dim, const Buffer& x, const Buffer& v, std::size_t n, const DrawSource& field,
             DeviceDrawFrame& out);

 private:
  struct Gl;
  std::unique_ptr<Gl> m_gl;
};

// Where a GPU SPH solver's particles and fields are, for Solver::drawFrame: its arrays,
// how density and pressure are read (from its aux array, as its field() reads them), and
// how the vorticity is computed (into a buffer it returns; run on the compute thread).
struct SolverFields {
  const Buffer* x = nullptr;
  const Buffer* v = nullptr;
  std::size_t n = 0;
  DrawSource density, pressure;
  std::function<const Buffer*()> vorticity;
};

// Solver::drawFrame of the GPU solvers: the field `kind` and the particles into
// `target` on the compute thread; false for a target that is not this path's.
bool drawSolverFrame(int dim, FieldKind kind, DeviceDrawTarget& target, const SolverFields& fields,
                     DeviceDrawFrame& out);

// The 1st and 99th percentiles from a histogram of `bins` equal bins over [lo, hi]
// (draw_range.comp), as robustRange takes them from the values: low is the lower edge
// of the bin that holds rank m/100, high the upper edge of the one that holds rank
// m - 1 - m/100, of the m values counted. False when none was.
bool histogramPercentiles(const unsigned* bins, std::size_t count, float lo, float hi, float& low, float& high);

}  // namespace sloshlab::gpu
