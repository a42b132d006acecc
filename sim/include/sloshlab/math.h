// Vector types and the few geometric helpers every part of the engine shares.
//
// One code path serves 2D and 3D: code is written over Vec<D>. The container only
// ever rotates about the z axis (the axis facing the viewer in 2D), so an angular
// velocity is a scalar and "omega x r" has a closed form for both dimensions.
#pragma once

#include <glm/glm.hpp>

#include <cmath>
#include <cstdint>

namespace sloshlab {

template <int D>
using Vec = glm::vec<D, double, glm::defaultp>;
template <int D>
using IVec = glm::vec<D, int, glm::defaultp>;
template <int D>
using Mat = glm::mat<D, D, double, glm::defaultp>;

using Vec2 = Vec<2>;
using Vec3 = Vec<3>;

template <int D>
constexpr Vec<D> fromVec3(const Vec3& v) {
  if constexpr (D == 2) return Vec2(v.x, v.y);
  else return v;
}

template <int D>
constexpr Vec3 toVec3(const Vec<D>& v) {
  if constexpr (D == 2) return Vec3(v.x, v.y, 0.0);
  else return v;
}

// omega e_z x r, for a rotation about z with rate omega.
template <int D>
constexpr Vec<D> crossZ(double omega, const Vec<D>& r) {
  Vec<D> out(0.0);
  out.x = -omega * r.y;
  out.y = omega * r.x;
  return out;
}

// Rotation by angle (given as cos, sin) about z; z, if any, is unchanged.
template <int D>
constexpr Vec<D> rotateZ(const Vec<D>& v, double c, double s) {
  Vec<D> out = v;
  out.x = c * v.x - s * v.y;
  out.y = s * v.x + c * v.y;
  return out;
}

template <int D>
constexpr double lengthSquared(const Vec<D>& v) {
  return glm::dot(v, v);
}

template <int D>
constexpr double product(const Vec<D>& v) {
  double p = 1.0;
  for (int k = 0; k < D; ++k) p *= v[k];
  return p;
}

inline constexpr double kPi = 3.14159265358979323846;

}  // namespace sloshlab
