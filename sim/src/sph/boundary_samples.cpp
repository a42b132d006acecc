#include "sph/boundary_samples.h"

#include "sph/smoothing_kernel.h"

#include <array>
#include <cmath>

namespace sloshlab {

template <int D>
void BoundarySamples<D>::build(const Vec<D>& boxSize, double spacing, double support, double reach,
                               const Solids<D>* solids) {
  m_reach = reach;
  m_box = boxSize;
  const bool obstacles = solids && !solids->empty();
  static const WallOpening<D> none;
  m_obstacles = obstacles;
  const int layers = layersFor(spacing, support);
  // Per-axis coordinates: evenly spaced inside [0, L] (spacing ~ s, matching the box
  // exactly), and `layers` at spacing s beyond each wall.
  std::array<std::vector<double>, D> axis;
  std::array<std::vector<char>, D> outside;
  for (int k = 0; k < D; ++k) {
    const int inner = innerCountFor(boxSize[k], spacing);
    const double step = boxSize[k] / inner;
    for (int l = layers - 1; l >= 0; --l) axis[k].push_back(-(l + 0.5) * spacing), outside[k].push_back(1);
    for (int i = 0; i < inner; ++i) axis[k].push_back((i + 0.5) * step), outside[k].push_back(0);
    for (int l = 0; l < layers; ++l) axis[k].push_back(boxSize[k] + (l + 0.5) * spacing), outside[k].push_back(1);
  }
  std::vector<Vec<D>> samples;
  IVec<D> idx(0);
  while (true) {
    bool out = false;
    Vec<D> p;
    for (int k = 0; k < D; ++k) {
      p[k] = axis[k][idx[k]];
      out = out || outside[k][idx[k]];
    }
    // None across the container's opening (an outlet on a wall, (14.3)): the liquid
    // there meets no wall and leaves.
    const WallOpening<D>& hole = solids ? solids->opening() : none;
    if (out && !(hole.exists() && hole.passed(p, boxSize) && hole.across(p))) samples.push_back(p);
    int k = 0;
    while (k < D && ++idx[k] == static_cast<int>(axis[k].size())) idx[k++] = 0;
    if (k == D) break;
  }

  if (obstacles)  // (15.4): inside the obstacles, no deeper than the support
    for (const Vec<D>& p : solids->samples(spacing, support, boxSize)) samples.push_back(p);
  const Vec<D> margin(layers * spacing + reach);
  m_grid.configure(-margin, boxSize + margin, reach);
  m_grid.build(samples);
  m_x.resize(samples.size());
  for (std::size_t k = 0; k < samples.size(); ++k) m_x[k] = samples[m_grid.order()[k]];

  // Akinci Eq. (4) over the full lattice of the shell.
  const CubicSpline<D> kernel(support);
  double sum = 0.0;
  const int n = layers + 1;
  IVec<D> l(-n);
  while (true) {
    sum += kernel.W(Vec<D>(l) * spacing);
    int k = 0;
    while (k < D && ++l[k] > n) l[k++] = -n;
    if (k == D) break;
  }
  m_volume = 1.0 / sum;
}

template class BoundarySamples<2>;
template class BoundarySamples<3>;

}  // namespace sloshlab
