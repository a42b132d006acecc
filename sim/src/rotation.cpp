// The container's orientation matrix and its log map (math.h; physics.md (8.1a), (8.5)).
#include "sloshlab/math.h"

#include <algorithm>
#include <cmath>

namespace sloshlab {

Mat3 orientationMatrix(double angle, double angleX, double angleY) {
  const double c = std::cos(angle), s = std::sin(angle);
  Mat3 rz(1.0);  // glm is column-major: m[column][row]
  rz[0][0] = c, rz[0][1] = s;
  rz[1][0] = -s, rz[1][1] = c;
  if (angleX == 0.0 && angleY == 0.0) return rz;
  const double cx = std::cos(angleX), sx = std::sin(angleX);
  const double cy = std::cos(angleY), sy = std::sin(angleY);
  Mat3 rx(1.0), ry(1.0);
  rx[1][1] = cx, rx[1][2] = sx, rx[2][1] = -sx, rx[2][2] = cx;
  ry[0][0] = cy, ry[0][2] = -sy, ry[2][0] = sy, ry[2][2] = cy;
  return ry * rx * rz;
}

// Row 1 of Ry Rx Rz is (cos ax sin a, cos ax cos a, -sin ax) and its column 2
// (sin ay cos ax, -sin ax, cos ay cos ax): angleX, then angle and angleY by atan2.
Vec3 anglesOf(const Mat3& R, const Vec3& near) {
  auto at = [&R](int row, int col) { return R[col][row]; };
  const double ax = std::asin(std::clamp(-at(1, 2), -1.0, 1.0));
  double ay = std::atan2(at(0, 2), at(2, 2)), a = std::atan2(at(1, 0), at(1, 1));
  ay += 2.0 * kPi * std::round((near.y - ay) / (2.0 * kPi));
  a += 2.0 * kPi * std::round((near.z - a) / (2.0 * kPi));
  return {ax, ay, a};
}

Mat3 rotationAbout(const Vec3& n, double angle) {
  Mat3 k(0.0);  // [n]x, column-major
  k[1][0] = -n.z, k[2][0] = n.y;
  k[0][1] = n.z, k[2][1] = -n.x;
  k[0][2] = -n.y, k[1][2] = n.x;
  return Mat3(1.0) + std::sin(angle) * k + (1.0 - std::cos(angle)) * (k * k);
}

// Through the unit quaternion (w, q) of R (Shepperd's choice of the largest diagonal
// term), then theta = 2 atan2(|q|, |w|), which keeps its accuracy at every angle.
Vec3 rotationVectorOf(const Mat3& R) {
  auto at = [&R](int row, int col) { return R[col][row]; };
  const double trace = at(0, 0) + at(1, 1) + at(2, 2);
  double w = 0.0;
  Vec3 q(0.0);
  if (trace >= std::max({at(0, 0), at(1, 1), at(2, 2)})) {
    const double s = 2.0 * std::sqrt(std::max(1.0 + trace, 0.0));
    w = 0.25 * s;
    q = Vec3(at(2, 1) - at(1, 2), at(0, 2) - at(2, 0), at(1, 0) - at(0, 1)) / s;
  } else {
    int i = 0;
    if (at(1, 1) > at(i, i)) i = 1;
    if (at(2, 2) > at(i, i)) i = 2;
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    const double s = 2.0 * std::sqrt(std::max(1.0 + at(i, i) - at(j, j) - at(k, k), 0.0));
    q[i] = 0.25 * s;
    q[j] = (at(j, i) + at(i, j)) / s;
    q[k] = (at(k, i) + at(i, k)) / s;
    w = (at(k, j) - at(j, k)) / s;
  }
  if (w < 0.0) w = -w, q = -q;
  const double sinHalf = glm::length(q);
  if (sinHalf < 1e-300) return Vec3(0.0);
  const double theta = 2.0 * std::atan2(sinHalf, w);
  return q * (theta / sinHalf);
}

}  // namespace sloshlab
