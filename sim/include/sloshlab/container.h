// The container ("the bottle"): a kinematic rigid box that the mouse or a script
// moves and turns: about the z axis in 2D, about any axis in 3D.
//
// Solvers work in the container's own frame, where the walls stand still, the box
// spans [0, size] on every axis and the MAC grid is the box. A rigid frame moving
// with linear acceleration A and turning with rate omega and angular acceleration
// alpha about its centre c adds, for a particle at r = x - c with relative velocity v,
//     a_frame = R^T (g - A) - alpha x r - omega x (omega x r) - 2 omega x v
// (Euler, centrifugal and Coriolis terms; Goldstein, Classical Mechanics, ch. 4.10;
// physics.md (8.3)-(8.4)), with omega and alpha in the container's axes.
// The renderer and the exporters map back to world space.
//
// Discrete consistency (physics.md (8.5)). The driver moves the container by whole
// steps and reports the step's mean velocity V_n = (c_{n+1} - c_n)/dt_n and
// A_n = (V_n - V_{n-1})/dt_n. With that A, symplectic Euler in the container frame
// reproduces symplectic Euler in the world frame exactly for translations:
// u_{n+1} = u_n + dt (a - A_n) is V_{n+1} - V_n for the world velocity.
#pragma once

#include "sloshlab/math.h"
#include "sloshlab/params.h"

#include <string>
#include <vector>

namespace sloshlab {

class StateArchive;  // sim/src/state_archive.h

// World pose: centre position and orientation R = Ry(angleY) Rx(angleX) Rz(angle)
// (radians, counter-clockwise about world axes; math.h orientationMatrix). In 2D only
// `angle` turns the container; angleX and angleY stay 0.
struct ContainerPose {
  Vec3 position{0.0};
  double angle = 0.0;   // about z, the axis facing the viewer
  double angleX = 0.0;  // then about the horizontal x axis: tips the top towards the viewer
  double angleY = 0.0;  // then about the vertical y axis: a spin

  bool turnsAboutZOnly() const { return angleX == 0.0 && angleY == 0.0; }
  Mat3 rotation() const { return orientationMatrix(angle, angleX, angleY); }
  Vec3 angles() const { return {angleX, angleY, angle}; }  // as a vector, for springs and limits
  void setAngles(const Vec3& a) { angleX = a.x, angleY = a.y, angle = a.z; }
};

// Kinematic state over the current step, in world coordinates.
struct ContainerState {
  Vec3 size{1.0};  // inner size (m); z used in 3D only
  ContainerPose pose;
  Vec3 velocity{0.0};
  Vec3 angularVelocity{0.0};      // omega, world axes (rad/s); (0, 0, omega_z) in 2D
  Vec3 acceleration{0.0};
  Vec3 angularAcceleration{0.0};  // alpha, world axes (rad/s^2)
};

// Fictitious plus gravitational acceleration in the container frame for one step.
template <int D>
struct FrameMotion {
  Vec<D> centre{0.0};        // rotation pivot, the box centre, in container coordinates
  Vec<D> gravityMinusA{0.0}; // R^T (g - A)
  Vec<D> gravity{0.0};       // R^T g alone (for solvers that switch gravity off)
  Vec3 omega{0.0};           // R^T omega: the turn rate in the container's axes
  Vec3 alpha{0.0};           // R^T alpha
  bool aboutZ = true;        // omega and alpha along z: the closed form of (8.4)

  static FrameMotion make(const ContainerState& state, const Vec3& gravity);

  bool turning() const { return omega != Vec3(0.0) || alpha != Vec3(0.0); }

  Vec<D> acceleration(const Vec<D>& x, const Vec<D>& v) const {
    const Vec<D> r = x - centre;
    if (D == 2 || aboutZ) {
      const double w = omega.z;
      Vec<D> centrifugal(0.0);  // -omega x (omega x r) = omega^2 r projected on the xy plane
      centrifugal.x = w * w * r.x;
      centrifugal.y = w * w * r.y;
      return gravityMinusA - crossZ<D>(alpha.z, r) + centrifugal - 2.0 * crossZ<D>(w, v);
    } else {
      const Vec3 r3 = toVec3<D>(r), v3 = toVec3<D>(v);
      return fromVec3<D>(toVec3<D>(gravityMinusA) - glm::cross(alpha, r3) - glm::cross(omega, glm::cross(omega, r3)) -
                         2.0 * glm::cross(omega, v3));
    }
  }
  // omega x r: the velocity of the container's point x relative to its centre, in its axes.
  Vec<D> rimVelocity(const Vec<D>& x) const { return crossOmega<D>(omega, x - centre); }
  // Upper bound of |acceleration| over the box for speeds up to vMax (for time steps),
  // physics.md (8.6).
  double bound(const Vec<D>& boxSize, double vMax) const;
};

// Maps container coordinates to world coordinates for one container pose:
// physics.md (8.1)-(8.2).
template <int D>
struct FrameTransform {
  Vec<D> size{1.0};
  Vec3 position{0.0};
  Mat3 rotation{1.0};  // R, container axes to world axes
  Vec3 omega{0.0};     // R^T omega, in the container's axes
  Vec3 velocity{0.0};

  static FrameTransform make(const ContainerState& state);
  Vec<D> toWorld(const Vec<D>& x) const {
    return fromVec3<D>(position) + rotateBy<D>(rotation, x - 0.5 * size);
  }
  Vec<D> velocityToWorld(const Vec<D>& x, const Vec<D>& v) const {
    return fromVec3<D>(velocity) + rotateBy<D>(rotation, v + crossOmega<D>(omega, x - 0.5 * size));
  }
  Vec<D> toLocal(const Vec<D>& world) const {
    return rotateByInverse<D>(rotation, world - fromVec3<D>(position)) + 0.5 * size;
  }
};

// A scripted container motion: rows t, displacement (x, y, z) and angles (angle about
// z, and in 3D angle_x and angle_y, ContainerPose), relative to the scene's pose,
// interpolated linearly in t and held after the last row.
class MotionScript {
 public:
  struct Row {
    double t = 0.0;
    Vec3 offset{0.0};
    double angle = 0.0;
    double angleX = 0.0;
    double angleY = 0.0;
    Vec3 angles() const { return {angleX, angleY, angle}; }
  };

  // The fastest a script may move and turn the container between two rows (docs/cli.md).
  static constexpr double kMaxScriptSpeed = 50.0;         // m/s
  static constexpr double kMaxScriptAngularSpeed = 100.0;  // rad/s

  // Reads CSV with header t,x,y[,z],angle[,angle_x][,angle_y]. Throws std::runtime_error
  // naming the problem.
  static MotionScript load(const std::string& path);
  // The same from the file's text; `origin` names it in messages.
  static MotionScript parse(const std::string& csvText, const std::string& origin);
  static MotionScript fromRows(std::vector<Row> rows);

  // The row of `pose` at time t relative to `home`, and the pose a row gives from home.
  static Row relative(double t, const ContainerPose& home, const ContainerPose& pose);
  static ContainerPose applied(const ContainerPose& home, const Row& row);
  // The angle (rad) the container turns through from row a to row b, at most.
  static double turnBetween(const Row& a, const Row& b);

  bool empty() const { return m_rows.empty(); }
  const std::vector<Row>& rows() const { return m_rows; }
  Row sample(double t) const;
  // A row after the last (row.t must be later). While the pose stands still the last
  // row moves to row.t instead, which samples the same: a still container adds no rows.
  void append(const Row& row);

 private:
  std::vector<Row> m_rows;
};

// Moves the container: stands still, follows a script, or follows a target pose (the
// mouse) through a critically damped spring with bounded velocity and acceleration
// (physics.md (8.7)).
class ContainerDriver {
 public:
  enum class Mode { Still, Script, Follow };

  struct FollowSettings {
    double frequency = 6.0;            // natural frequency of the spring (Hz)
    double maxAcceleration = 80.0;     // bound on |A| (m/s^2)
    double maxSpeed = 4.0;             // bound on |V| (m/s)
    double maxAngularAcceleration = 60.0;  // rad/s^2
    double maxAngularSpeed = 6.0;      // rad/s
  };

  // In 2D (planar) the container turns about z alone: angleX and angleY of the home,
  // the target and a script are dropped.
  void setPlanar(bool planar) { m_planar = planar; }
  void reset(const ContainerPose& home);
  void setScript(MotionScript script);
  void setTarget(const ContainerPose& target);  // switches to Follow
  // Appends a row to the script (MotionScript::append) and switches to Script: the
  // panes of a comparison follow one growing path (sloshlab/comparison.h).
  void appendToScript(const MotionScript::Row& row);
  const FollowSettings& followSettings() const { return m_follow; }
  // The follow spring's settings through their table (units, ranges, physics.md (8.7)):
  // the Playback panel's "Mouse spring".
  static const ParamTable& followTable();
  ParamRef followParams() { return {&m_follow, &followTable()}; }
  void setFollowSettings(const FollowSettings& follow) { m_follow = follow; }
  Mode mode() const { return m_mode; }
  const ContainerPose& home() const { return m_home; }
  const ContainerPose& target() const { return m_target; }

  // Advances state from time t by dt: new pose, mean velocity over the step and the
  // discrete accelerations (see the header comment).
  void advance(ContainerState& state, double t, double dt);
  // The scripted pose at time t: home plus the script's displacement (home without one).
  ContainerPose poseAt(double t) const;
  // Save and resume (sloshlab/state_file.h): mode, home, target, script, follow spring.
  void exchangeState(StateArchive& ar);

 private:

  ContainerPose planar(ContainerPose pose) const;

  Mode m_mode = Mode::Still;
  bool m_planar = false;
  ContainerPose m_home;
  ContainerPose m_target;
  MotionScript m_script;
  FollowSettings m_follow;
  Vec3 m_springVelocity{0.0};
  Vec3 m_springAngularVelocity{0.0};  // of the angles (angleX, angleY, angle)
};

}  // namespace sloshlab
