// Wave gauges: the free surface's height at fixed points of the container, the record
// sloshing experiments report (docs/physics.md (11.9)).
#pragma once

#include "sloshlab/simulation.h"

#include <vector>

namespace sloshlab {

class WaveGauges {
 public:
  // Gauges at container-frame x (m), in 3D on the tank's middle plane z = size_z / 2.
  explicit WaveGauges(std::vector<double> x) : m_x(std::move(x)) {}
  // In 3D at (x[k], z[k]) instead.
  WaveGauges(std::vector<double> x, std::vector<double> z) : m_x(std::move(x)), m_z(std::move(z)) {}
  // The default gauges of a tank of width `width` for particles `spacing` apart: one
  // spacing from each end wall (where the run-up is largest) and one in the middle.
  static WaveGauges atWallsAndCentre(double width, double spacing);

  const std::vector<double>& positions() const { return m_x; }
  // The height h_g of the liquid column under each gauge above the floor (m), (11.9).
  std::vector<double> heights(const Simulation& sim);

 private:
  std::vector<double> m_x, m_z;  // m_z empty: the mid-plane
  std::vector<Vec3> m_positions, m_velocities;  // scratch
  std::vector<double> m_column;
};

}  // namespace sloshlab
