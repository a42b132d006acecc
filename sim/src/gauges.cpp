// Wave gauges (sloshlab/gauges.h), docs/physics.md (11.9).
#include "sloshlab/gauges.h"

#include <algorithm>
#include <cmath>

namespace sloshlab {

WaveGauges WaveGauges::atWallsAndCentre(double width, double spacing) {
  return WaveGauges({spacing, 0.5 * width, width - spacing});
}

std::vector<double> WaveGauges::heights(const Simulation& sim) {
  sim.containerParticles(m_positions, m_velocities);
  const double s = sim.spacing();
  const double midDepth = 0.5 * sim.container().size.z;
  std::vector<double> out;
  out.reserve(m_x.size());
  for (std::size_t g = 0; g < m_x.size(); ++g) {
    const double gx = m_x[g], gz = g < m_z.size() ? m_z[g] : midDepth;
    // The centres within one spacing of the gauge's vertical line (11.9).
    m_column.clear();
    for (const Vec3& p : m_positions) {
      if (std::abs(p.x - gx) >= s) continue;
      if (sim.dim() == 3 && std::abs(p.z - gz) >= s) continue;
      m_column.push_back(p.y);
    }
    std::sort(m_column.begin(), m_column.end());
    // Up from the floor while the gaps stay below two spacings: a drop above a gap is spray.
    double top = -1.0;
    for (const double y : m_column) {
      if (y - (top < 0.0 ? 0.0 : top) > 2.0 * s) break;
      top = y;
    }
    out.push_back(top < 0.0 ? 0.0 : top + 0.5 * s);
  }
  return out;
}

}  // namespace sloshlab
