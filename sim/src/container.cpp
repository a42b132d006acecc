#include "sloshlab/container.h"

#include "io/csv_reader.h"
#include "io/state_archive.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace sloshlab {

template <int D>
FrameMotion<D> FrameMotion<D>::make(const ContainerState& state, const Vec3& gravity) {
  FrameMotion<D> f;
  f.centre = 0.5 * fromVec3<D>(state.size);
  // R^T (g - A), R^T omega, R^T alpha: world axes into the container's.
  const Mat3 R = state.pose.rotation();
  f.gravityMinusA = rotateByInverse<D>(R, fromVec3<D>(gravity - state.acceleration));
  f.gravity = rotateByInverse<D>(R, fromVec3<D>(gravity));
  // About z alone R = Rz keeps e_z exactly: (0, 0, w) passes with its bits.
  f.omega = glm::transpose(R) * state.angularVelocity;
  f.alpha = glm::transpose(R) * state.angularAcceleration;
  f.aboutZ = f.omega.x == 0.0 && f.omega.y == 0.0 && f.alpha.x == 0.0 && f.alpha.y == 0.0;
  return f;
}

// physics.md (8.6).
template <int D>
double FrameMotion<D>::bound(const Vec<D>& boxSize, double vMax) const {
  const double rMax = 0.5 * glm::length(boxSize);
  const double w = glm::length(omega);
  return glm::length(gravityMinusA) + (glm::length(alpha) + w * w) * rMax + 2.0 * w * vMax;
}

template <int D>
FrameTransform<D> FrameTransform<D>::make(const ContainerState& state) {
  FrameTransform<D> t;
  t.size = fromVec3<D>(state.size);
  t.position = state.pose.position;
  t.rotation = state.pose.rotation();
  t.omega = glm::transpose(t.rotation) * state.angularVelocity;
  t.velocity = state.velocity;
  return t;
}

template struct FrameMotion<2>;
template struct FrameMotion<3>;
template struct FrameTransform<2>;
template struct FrameTransform<3>;

// ---------------------------------------------------------------- motion scripts

namespace {

MotionScript motionFromTable(CsvTable table, const std::string& path) {
  const int ct = table.column("t"), cx = table.column("x"), cy = table.column("y"), ca = table.column("angle");
  const int cz = table.column("z"), cax = table.column("angle_x"), cay = table.column("angle_y");
  if (ct < 0 || cx < 0 || cy < 0 || ca < 0)
    throw std::runtime_error("motion file '" + path + "': header must name the columns t,x,y[,z],angle[,angle_x][,angle_y]");
  std::vector<MotionScript::Row> rows;
  for (const auto& values : table.rows) {
    MotionScript::Row r;
    r.t = values[ct];
    r.offset = Vec3(values[cx], values[cy], cz >= 0 ? values[cz] : 0.0);
    r.angle = values[ca];
    r.angleX = cax >= 0 ? values[cax] : 0.0;
    r.angleY = cay >= 0 ? values[cay] : 0.0;
    rows.push_back(r);
  }
  try {
    return MotionScript::fromRows(std::move(rows));
  } catch (const std::runtime_error& e) {
    throw std::runtime_error("motion file '" + path + "': " + e.what());
  }
}

}  // namespace

MotionScript MotionScript::load(const std::string& path) {
  return motionFromTable(readCsv(path, "motion file"), path);
}

MotionScript MotionScript::parse(const std::string& csvText, const std::string& origin) {
  std::istringstream in(csvText);
  return motionFromTable(parseCsv(in, origin, "motion file"), origin);
}

// A bound on the angle the container turns through between two rows, for the limits
// (physics.md (9.9)): with the angles linear in t, the rate |omega| is at most the sum
// of the three angles' rates (each turn about a unit axis); about z alone it is the
// change of angle itself.
double MotionScript::turnBetween(const Row& a, const Row& b) {
  return std::abs(b.angle - a.angle) + std::abs(b.angleX - a.angleX) + std::abs(b.angleY - a.angleY);
}

MotionScript MotionScript::fromRows(std::vector<Row> rows) {
  if (rows.empty()) throw std::runtime_error("no rows");
  for (std::size_t i = 1; i < rows.size(); ++i)
    if (!(rows[i].t > rows[i - 1].t))
      throw std::runtime_error("times must increase (row " + std::to_string(i + 1) + ")");
  if (rows.front().t < 0.0) throw std::runtime_error("times must not be negative");
  // Bounds as wide as --time's: beyond them a value is a typo, and 1e300 m overflowed
  // the container's velocity to inf, a blow-up instead of a bad-input line.
  constexpr double kMax = 1e6;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    const double turn = std::max({std::abs(r.angle), std::abs(r.angleX), std::abs(r.angleY)});
    if (!(r.t <= kMax && turn <= kMax && glm::length(r.offset) <= kMax))
      throw std::runtime_error("t, displacement and angles must lie within 1e6 s, m and rad (row " +
                               std::to_string(i + 1) + ")");
  }
  // Speeds as in a lab: the fastest hand, a centrifuge's spin. Faster segments gave no
  // physics but a time step that collapsed: physics.md (9.9).
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const double span = rows[i].t - rows[i - 1].t;
    const double speed = glm::length(rows[i].offset - rows[i - 1].offset) / span;
    const double spin = turnBetween(rows[i - 1], rows[i]) / span;
    auto limitLine = [&](const char* what, double value, double limit, const char* unit) {
      std::ostringstream s;
      s << "rows " << i << "-" << i + 1 << " " << what << " the container at " << value << " " << unit
        << ", beyond the limit of " << limit << " " << unit;
      return std::runtime_error(s.str());
    };
    if (speed > kMaxScriptSpeed * (1.0 + 1e-9)) throw limitLine("move", speed, kMaxScriptSpeed, "m/s");
    if (spin > kMaxScriptAngularSpeed * (1.0 + 1e-9)) throw limitLine("turn", spin, kMaxScriptAngularSpeed, "rad/s");
  }
  MotionScript script;
  script.m_rows = std::move(rows);
  return script;
}

MotionScript::Row MotionScript::relative(double t, const ContainerPose& home, const ContainerPose& pose) {
  return {t, pose.position - home.position, pose.angle - home.angle, pose.angleX - home.angleX,
          pose.angleY - home.angleY};
}

ContainerPose MotionScript::applied(const ContainerPose& home, const Row& r) {
  return {home.position + r.offset, home.angle + r.angle, home.angleX + r.angleX, home.angleY + r.angleY};
}

MotionScript::Row MotionScript::sample(double t) const {
  if (m_rows.empty()) return {};
  if (t <= m_rows.front().t) return m_rows.front();
  if (t >= m_rows.back().t) return m_rows.back();
  auto it = std::upper_bound(m_rows.begin(), m_rows.end(), t, [](double tt, const Row& r) { return tt < r.t; });
  const Row& b = *it;
  const Row& a = *(it - 1);
  const double w = (t - a.t) / (b.t - a.t);
  Row out;
  out.t = t;
  out.offset = a.offset + w * (b.offset - a.offset);
  out.angle = a.angle + w * (b.angle - a.angle);
  out.angleX = a.angleX + w * (b.angleX - a.angleX);
  out.angleY = a.angleY + w * (b.angleY - a.angleY);
  return out;
}

void MotionScript::append(const Row& row) {
  if (!m_rows.empty() && !(row.t > m_rows.back().t)) throw std::runtime_error("appended rows must come later");
  const std::size_t n = m_rows.size();
  auto samePose = [&row](const Row& r) { return r.offset == row.offset && r.angles() == row.angles(); };
  if (n >= 2 && samePose(m_rows[n - 1]) && samePose(m_rows[n - 2])) m_rows.back().t = row.t;
  else m_rows.push_back(row);
}

// ---------------------------------------------------------------- driver

ContainerPose ContainerDriver::planar(ContainerPose pose) const {
  if (m_planar) pose.angleX = pose.angleY = 0.0;
  return pose;
}

void ContainerDriver::reset(const ContainerPose& home) {
  m_home = planar(home);
  m_target = m_home;
  m_springVelocity = Vec3(0.0);
  m_springAngularVelocity = Vec3(0.0);
  if (m_mode == Mode::Follow) m_mode = Mode::Still;
}

void ContainerDriver::setScript(MotionScript script) {
  m_script = std::move(script);
  m_mode = m_script.empty() ? Mode::Still : Mode::Script;
}

void ContainerDriver::setTarget(const ContainerPose& target) {
  if (m_mode != Mode::Follow) {
    m_springVelocity = Vec3(0.0);
    m_springAngularVelocity = Vec3(0.0);
  }
  m_target = planar(target);
  m_mode = Mode::Follow;
}

const ParamTable& ContainerDriver::followTable() {
  using F = FollowSettings;
  static const ParamInfo entries[] = {
      {"frequency", "Spring frequency", "Hz", "Mouse spring", SLOSHLAB_PARAM_FIELD(F, frequency), 0.5, 20.0, true,
       "f in k = (2 pi f)^2 of the critically damped spring the bottle follows the mouse with, physics.md (8.7): "
       "higher is stiffer (the bottle keeps closer to the mouse, with larger accelerations)"},
      {"max_acceleration", "Largest acceleration", "m/s^2", "Mouse spring",
       SLOSHLAB_PARAM_FIELD(F, maxAcceleration), 1.0, 500.0, true,
       "Bound on |c''| in physics.md (8.7): the hardest shove a drag can give the liquid"},
      {"max_speed", "Largest speed", "m/s", "Mouse spring", SLOSHLAB_PARAM_FIELD(F, maxSpeed), 0.1, 20.0, true,
       "Bound on |c'| in physics.md (8.7)"},
      {"max_angular_acceleration", "Largest angular acceleration", "rad/s^2", "Mouse spring",
       SLOSHLAB_PARAM_FIELD(F, maxAngularAcceleration), 1.0, 500.0, true,
       "Bound on the tilt's angular acceleration in physics.md (8.7)"},
      {"max_angular_speed", "Largest angular speed", "rad/s", "Mouse spring",
       SLOSHLAB_PARAM_FIELD(F, maxAngularSpeed), 0.1, 50.0, true,
       "Bound on the tilt's angular speed in physics.md (8.7)"},
  };
  static const ParamTable table{"mouse spring", entries};
  return table;
}

void ContainerDriver::appendToScript(const MotionScript::Row& row) {
  m_script.append(row);
  m_mode = Mode::Script;
}

ContainerPose ContainerDriver::poseAt(double t) const {
  return planar(MotionScript::applied(m_home, m_script.sample(t)));
}

namespace {
Vec3 clampLength(const Vec3& v, double maxLength) {
  const double len = glm::length(v);
  return len > maxLength ? v * (maxLength / len) : v;
}
}  // namespace

void ContainerDriver::advance(ContainerState& state, double t, double dt) {
  const ContainerPose old = state.pose;
  ContainerPose next = old;
  switch (m_mode) {
    case Mode::Still: break;
    case Mode::Script: next = poseAt(t + dt); break;
    case Mode::Follow: {
      // Critically damped spring x'' = k (target - x) - 2 sqrt(k) x', sub-stepped
      // semi-implicitly with at most 1 ms, accelerations and speeds clamped:
      // physics.md (8.7).
      const double wn = 2.0 * kPi * m_follow.frequency;
      const double k = wn * wn, c = 2.0 * wn;
      const int substeps = std::max(1, static_cast<int>(std::ceil(dt / 1e-3)));
      const double h = dt / substeps;
      for (int i = 0; i < substeps; ++i) {
        Vec3 a = k * (m_target.position - next.position) - c * m_springVelocity;
        m_springVelocity = clampLength(m_springVelocity + h * clampLength(a, m_follow.maxAcceleration),
                                       m_follow.maxSpeed);
        next.position += h * m_springVelocity;
        // The three angles on one spring, their rates bounded together.
        const Vec3 aa = k * (m_target.angles() - next.angles()) - c * m_springAngularVelocity;
        m_springAngularVelocity = clampLength(m_springAngularVelocity + h * clampLength(aa, m_follow.maxAngularAcceleration),
                                              m_follow.maxAngularSpeed);
        next.setAngles(next.angles() + h * m_springAngularVelocity);
      }
      break;
    }
  }
  // The step's mean velocity and its change, physics.md (8.5).
  const Vec3 velocity = (next.position - old.position) / dt;
  // omega_n: about z alone the change of angle; otherwise the rotation vector of
  // R_(n+1) R_n^T over dt (world axes).
  const Vec3 angularVelocity = old.turnsAboutZOnly() && next.turnsAboutZOnly()
                                   ? Vec3(0.0, 0.0, (next.angle - old.angle) / dt)
                                   : rotationVectorOf(next.rotation() * glm::transpose(old.rotation())) / dt;
  state.acceleration = (velocity - state.velocity) / dt;
  state.angularAcceleration = (angularVelocity - state.angularVelocity) / dt;
  state.velocity = velocity;
  state.angularVelocity = angularVelocity;
  state.pose = next;
}

void ContainerDriver::exchangeState(StateArchive& ar) {
  ar.choice(m_mode, 3, "the container's driver mode");
  ar.value(m_home, "the container's home pose");
  ar.value(m_target, "the container's target pose");
  std::vector<MotionScript::Row> rows = m_script.rows();
  ar.vector(rows, "the motion script");
  ar.value(m_follow, "the follow spring's settings");
  ar.value(m_springVelocity, "the follow spring's velocity");
  ar.value(m_springAngularVelocity, "the follow spring's angular velocity");
  if (!ar.loading()) return;
  try {
    m_script = rows.empty() ? MotionScript() : MotionScript::fromRows(std::move(rows));
  } catch (const std::runtime_error& e) {
    throw StateError(std::string("the motion script: ") + e.what());
  }
  if (m_mode == Mode::Script && m_script.empty()) throw StateError("the container follows a script it does not have");
  const double values[] = {m_home.position.x, m_home.position.y, m_home.position.z, m_home.angle,
                           m_home.angleX, m_home.angleY,
                           m_target.position.x, m_target.position.y, m_target.position.z, m_target.angle,
                           m_target.angleX, m_target.angleY,
                           m_springVelocity.x, m_springVelocity.y, m_springVelocity.z, m_springAngularVelocity.x,
                           m_springAngularVelocity.y, m_springAngularVelocity.z,
                           m_follow.frequency, m_follow.maxAcceleration, m_follow.maxSpeed,
                           m_follow.maxAngularAcceleration, m_follow.maxAngularSpeed};
  for (double x : values)
    if (!std::isfinite(x)) throw StateError("the container's driver holds a value that is not finite");
  ParamRef follow = followParams();
  for (const ParamInfo& info : followTable().entries)
    if (follow.get(info) < info.min || follow.get(info) > info.max)
      throw StateError(std::string("the follow spring's ") + info.key + " is outside " +
                       describeRange(info.min, info.max));
}

}  // namespace sloshlab
