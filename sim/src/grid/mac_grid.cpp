#include "grid/mac_grid.h"

#include <algorithm>
#include <cmath>

namespace sloshlab {

template <int D>
void MacGrid<D>::configure(const Vec<D>& box, double targetCell) {
  m_cellCount = 1;
  for (int b = 0; b < D; ++b) {
    m_n[b] = std::max(1, static_cast<int>(std::lround(box[b] / targetCell)));
    m_h[b] = box[b] / m_n[b];
    m_invH[b] = 1.0 / m_h[b];
    m_cellCount *= static_cast<std::size_t>(m_n[b]);
  }
  std::size_t stride = 1;
  for (int b = 0; b < D; ++b) {
    m_labelStride[b] = stride;
    stride *= static_cast<std::size_t>(m_n[b] + 2);
  }
  m_labels.assign(stride, CellLabel::Solid);
  for (int a = 0; a < D; ++a) {
    const IVec<D> f = faceNodes(a);
    std::size_t s = 1;
    for (int b = 0; b < D; ++b) {
      m_faceStride[a][b] = s;
      s *= static_cast<std::size_t>(f[b] + 2 * kGhost);
    }
    m_faceCount[a] = s;
  }
}

// Layer k marks the faces it fills with k + 1, so "valid before layer k" is 0 < ok <= k and
// a layer never feeds itself (Jacobi) without copying the mask. Rows along the slowest
// axis go in two passes, even then odd, so no thread reads a row another one writes.
template <int D>
void extrapolateVelocity(const MacGrid<D>& grid, FaceArrays<D>& u, std::array<std::vector<std::uint8_t>, D>& valid,
                         int layers) {
  constexpr int G = MacGrid<D>::kGhost;
  for (int a = 0; a < D; ++a) {
    const auto& stride = grid.faceStride(a);
    IVec<D> lo(0), hi = grid.faceNodes(a);
    lo[a] = 1, hi[a] -= 1;  // wall faces are neither sources nor targets
    double* ua = u[a].data();
    std::uint8_t* ok = valid[a].data();
    const int rows = hi[D - 1] - lo[D - 1];
    const int lines = D == 3 ? hi[1] - lo[1] : 1;
    const std::size_t outer = stride[D - 1];
    // Lines (along x) holding a known face: a line is visited only next to one of them.
    std::vector<std::uint8_t> active(static_cast<std::size_t>(rows) * lines, 0);
    auto lineStart = [&](int r, int l) {
      std::size_t idx = static_cast<std::size_t>(lo[D - 1] + r + G) * outer + static_cast<std::size_t>(lo[0] + G);
      if constexpr (D == 3) idx += static_cast<std::size_t>(lo[1] + l + G) * stride[1];
      return idx;
    };
#pragma omp parallel for schedule(static)
    for (int r = 0; r < rows; ++r)
      for (int l = 0; l < lines; ++l) {
        const std::size_t idx = lineStart(r, l);
        for (int i = 0; i < hi[0] - lo[0]; ++i)
          if (ok[idx + i]) {
            active[static_cast<std::size_t>(r) * lines + l] = 1;
            break;
          }
      }
    auto near = [&](int r, int l) {
      for (int dr = -1; dr <= 1; ++dr)
        for (int dl = (D == 3 ? -1 : 0); dl <= (D == 3 ? 1 : 0); ++dl) {
          const int rr = r + dr, ll = l + dl;
          if (rr >= 0 && rr < rows && ll >= 0 && ll < lines && active[static_cast<std::size_t>(rr) * lines + ll])
            return true;
        }
      return false;
    };
    for (int layer = 1; layer <= layers; ++layer) {
      const std::uint8_t known = static_cast<std::uint8_t>(layer), mark = static_cast<std::uint8_t>(layer + 1);
      int grew = 0;
      for (int parity = 0; parity < 2; ++parity) {
#pragma omp parallel for schedule(static) reduction(+ : grew)
        for (int r = parity; r < rows; r += 2) {
          for (int l = 0; l < lines; ++l) {
            if (!near(r, l)) continue;
            std::size_t idx = lineStart(r, l);
            bool filled = false;
            for (int i = lo[0]; i < hi[0]; ++i, ++idx) {
              if (ok[idx]) continue;
              double sum = 0.0;
              int count = 0;
              for (int b = 0; b < D; ++b) {
                const std::size_t left = idx - stride[b], right = idx + stride[b];
                if (ok[left] - 1u < known) sum += ua[left], ++count;  // 0 < ok <= known
                if (ok[right] - 1u < known) sum += ua[right], ++count;
              }
              if (count > 0) {
                ua[idx] = sum / count;
                ok[idx] = mark;
                ++grew;
                filled = true;
              }
            }
            // A flag set during a layer only makes a neighbour visited early: harmless,
            // as faces filled by this layer are not sources before the next one.
            if (filled) active[static_cast<std::size_t>(r) * lines + l] = 1;
          }
        }
      }
      if (grew == 0) break;
    }
    parallelForNodes<D>(lo, hi, [&](const IVec<D>& node) {
      const std::size_t idx = grid.faceIndex(a, node);
      if (!ok[idx]) ua[idx] = 0.0;
    });
  }
}

template <int D>
void fillGhostFaces(const MacGrid<D>& grid, FaceArrays<D>& u) {
  constexpr int G = MacGrid<D>::kGhost;
  for (int a = 0; a < D; ++a) {
    const IVec<D> nodes = grid.faceNodes(a);
    const auto& stride = grid.faceStride(a);
    std::vector<double>& ua = u[a];
    for (int b = 0; b < D; ++b) {
      // Every line along axis b, over the full padded range of the other axes.
      IVec<D> lo(-G), hi = nodes + IVec<D>(G);
      lo[b] = 0, hi[b] = 1;
      const bool normal = a == b;
      const int last = nodes[b] - 1;  // last interior node index along b
      parallelForNodes<D>(lo, hi, [&](const IVec<D>& node) {
        const std::ptrdiff_t line = static_cast<std::ptrdiff_t>(grid.faceIndex(a, node));  // node[b] = 0
        const std::ptrdiff_t s = static_cast<std::ptrdiff_t>(stride[b]);
        auto at = [&](int i) -> double& { return ua[static_cast<std::size_t>(line + i * s)]; };
        for (int g = 1; g <= G; ++g) {
          if (normal) {  // walls at nodes 0 and last: mirror with a sign change
            at(-g) = -at(std::min(g, last));
            at(last + g) = -at(std::max(last - g, 0));
          } else {       // walls half a node beyond 0 and last
            at(-g) = at(std::min(g - 1, last));
            at(last + g) = at(std::max(last + 1 - g, 0));
          }
        }
      });
    }
  }
}

template <int D>
Vec<D> interpolateVelocity(const MacGrid<D>& grid, const FaceArrays<D>& u, const Vec<D>& x) {
  Vec<D> out;
  const Vec<D>& invH = grid.invH();
  for (int a = 0; a < D; ++a) {
    const auto& stride = grid.faceStride(a);
    std::size_t base = 0;
    double f[D];
    for (int b = 0; b < D; ++b) {
      const double g = x[b] * invH[b] - (b == a ? 0.0 : 0.5);
      const double fl = std::floor(g);
      f[b] = g - fl;
      base += static_cast<std::size_t>(static_cast<int>(fl) + MacGrid<D>::kGhost) * stride[b];
    }
    const double* ua = u[a].data() + base;
    if constexpr (D == 2) {
      const double bottom = (1.0 - f[0]) * ua[0] + f[0] * ua[stride[0]];
      const double top = (1.0 - f[0]) * ua[stride[1]] + f[0] * ua[stride[1] + stride[0]];
      out[a] = (1.0 - f[1]) * bottom + f[1] * top;
    } else {
      double planes[2];
      for (int k = 0; k < 2; ++k) {
        const double* q = ua + k * stride[2];
        const double bottom = (1.0 - f[0]) * q[0] + f[0] * q[stride[0]];
        const double top = (1.0 - f[0]) * q[stride[1]] + f[0] * q[stride[1] + stride[0]];
        planes[k] = (1.0 - f[1]) * bottom + f[1] * top;
      }
      out[a] = (1.0 - f[2]) * planes[0] + f[2] * planes[1];
    }
  }
  return out;
}

template class MacGrid<2>;
template class MacGrid<3>;
template void extrapolateVelocity<2>(const MacGrid<2>&, FaceArrays<2>&, std::array<std::vector<std::uint8_t>, 2>&, int);
template void extrapolateVelocity<3>(const MacGrid<3>&, FaceArrays<3>&, std::array<std::vector<std::uint8_t>, 3>&, int);
template void fillGhostFaces<2>(const MacGrid<2>&, FaceArrays<2>&);
template void fillGhostFaces<3>(const MacGrid<3>&, FaceArrays<3>&);
template Vec<2> interpolateVelocity<2>(const MacGrid<2>&, const FaceArrays<2>&, const Vec<2>&);
template Vec<3> interpolateVelocity<3>(const MacGrid<3>&, const FaceArrays<3>&, const Vec<3>&);

}  // namespace sloshlab
