#include "pour.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace sloshlab {

namespace {

std::string point(const Vec3& v, int dim) {
  std::ostringstream s;
  s << "(" << v.x << ", " << v.y;
  if (dim == 3) s << ", " << v.z;
  s << ")";
  return s.str();
}

}  // namespace

template <int D>
void Pour<D>::configure(const Scene& scene, const Vec<D>& box, double spacing) {
  m_box = box;
  m_spacing = spacing;
  const double depth = D == 3 ? box[D - 1] : 0.0;
  m_hasFaucet = scene.faucet.has_value();
  m_hasOutlet = scene.outlet.has_value();
  if (m_hasFaucet) {
    m_faucet = *scene.faucet;
    m_faucetOn = m_faucet.on;
    m_nozzle = atMidDepth<D>(m_faucet.position, m_faucet.positionHasDepth, depth);
    Vec3 dir3 = m_faucet.direction;
    if (D == 2) dir3.z = 0.0;
    const double length = glm::length(dir3);
    if (!(length > 0.0))
      throw SceneError("scene '" + scene.name + "': faucet: its direction has no component in " + std::to_string(D) + "D");
    m_direction = fromVec3<D>(dir3 / length);
    // The nozzle's cross-section: lattice points at the spacing across the jet, m of
    // them per row (m = width / spacing, at least 1), inside the width (14.1).
    const int m = std::max(1, static_cast<int>(std::lround(m_faucet.width / spacing)));
    const double half = 0.5 * (m - 1);
    m_crossSection.clear();
    if constexpr (D == 2) {
      const Vec<2> across(-m_direction.y, m_direction.x);
      for (int k = 0; k < m; ++k) m_crossSection.push_back((k - half) * spacing * across);
    } else {
      const Vec3 d = toVec3<D>(m_direction);
      const Vec3 a = std::abs(d.x) < 0.9 ? Vec3(1.0, 0.0, 0.0) : Vec3(0.0, 1.0, 0.0);
      const Vec3 e1 = glm::normalize(glm::cross(d, a)), e2 = glm::cross(d, e1);
      const double radius = 0.5 * std::max(m_faucet.width, spacing);
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < m; ++j) {
          const Vec3 offset = (i - half) * spacing * e1 + (j - half) * spacing * e2;
          if (glm::length(offset) <= radius + 1e-9 * spacing) m_crossSection.push_back(fromVec3<D>(offset));
        }
      if (m_crossSection.empty()) m_crossSection.push_back(Vec<D>(0.0));
    }
    // Every nozzle point half a spacing inside the walls.
    for (const Vec<D>& offset : m_crossSection) {
      const Vec<D> x = m_nozzle + offset;
      for (int k = 0; k < D; ++k)
        if (!(x[k] >= 0.5 * spacing && x[k] <= box[k] - 0.5 * spacing))
          throw SceneError("scene '" + scene.name + "': faucet at " + point(toVec3<D>(m_nozzle), D) + " of width " +
                           std::to_string(m_faucet.width) + " m reaches into a wall: its nozzle must lie inside the " +
                           "container, half a spacing (" + std::to_string(0.5 * spacing) + " m) from every wall");
    }
    const Solids<D> solids(scene.obstacles, scene.containerSize);
    for (const Vec<D>& offset : m_crossSection)
      if (solids.distance(m_nozzle + offset) < 0.5 * spacing)
        throw SceneError("scene '" + scene.name + "': faucet at " + point(toVec3<D>(m_nozzle), D) +
                         " reaches into an obstacle: its nozzle must lie half a spacing outside every obstacle");
  }
  if (m_hasOutlet) {
    m_outlet = *scene.outlet;
    m_outletOn = m_outlet.on;
    m_centre = atMidDepth<D>(m_outlet.position, m_outlet.positionHasDepth, depth);
    for (int k = 0; k < D; ++k)
      if (!(m_centre[k] >= 0.0 && m_centre[k] <= box[k]))
        throw SceneError("scene '" + scene.name + "': outlet at " + point(toVec3<D>(m_centre), D) +
                         " is outside the container: its centre must lie on a wall or inside");
    // Within half a spacing of a wall, the outlet is a hole in it (14.3): the nearest wall.
    m_hole = {};
    double nearest = 0.5 * spacing;
    for (int k = 0; k < D; ++k)
      for (int side = 0; side < 2; ++side) {
        const double d = side == 0 ? m_centre[k] : box[k] - m_centre[k];
        if (d <= nearest) nearest = d, m_hole.axis = k, m_hole.side = side;
      }
    if (m_hole.exists()) {
      m_hole.centre = m_centre;
      m_hole.centre[m_hole.axis] = m_hole.side == 0 ? 0.0 : box[m_hole.axis];
      m_hole.radius = m_outlet.radius;
      const std::string where = "scene '" + scene.name + "': outlet at " + point(toVec3<D>(m_centre), D) + " of radius " +
                                std::to_string(m_outlet.radius) + " m";
      if (m_outlet.radius < spacing)
        throw SceneError(where + " is a hole narrower than the particle spacing (" + std::to_string(spacing) +
                         " m): no liquid could pass it");
      for (int k = 0; k < D; ++k)
        if (k != m_hole.axis && !(m_hole.centre[k] - m_outlet.radius >= 0.0 && m_hole.centre[k] + m_outlet.radius <= box[k]))
          throw SceneError(where + " reaches past the edge of its wall: a hole must lie within one wall");
    }
  }
}

template <int D>
bool Pour<D>::apply(ParticleSet<D>& p, double dt, std::vector<std::int64_t>& origin) {
  origin.clear();
  m_leftX.clear(), m_leftV.clear();
  const std::size_t before = p.size();
  if (before > 0) m_particleMass = p.m[0];
  if (m_hasOutlet && m_outletOn) drain(p, origin, m_hole.spout);
  // drain() leaves origin empty when it took nothing, and also when it took everything.
  const bool drained = !origin.empty() || (before > 0 && p.size() != before);
  if (!drained) {
    origin.resize(p.size());
    for (std::size_t i = 0; i < origin.size(); ++i) origin[i] = static_cast<std::int64_t>(i);
  }
  const std::size_t afterDrain = p.size();
  if (m_hasFaucet && m_faucetOn) fill(p, dt, origin);
  const bool changed = drained || p.size() != afterDrain;
  if (!changed) origin.clear();
  return changed;
}

// (14.3): a particle past the wall through the outlet's hole and its spout leaves, with its mass; an
// outlet inside the container takes every particle closer than r to its centre.
template <int D>
bool Pour<D>::takeSpout(ParticleSet<D>& p, std::vector<std::int64_t>& origin) {
  origin.clear();
  m_leftX.clear(), m_leftV.clear();
  if (!m_hole.exists() || !m_outletOn) return false;
  const std::size_t before = p.size();
  drain(p, origin, 0.0);
  return p.size() != before;
}

template <int D>
void Pour<D>::drain(ParticleSet<D>& p, std::vector<std::int64_t>& origin, double depth) {
  const double r2 = m_outlet.radius * m_outlet.radius;
  const bool hole = m_hole.exists();
  std::vector<std::uint32_t> order, leaving;  // the kept particles first, then those leaving
  order.reserve(p.size());
  for (std::size_t i = 0; i < p.size(); ++i) {
    const bool leaves = hole ? m_hole.passed(p.x[i], m_box, depth) : lengthSquared<D>(p.x[i] - m_centre) < r2;
    (leaves ? leaving : order).push_back(static_cast<std::uint32_t>(i));
  }
  if (leaving.empty()) return;
  if (hole)
    for (std::uint32_t i : leaving) m_leftX.push_back(p.x[i]), m_leftV.push_back(p.v[i]);
  const std::size_t kept = order.size();
  for (std::uint32_t i : leaving) m_massOut += p.m[i], m_outflowSpeedSum += glm::length(p.v[i]);
  m_out += static_cast<long>(leaving.size());
  order.insert(order.end(), leaving.begin(), leaving.end());
  p.reorder(order);
  p.resize(kept);
  origin.assign(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(kept));
}

// (14.1)-(14.2): the jet leaves the nozzle at speed u; each time it has advanced one
// spacing a layer of the cross-section's points is added, at the distance the jet has
// gone past that spacing, with velocity u along the direction. A point where liquid
// already stands (a particle within 3/4 of a spacing) is skipped: a submerged nozzle
// waits rather than pushing particles into each other.
template <int D>
void Pour<D>::fill(ParticleSet<D>& p, double dt, std::vector<std::int64_t>& origin) {
  const double d = m_spacing;
  m_advance += m_faucet.speed * dt;
  if (m_advance < d) return;
  double reach = 0.0;
  for (const Vec<D>& offset : m_crossSection) reach = std::max(reach, std::sqrt(lengthSquared<D>(offset)));
  reach += m_advance + 2.0 * d;
  std::vector<Vec<D>> near;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (lengthSquared<D>(p.x[i] - m_nozzle) < reach * reach) near.push_back(p.x[i]);
  const double clear2 = 0.75 * d * 0.75 * d;
  std::vector<Vec<D>> added;
  while (m_advance >= d) {
    m_advance -= d;
    for (const Vec<D>& offset : m_crossSection) {
      const Vec<D> x = m_nozzle + offset + m_advance * m_direction;
      bool free = true;
      for (int k = 0; k < D; ++k) free = free && x[k] >= 0.5 * d && x[k] <= m_box[k] - 0.5 * d;
      for (std::size_t j = 0; free && j < near.size(); ++j) free = lengthSquared<D>(near[j] - x) >= clear2;
      if (!free) {
        ++m_blocked;
        continue;
      }
      added.push_back(x);
      near.push_back(x);
    }
  }
  if (added.empty()) return;
  const std::size_t n0 = p.size();
  p.resize(n0 + added.size());
  const Vec<D> velocity = m_faucet.speed * m_direction;
  for (std::size_t k = 0; k < added.size(); ++k) {
    p.x[n0 + k] = added[k];
    p.v[n0 + k] = velocity;
    p.m[n0 + k] = m_particleMass;
    p.id[n0 + k] = p.nextId++;
    origin.push_back(-1);
  }
  m_in += static_cast<long>(added.size());
  m_massIn += m_particleMass * static_cast<double>(added.size());
}

template <int D>
PourStats Pour<D>::stats() const {
  PourStats s;
  s.hasFaucet = m_hasFaucet, s.hasOutlet = m_hasOutlet;
  s.faucetOn = m_hasFaucet && m_faucetOn, s.outletOn = m_hasOutlet && m_outletOn;
  s.outletInWall = m_hole.exists();
  if (m_hole.exists()) {
    s.outletCentre = toVec3<D>(m_hole.centre), s.outletRadius = m_hole.radius;
    s.outletAxis = m_hole.axis, s.outletSide = m_hole.side, s.outletSpout = m_hole.spout;
  }
  if (m_hasFaucet) s.rate = m_faucet.speed * static_cast<double>(m_crossSection.size()) * std::pow(m_spacing, D - 1);
  s.massIn = m_massIn, s.massOut = m_massOut;
  s.particlesIn = m_in, s.particlesOut = m_out, s.blocked = m_blocked;
  s.outflowSpeedSum = m_outflowSpeedSum;
  return s;
}

template <int D>
void Pour<D>::exchangeState(StateArchive& ar) {
  ar.value(m_faucetOn, "whether the faucet is on");
  ar.value(m_outletOn, "whether the outlet is open");
  ar.value(m_advance, "the faucet jet's advance");
  ar.value(m_particleMass, "the poured particles' mass");
  ar.value(m_massIn, "the mass poured in");
  ar.value(m_massOut, "the mass drained");
  ar.value(m_in, "the particles poured in");
  ar.value(m_out, "the particles drained");
  ar.value(m_blocked, "the faucet's blocked points");
  if (ar.loading() && !(m_advance >= 0.0 && m_advance < m_spacing && m_massIn >= 0.0 &&
                        m_massOut >= 0.0 && m_in >= 0 && m_out >= 0 && m_blocked >= 0))
    throw StateError("the faucet's or outlet's totals are negative or out of range");
}

void OutflowJet::add(const Vec3& x, const Vec3& v) {
  m_x.push_back(x), m_v.push_back(v), m_age.push_back(0.0);
}

// (14.7): each drop on its parabola, by the exact step of constant acceleration.
void OutflowJet::advance(double dt, const Vec3& gravity) {
  std::size_t kept = 0;
  const std::size_t first = m_x.size() > kMost ? m_x.size() - kMost : 0;
  for (std::size_t i = first; i < m_x.size(); ++i) {
    if (m_age[i] + dt > kLife) continue;
    m_x[kept] = m_x[i] + dt * m_v[i] + (0.5 * dt * dt) * gravity;
    m_v[kept] = m_v[i] + dt * gravity;
    m_age[kept] = m_age[i] + dt;
    ++kept;
  }
  m_x.resize(kept), m_v.resize(kept), m_age.resize(kept);
}

template class Pour<2>;
template class Pour<3>;

}  // namespace sloshlab
