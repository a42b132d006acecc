// Probes: wave gauges and pressure sensors placed in the container's frame, recorded at
// a fixed rate in simulated time (docs/physics.md (11.9) and (11.11); the command line's
// --probe, docs/cli.md).
//
//   gauge:x=0.05                  the surface's height above the floor at x (3D: on the
//                                 mid-plane z = size_z / 2, or at z=...)
//   sensor:x=0,y=0.03[,z=0.1][,r=0.01]
//                                 the mean pressure of the particles within r of the point
//                                 (r: two spacings by default); a point on a wall reads
//                                 the wall's pressure there
#pragma once

#include "sloshlab/simulation.h"

#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace sloshlab {

// A probe that cannot be placed, in one line.
class ProbeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Probe {
  enum class Kind { Gauge, Sensor };
  Kind kind = Kind::Gauge;
  Vec3 at{0.0};          // container frame (m); a gauge uses x (and z)
  bool hasY = false, hasZ = false;
  double radius = 0.0;   // a sensor's (m); 0: two spacings
  std::string text;      // as given, for messages and the CSV header
};

// Reads "gauge:x=..." or "sensor:x=...,y=...[,z=...][,r=...]". Throws ProbeError.
Probe parseProbe(const std::string& text);
// Why `probe` cannot be placed in this simulation's container, or "": a point outside the
// container (a sensor may sit on a wall), z in 2D, a radius too large. Fills in the
// defaults (the mid-plane, two spacings) on the way.
std::string placeProbe(Probe& probe, const Simulation& sim);

// The mean pressure (Pa) of the particles whose centres lie within `radius` of `at`
// (container frame), physics.md (11.11); 0 where none does (a dry sensor reads the
// atmosphere's gauge pressure); NaN where the solver has no pressure.
double pressureAt(const Simulation& sim, const Vec3& at, double radius);

// Samples every probe at t = 0, 1/rate, 2/rate, ... (the first step that reaches each):
// per probe the gauge's height h (m) at that moment, or the sensor's pressure p (Pa)
// averaged over the steps since the last sample, each weighted by its dt (a transducer's
// integration time: one step's pressure of an incompressible solver is its last
// iteration's correction, noisy from step to step; (11.11)).
class ProbeSampler {
 public:
  ProbeSampler(std::vector<Probe> probes, double rate);
  // After each step (and once before the first). True when a sample was due: `row` holds
  // the time, then one value per probe.
  bool sample(const Simulation& sim, std::vector<double>& row);
  const std::vector<Probe>& probes() const { return m_probes; }
  double rate() const { return 1.0 / m_interval; }
  // "time,h_m_at_x0.05,p_Pa_at_x0_y0.03": the CSV header, a column name per probe.
  std::string header() const;
  static std::string columnName(const Probe& probe);

 private:
  std::vector<Probe> m_probes;
  std::vector<double> m_pressureSum, m_pressureTime;  // per probe, since the last sample
  double m_lastTime = 0.0;
  double m_interval;
  long m_next = 0;  // the next sample's number
};

// The samples into a CSV written under a temporary name and renamed when finished.
class ProbeRecorder {
 public:
  ProbeRecorder(std::vector<Probe> probes, double rate, std::string path);
  ~ProbeRecorder();
  void sample(const Simulation& sim);  // after each step (and once before the first)
  void finish();

 private:
  ProbeSampler m_sampler;
  std::vector<double> m_row;
  std::string m_path, m_tmp;
  std::ofstream m_out;
  bool m_finished = false;
};

// The rows as CSV text (the window's Save).
std::string probeCsv(const ProbeSampler& sampler, const std::vector<std::vector<double>>& rows);

}  // namespace sloshlab
