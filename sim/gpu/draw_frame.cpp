#include "draw_frame.h"

#include "gl_context.h"

#include "sloshlab/gpu.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

namespace sloshlab::gpu {

namespace {
constexpr std::size_t kBins = 1024;    // draw_range.comp's
constexpr unsigned kRangeGroup = 256;  // and its work group
constexpr std::size_t kMaxSamples = 65536;  // particles the range is taken over, at most
}  // namespace

struct DrawTarget::Gl {
  Buffer points, partials, range;
  std::array<std::unique_ptr<ComputeProgram>, 2> frame, ranges;  // by dimension
  GLsync written = nullptr, drawn = nullptr;
  unsigned long generation = contextGeneration();

  ~Gl() {
    if (generation != contextGeneration()) return;  // the context is gone, and they with it
    if (written) glDeleteSync(written);
    if (drawn) glDeleteSync(drawn);
  }
};

DrawTarget::~DrawTarget() {
  if (!m_gl) return;
  deleteOnComputeThread([&] { m_gl.reset(); });
}

unsigned DrawTarget::buffer() const { return m_gl ? m_gl->points.id() : 0u; }

void DrawTarget::waitBeforeDraw() {
  if (m_gl && m_gl->written) glWaitSync(m_gl->written, 0, GL_TIMEOUT_IGNORED);
}

void DrawTarget::markDrawn() {
  if (!m_gl) return;
  if (m_gl->drawn) glDeleteSync(m_gl->drawn);
  m_gl->drawn = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  glFlush();  // a fence another context waits on must reach the GPU
}

void DrawTarget::write(int dim, const Buffer& x, const Buffer& v, std::size_t n, const DrawSource& field,
                       DeviceDrawFrame& out) {
  if (!m_gl) m_gl = std::make_unique<Gl>();
  Gl& g = *m_gl;
  const std::size_t d = dim == 2 ? 0 : 1;
  if (!g.frame[d]) {
    g.frame[d] = std::make_unique<ComputeProgram>(dim, std::initializer_list<const char*>{"draw_frame.comp"});
    g.ranges[d] = std::make_unique<ComputeProgram>(dim, std::initializer_list<const char*>{"draw_range.comp"});
  }
  if (g.drawn) {  // the window's draws from the last frame come first
    glWaitSync(g.drawn, 0, GL_TIMEOUT_IGNORED);
    glDeleteSync(g.drawn);
    g.drawn = nullptr;
  }
  g.points.reserve(16 * std::max<std::size_t>(n, 1));
  const Buffer& source = field.values ? *field.values : v;
  g.frame[d]->use({&x, &v, &source, &g.points})
      .set("count", static_cast<unsigned>(n))
      .set("mode", static_cast<int>(field.mode))
      .set("a", field.a)
      .set("b", field.b)
      .set("c", field.c)
      .set("squared", field.squared ? 1 : 0)
      .set("scale", field.scale)
      .set("k", field.k)
      .run(n);

  const std::size_t stride = (n + kMaxSamples - 1) / kMaxSamples, samples = stride ? n / stride : 0;
  const unsigned groups = static_cast<unsigned>((samples + kRangeGroup - 1) / kRangeGroup);
  g.partials.reserve(8 * std::max<std::size_t>(groups, 1));
  g.range.reserve(16 + 4 * kBins);
  const ComputeProgram& range = *g.ranges[d];
  range.use({&g.points, &g.partials, &g.range})
      .set("count", static_cast<unsigned>(samples))
      .set("stride", static_cast<unsigned>(std::max<std::size_t>(stride, 1)))
      .set("groups", groups);
  range.set("pass", 0).run(samples, kRangeGroup);
  range.set("pass", 1);
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  range.set("pass", 2).run(samples, kRangeGroup);
  glMemoryBarrier(GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
  if (g.written) glDeleteSync(g.written);
  g.written = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  glFlush();

  std::vector<unsigned> read(4 + kBins);
  g.range.download(read.data(), read.size() * sizeof(unsigned));
  float lo = 0.0f, hi = 0.0f;
  std::memcpy(&lo, &read[0], sizeof lo);
  std::memcpy(&hi, &read[1], sizeof hi);
  out.count = n;
  out.fieldAvailable = field.mode != DrawSource::None;
  out.low = 0.0f, out.high = 1.0f;
  if (out.fieldAvailable) histogramPercentiles(read.data() + 4, kBins, lo, hi, out.low, out.high);
}

bool histogramPercentiles(const unsigned* bins, std::size_t count, float lo, float hi, float& low, float& high) {
  std::size_t m = 0;
  for (std::size_t k = 0; k < count; ++k) m += bins[k];
  if (m == 0 || count == 0) return false;
  const std::size_t lowRank = m / 100, highRank = m - 1 - m / 100;
  const float width = (hi - lo) / static_cast<float>(count);
  std::size_t seen = 0, lowBin = count - 1, highBin = count - 1;
  bool lowFound = false;
  for (std::size_t k = 0; k < count; ++k) {
    seen += bins[k];
    if (!lowFound && seen > lowRank) lowBin = k, lowFound = true;
    if (seen > highRank) {
      highBin = k;
      break;
    }
  }
  low = lo + width * static_cast<float>(lowBin);
  high = std::min(hi, lo + width * static_cast<float>(highBin + 1));
  return true;
}

bool drawSolverFrame(int dim, FieldKind kind, DeviceDrawTarget& target, const SolverFields& fields,
                     DeviceDrawFrame& out) {
  auto* t = dynamic_cast<DrawTarget*>(&target);
  if (!t) return false;
  onComputeThread([&] {
    DrawSource f;
    if (kind == FieldKind::Speed) f.mode = DrawSource::Speed;
    else if (kind == FieldKind::Density) f = fields.density;
    else if (kind == FieldKind::Pressure) f = fields.pressure;
    else if (kind == FieldKind::Vorticity && fields.vorticity) f = {DrawSource::Vorticity, fields.vorticity()};
    t->write(dim, *fields.x, *fields.v, fields.n, f, out);
  });
  return true;
}

std::shared_ptr<DeviceDrawTarget> makeDrawTarget() { return std::make_shared<DrawTarget>(); }

}  // namespace sloshlab::gpu
