// The energy watchdog shared by every solver (physics.md (10.10)).
//
// Once the container stands still and nothing else drives the liquid (no wind), its
// mechanical energy E = KE + PE per kilogram can only fall: viscosity, collisions and
// numerical dissipation take energy, nothing gives it. The watchdog follows the lowest
// E since the container came to rest and trips when E rises above it by more than
// the allowed gain, kGainShare g H (H the container's largest extent: the energy that
// lifts all of the liquid by a tenth of it). A solver that feeds energy in (a wrong
// pressure push, an unstable time step) trips it long before the liquid is a spray:
// the DFSPH bottle that once blew up 1.4 s after a drag would have tripped it within
// 0.15 s. Any motion of the container, or an edit of the parameters, starts it over.
#pragma once

#include "io/state_archive.h"

#include <algorithm>

namespace sloshlab {

class EnergyWatchdog {
 public:
  static constexpr double kGainShare = 0.1;

  // g: |gravity| (m/s^2); extent: the container's largest extent (m); startSpeed: the
  // fastest particle as emitted (m/s). A compressible liquid stores kinetic energy as
  // compression and gives it back, which E = KE + PE does not count: without gravity
  // only the share kGainShare of the kinetic energy it started with bounds that (a 2D
  // WCSPH gas at 0.5 m/s gained 0.002 J/kg in its first steps, over the 0.001 floor).
  void configure(double g, double extent, double startSpeed = 0.0) {
    m_allowed = std::max({kGainShare * g * extent, kGainShare * startSpeed * startSpeed, 1e-3});
  }
  // Something else gives or takes energy now: the watch starts over at the next observe.
  void interrupt() { m_watching = false; }
  // E per kilogram at time t with the container still; true when it tripped.
  bool observe(double t, double energyPerKg) {
    if (!m_watching || energyPerKg < m_lowest) m_lowest = energyPerKg, m_lowestAt = t, m_watching = true;
    m_gain = energyPerKg - m_lowest;
    return m_gain > m_allowed;
  }
  void exchangeState(StateArchive& ar) {
    ar.value(m_watching, "whether the energy watchdog is watching");
    ar.value(m_lowest, "the lowest energy the watchdog saw");
    ar.value(m_lowestAt, "when the watchdog saw it");
    ar.value(m_gain, "the energy gained since");
  }
  double gain() const { return m_gain; }          // J/kg above the lowest
  double allowed() const { return m_allowed; }    // J/kg
  double lowestAt() const { return m_lowestAt; }  // s

 private:
  bool m_watching = false;
  double m_lowest = 0.0, m_lowestAt = 0.0, m_gain = 0.0;
  double m_allowed = 1.0;
};

}  // namespace sloshlab
