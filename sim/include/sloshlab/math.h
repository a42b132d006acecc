// Vector types and the few geometric helpers every part of the engine shares.
//
// One code path serves 2D and 3D: code is written over Vec<D>. In 2D the container
// turns about the z axis alone (the axis facing the viewer), so an angular velocity is
// a scalar and "omega x r" has a closed form; in 3D it may turn about any axis
// (orientationMatrix, physics.md (8.1a)).
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
using Mat3 = Mat<3>;

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

// A scene's point in D dimensions: one given in x and y alone (hasDepth false) sits at
// half the container's depth in 3D (scene.h: the faucet, the outlet, the obstacles).
template <int D>
constexpr Vec<D> atMidDepth(const Vec3& v, bool hasDepth, double depth) {
  Vec3 w = v;
  if (D == 3 && !hasDepth) w.z = 0.5 * depth;
  return fromVec3<D>(w);
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

// omega x r for a turn rate omega; in 2D omega lies along z (crossZ). About z alone the
// cross product gives crossZ's bits: 0 * r_z - w r_y == -(w r_y).
template <int D>
constexpr Vec<D> crossOmega(const Vec3& omega, const Vec<D>& r) {
  if constexpr (D == 2) return crossZ<D>(omega.z, r);
  else return glm::cross(omega, r);
}

// R v for a rotation R; in 2D the upper-left block (a rotation about z). With
// -ffp-contract=off this gives rotateZ's bits for R = Rz: c x + (-s) y == c x - s y.
template <int D>
constexpr Vec<D> rotateBy(const Mat3& R, const Vec<D>& v) {
  if constexpr (D == 2) return Vec2(R[0][0] * v.x + R[1][0] * v.y, R[0][1] * v.x + R[1][1] * v.y);
  else return R * v;
}
// R^T v.
template <int D>
constexpr Vec<D> rotateByInverse(const Mat3& R, const Vec<D>& v) {
  if constexpr (D == 2) return Vec2(R[0][0] * v.x + R[0][1] * v.y, R[1][0] * v.x + R[1][1] * v.y);
  else return glm::transpose(R) * v;
}

// The container's orientation, physics.md (8.1a): R = Ry(angleY) Rx(angleX) Rz(angle), a
// turn by `angle` about z (the axis facing the viewer), then by angleX about the
// horizontal x axis (tipping towards the viewer), then by angleY about the vertical y
// (a spin), all about world axes. Built from exact sines and cosines, so that a turn
// about z alone is the matrix of rotateZ bit for bit.
Mat3 orientationMatrix(double angle, double angleX, double angleY);
// The angles (angleX, angleY, angle) of R = Ry(angleY) Rx(angleX) Rz(angle), with
// angleX in [-pi/2, pi/2] and the other two the ones nearest `near`'s (whole turns
// added), so that a mouse's turn composed onto a pose moves its angles continuously.
Vec3 anglesOf(const Mat3& R, const Vec3& near);
// The rotation by `angle` about the unit axis n (Rodrigues).
Mat3 rotationAbout(const Vec3& n, double angle);
// The rotation vector theta n of a rotation matrix (the axis times the angle in
// [0, pi]): the log map, accurate near 0 and near pi.
Vec3 rotationVectorOf(const Mat3& R);

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

// Two unit vectors that, with the unit vector n, make a right-handed orthonormal basis
// (n, e1, e2).
inline void perpendicularAxes(const Vec3& n, Vec3& e1, Vec3& e2) {
  const Vec3 helper = std::abs(n.x) < 0.9 ? Vec3(1.0, 0.0, 0.0) : Vec3(0.0, 1.0, 0.0);
  e1 = glm::normalize(glm::cross(n, helper));
  e2 = glm::cross(n, e1);
}

inline constexpr double kPi = 3.14159265358979323846;

}  // namespace sloshlab
