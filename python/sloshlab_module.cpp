// The Python module `sloshlab` (docs/python.md): the engine's simulations, their
// particles as NumPy arrays, container motions, the experiments, exports, state files
// and sweeps. Every engine error reaches Python as sloshlab.Error with the command
// line's one-line message.
//
// The particle arrays: the engine keeps its particles in the container's frame and
// reorders them in place every step (sph/particle_sort.h swaps whole buffers), so a view
// straight into its memory would dangle after the next step. Each simulation object
// owns one read-only array per quantity instead; it is refilled in place (no new
// allocation while the particle count stands) the first time it is read after a step.
#include "sloshlab/experiments.h"
#include "sloshlab/export.h"
#include "sloshlab/gauges.h"
#include "sloshlab/probes.h"
#include "sloshlab/motions.h"
#include "sloshlab/scene.h"
#include "sloshlab/simulation.h"
#include "sloshlab/solver_registry.h"
#include "sloshlab/state_file.h"
#include "sloshlab/sweep.h"
#ifdef SLOSHLAB_HAVE_GPU
#include "sloshlab/gpu.h"
#endif

#include <omp.h>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <filesystem>
#include <memory>
#include <optional>
#include <sstream>

namespace py = pybind11;

namespace sloshlab::python {

namespace {

// A parameter's value as --set reads it: 0.1 as "0.1" (the shortest exact text),
// True as "true", text as it is.
std::string valueText(const py::handle& value) {
  if (py::isinstance<py::bool_>(value)) return value.cast<bool>() ? "true" : "false";
  if (py::isinstance<py::int_>(value)) return std::to_string(value.cast<long long>());
  if (py::isinstance<py::float_>(value)) {
    std::ostringstream text;
    text.precision(17);
    text << value.cast<double>();
    return text.str();
  }
  if (py::isinstance<py::str>(value)) return value.cast<std::string>();
  throw ParamError("a parameter's value is a number, a bool or a string, not " +
                   std::string(py::str(value.get_type().attr("__name__"))));
}

FieldKind fieldKind(const std::string& name) {
  for (int k = 0; k < static_cast<int>(FieldKind::Count); ++k)
    if (name == fieldName(static_cast<FieldKind>(k))) return static_cast<FieldKind>(k);
  throw std::runtime_error("unknown field '" + name + "' (known: speed, density, pressure, vorticity)");
}

// A motion from the lab's kinds (sloshlab/motions.h), its fields as keywords.
struct Motion {
  MotionSpec spec;
  MotionScript script;  // in 3D; makeMotion(spec, dim) for a 2D run
  std::string description;
};

Motion makeMotionFrom(const std::string& kind, const py::kwargs& fields) {
  MotionSpec s;
  bool found = false;
  for (int k = 0; k < static_cast<int>(MotionKind::Count); ++k)
    if (kind == motionKindName(static_cast<MotionKind>(k))) s.kind = static_cast<MotionKind>(k), found = true;
  if (!found) throw std::runtime_error("motion: unknown kind '" + kind + "' (known: shake, sweep, acceleration, step, rotation, tilt, impulse, swirl, spin)");
  for (const auto& [key, value] : fields) {
    const std::string name = py::str(key);
    const double x = value.cast<double>();
    if (!std::isfinite(x)) throw std::runtime_error("motion: '" + name + "' must be finite");
    if (name == "axis") s.axis = static_cast<int>(x);
    else if (name == "amplitude") s.amplitude = x;
    else if (name == "frequency") s.frequency = x;
    else if (name == "frequency_end") s.frequencyEnd = x;
    else if (name == "duration") s.duration = x;
    else if (name == "acceleration") s.acceleration = x;
    else if (name == "distance") s.distance = x;
    else if (name == "rate") s.rate = x;
    else if (name == "angle") s.angle = x;
    else if (name == "speed") s.speed = x;
    else if (name == "ramp_time") s.rampTime = x;
    else
      throw std::runtime_error("motion: unknown field '" + name +
                               "' (known: axis, amplitude, frequency, frequency_end, duration, acceleration, "
                               "distance, rate, angle, speed, ramp_time)");
  }
  return {s, makeMotion(s, 3), kind};
}

template <class T>
py::array_t<T> readOnly(py::array_t<T> a) {
  py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return a;
}

py::dict statsDict(const StepStats& s) {
  py::dict d;
  d["step"] = s.step;
  d["time"] = s.time;
  d["dt"] = s.dt;
  d["particles"] = s.particles;
  d["mass"] = s.mass;
  d["momentum"] = py::make_tuple(s.momentum.x, s.momentum.y, s.momentum.z);
  d["angular_momentum"] = py::make_tuple(s.angularMomentum.x, s.angularMomentum.y, s.angularMomentum.z);
  d["kinetic_energy"] = s.kineticEnergy;
  d["potential_energy"] = s.potentialEnergy;
  d["max_speed"] = s.maxSpeed;
  d["density_error_max"] = s.solver.densityErrorMax;
  d["density_error_mean"] = s.solver.densityErrorMean;
  // The solver's own figures, named as the --stats columns (nan where it measures none).
  d["divergence_max"] = s.solver.divergenceMax;
  d["iterations"] = s.solver.iterations;
  d["divergence_iterations"] = s.solver.divergenceIterations;
  d["residual"] = s.solver.residual;
  d["collisions"] = s.solver.collisions;
  d["liquid_volume"] = s.solver.liquidVolume;
  d["wall_ms"] = s.wallMs;
  d["threads"] = s.threads;
  return d;
}

class PySimulation {
 public:
  explicit PySimulation(std::unique_ptr<Simulation> sim) : m_sim(std::move(sim)) {}

  static PySimulation create(const std::string& scene, const std::string& solver, int dim, double spacing,
                             const py::dict& params, std::uint64_t seed, const py::object& motion) {
    SimulationSetup setup;
    setup.scene = loadScene(scene);
    if (dim != 2 && dim != 3) throw std::runtime_error("dim must be 2 or 3 (got " + std::to_string(dim) + ")");
    setup.dim = dim;
    if (!solver.empty() && !findSolverInfo(solver))
      throw std::runtime_error("unknown solver '" + solver + "' (known: " + solverNameList() + ")");
    setup.solver = solver;
    if (!std::isfinite(spacing) || spacing < 0.0) throw std::runtime_error("spacing must be a finite length >= 0 (m)");
    setup.spacing = spacing;
    for (const auto& [key, value] : params) setup.overrides.emplace_back(py::str(key), valueText(value));
    setup.seed = seed;
    if (!motion.is_none()) setup.motion = motionScript(motion, dim);
    std::unique_ptr<Simulation> sim;
    {
      py::gil_scoped_release unlocked;  // the engine only; Python objects are made with the GIL held
      sim = Simulation::create(setup);
    }
    return PySimulation(std::move(sim));
  }

  static PySimulation load(const std::string& path) {
    std::unique_ptr<Simulation> sim;
    {
      py::gil_scoped_release unlocked;
      sim = readStateFile(path);
    }
    return PySimulation(std::move(sim));
  }

  Simulation& sim() { return *m_sim; }

  void step(int count) {
    if (count < 0) throw std::runtime_error("step count must be >= 0");
    {
      py::gil_scoped_release unlocked;
      for (int k = 0; k < count && !m_sim->failed(); ++k) m_sim->step();
    }
    throwIfFailed();
  }

  void advance(double seconds) {
    if (!std::isfinite(seconds) || seconds < 0.0) throw std::runtime_error("advance takes a finite time >= 0 (s)");
    {
      py::gil_scoped_release unlocked;
      m_sim->advanceTo(m_sim->time() + seconds);
    }
    throwIfFailed();
  }

  // The particle arrays, refilled after a step (see the file's comment).
  py::array_t<double> positions() { return *refreshed().worldX; }
  py::array_t<double> velocities() { return *refreshed().worldV; }
  py::array_t<double> containerPositions() { return *refreshed().localX; }
  py::array_t<double> containerVelocities() { return *refreshed().localV; }
  py::array_t<std::uint32_t> ids() {
    std::vector<std::uint32_t> out;
    m_sim->particleIds(out);
    py::array_t<std::uint32_t> a(static_cast<py::ssize_t>(out.size()));
    std::copy(out.begin(), out.end(), a.mutable_data());
    return readOnly(a);
  }
  py::object field(const std::string& name) {
    std::vector<float> out;
    if (!m_sim->field(fieldKind(name), out)) return py::none();
    py::array_t<float> a(static_cast<py::ssize_t>(out.size()));
    std::copy(out.begin(), out.end(), a.mutable_data());
    return readOnly(a);
  }

  // The surface's height above the floor under each container-frame x (m), physics.md (11.9).
  std::vector<double> surfaceHeights(const std::vector<double>& x) {
    for (double g : x)
      if (!std::isfinite(g) || g < 0.0 || g > m_sim->container().size.x)
        throw std::runtime_error("a wave gauge's x must lie in the container, [0, " +
                                 std::to_string(m_sim->container().size.x) + "] m");
    WaveGauges gauges(x);
    return gauges.heights(*m_sim);
  }

  // A pressure sensor's reading now (Pa), physics.md (11.11) without the time average.
  double pressureAtPoint(const std::vector<double>& at, double radius) {
    Probe probe;
    probe.kind = Probe::Kind::Sensor;
    if (at.size() < 2 || at.size() > 3) throw std::runtime_error("pressure_at takes (x, y) or (x, y, z) in the container's frame (m)");
    for (std::size_t k = 0; k < at.size(); ++k) probe.at[static_cast<int>(k)] = at[k];
    probe.hasY = true, probe.hasZ = at.size() == 3, probe.radius = radius;
    probe.text = "sensor";
    if (!(radius > 0.0) || !std::isfinite(radius)) throw std::runtime_error("pressure_at: the radius must be positive (m)");
    if (const std::string problem = placeProbe(probe, *m_sim); !problem.empty()) throw std::runtime_error(problem);
    return pressureAt(*m_sim, probe.at, probe.radius);
  }

  py::dict params() {
    ParamRef p = m_sim->solverParams();
    py::dict d;
    for (const ParamInfo& info : p.table().entries) {
      const double v = p.get(info);
      if (info.kind == ParamKind::Toggle) d[info.key] = v != 0.0;
      else if (info.kind == ParamKind::Integer) d[info.key] = static_cast<long>(v);
      else if (info.kind == ParamKind::Choice) d[info.key] = std::string(info.choices[static_cast<std::size_t>(v)]);
      else d[info.key] = v;
    }
    return d;
  }
  py::list paramInfo() {
    py::list out;
    for (const ParamInfo& info : m_sim->solverParams().table().entries) {
      py::dict d;
      d["key"] = info.key, d["label"] = info.label, d["unit"] = info.unit, d["group"] = info.group;
      d["min"] = info.min, d["max"] = info.max, d["description"] = info.description;
      out.append(d);
    }
    return out;
  }
  // The strict path of --set: an unknown key, bad text or a value out of range throws.
  void setParam(const std::string& key, const py::handle& value) {
    m_sim->solverParams().setFromText(key, valueText(value));
    m_sim->solverParamsEdited();
  }

  py::dict container() const {
    const ContainerState& c = m_sim->container();
    py::dict d;
    d["position"] = py::make_tuple(c.pose.position.x, c.pose.position.y, c.pose.position.z);
    d["angle"] = c.pose.angle;
    d["angle_x"] = c.pose.angleX;
    d["angle_y"] = c.pose.angleY;
    d["size"] = py::make_tuple(c.size.x, c.size.y, c.size.z);
    d["velocity"] = py::make_tuple(c.velocity.x, c.velocity.y, c.velocity.z);
    d["angular_velocity"] = py::make_tuple(c.angularVelocity.x, c.angularVelocity.y, c.angularVelocity.z);
    return d;
  }
  // The floating bodies as the Scene panel shows them (physics.md §16), in the container's
  // frame: vectors of dim values (2D: the turn rate and torque about z alone).
  py::list bodies() const {
    py::list out;
    const int dim = m_sim->dim();
    const auto vec = [dim](const Vec3& v) {
      return dim == 2 ? py::make_tuple(v.x, v.y) : py::make_tuple(v.x, v.y, v.z);
    };
    const auto turn = [dim](const Vec3& v) -> py::object {
      if (dim == 2) return py::float_(v.z);
      return py::make_tuple(v.x, v.y, v.z);
    };
    for (const BodyView& b : m_sim->bodies()) {
      py::dict d;
      d["shape"] = BodySpec::shapeName(b.spec.shape);
      d["density"] = b.spec.density;
      d["mass"] = b.mass;
      d["position"] = vec(b.position);
      d["velocity"] = vec(b.velocity);
      d["angular_velocity"] = turn(b.angularVelocity);
      py::list rows;
      for (int r = 0; r < 3; ++r) rows.append(py::make_tuple(b.rotation[0][r], b.rotation[1][r], b.rotation[2][r]));
      d["rotation"] = rows;
      d["draft"] = b.draft;
      d["force"] = vec(b.fluidForce);
      d["torque"] = turn(b.fluidTorque);
      out.append(d);
    }
    return out;
  }
  void setBodyDensity(long long k, double density) {
    const long long count = static_cast<long long>(m_sim->bodies().size());
    if (k < 0 || k >= count)
      throw std::runtime_error("set_body_density: body " + std::to_string(k) + " does not exist (the scene has " +
                               std::to_string(count) + ")");
    if (!std::isfinite(density) || density < 1.0 || density > 1e5)
      throw std::runtime_error("set_body_density: the density must lie in [1, 1e5] kg/m^3");
    m_sim->setBodyDensity(static_cast<std::size_t>(k), density);
  }
  // The container follows the mouse's spring toward this pose (physics.md (8.7)).
  void moveTo(const std::vector<double>& position, double angle, double angleX, double angleY) {
    if (position.size() < 2 || position.size() > 3) throw std::runtime_error("move_to takes (x, y) or (x, y, z) in metres");
    ContainerPose pose;
    for (std::size_t k = 0; k < position.size(); ++k) {
      if (!std::isfinite(position[k])) throw std::runtime_error("move_to: the position must be finite");
      pose.position[static_cast<int>(k)] = position[k];
    }
    if (!std::isfinite(angle) || !std::isfinite(angleX) || !std::isfinite(angleY))
      throw std::runtime_error("move_to: the angles must be finite");
    pose.angle = angle, pose.angleX = angleX, pose.angleY = angleY;
    m_sim->driver().setTarget(pose);
  }
  // A motion played from now, starting where the container stands.
  void play(const py::object& motion) {
    const MotionScript script = motionScript(motion, m_sim->dim());
    const ContainerPose now = m_sim->container().pose, home = m_sim->driver().home();
    std::vector<MotionScript::Row> rows;
    for (MotionScript::Row r : script.rows()) {
      r.t += m_sim->time();
      r.offset += now.position - home.position;
      r.angle += now.angle - home.angle;
      r.angleX += now.angleX - home.angleX;
      r.angleY += now.angleY - home.angleY;
      rows.push_back(r);
    }
    m_sim->driver().setScript(MotionScript::fromRows(std::move(rows)));
  }

  void saveState(const std::string& path) { writeStateFile(path, *m_sim); }
  void saveScene(const std::string& path) { writeFileAtomically(path, sceneToJson(sceneOfRun(*m_sim))); }
  // One frame into `dir`, as --export writes each; the same directory and format again
  // appends a frame (container.csv grows a row).
  void exportFrame(const std::string& dir, const std::string& format) {
    const auto f = parseExportFormat(format);
    if (!f) throw std::runtime_error("unknown export format '" + format + "' (known: csv, vtk, ply)");
    if (!m_exporter || dir != m_exportDir || *f != m_exportFormat) {
      if (const std::string problem = exportDirProblem(dir); !problem.empty()) throw std::runtime_error(problem);
      m_exporter.reset();
      m_exporter = std::make_unique<ParticleExporter>(dir, m_sim->dim(), *f);
      m_exportDir = dir, m_exportFormat = *f;
    }
    m_exporter->exportStep(*m_sim);
  }

  static MotionScript motionScript(const py::object& motion, int dim) {
    if (py::isinstance<Motion>(motion)) return makeMotion(motion.cast<const Motion&>().spec, dim);
    if (py::isinstance<py::str>(motion)) return MotionScript::load(motion.cast<std::string>());
    throw std::runtime_error("a motion is a sloshlab.motion(...) or the path of a motion CSV");
  }

 private:
  // Made on first use: a NumPy array may only be made with the GIL held.
  struct Arrays {
    std::optional<py::array_t<double>> worldX, worldV, localX, localV;
  };

  void throwIfFailed() const {
    if (m_sim->failed()) throw std::runtime_error(m_sim->failureMessage());
  }

  const Arrays& refreshed() {
    const long stamp = m_sim->stepCount();
    const std::size_t n = m_sim->particleCount();
    if (stamp == m_stamp && n == m_count && m_arrays.worldX) return m_arrays;
    const int dim = m_sim->dim();
    auto fill = [&](std::optional<py::array_t<double>>& a, const std::vector<Vec3>& values) {
      if (!a || static_cast<std::size_t>(a->shape(0)) != n) {
        a = py::array_t<double>({static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(dim)});
        readOnly(*a);
      }
      // Writing through the buffer: the flag guards Python's side only.
      double* out = static_cast<double*>(a->request(false).ptr);
      for (std::size_t i = 0; i < n; ++i)
        for (int k = 0; k < dim; ++k) out[i * dim + k] = values[i][k];
    };
    m_sim->worldParticles(m_x, m_v);
    fill(m_arrays.worldX, m_x), fill(m_arrays.worldV, m_v);
    m_sim->containerParticles(m_x, m_v);
    fill(m_arrays.localX, m_x), fill(m_arrays.localV, m_v);
    m_stamp = stamp, m_count = n;
    return m_arrays;
  }

  std::unique_ptr<Simulation> m_sim;
  Arrays m_arrays;
  long m_stamp = -1;
  std::size_t m_count = 0;
  std::vector<Vec3> m_x, m_v;
  std::unique_ptr<ParticleExporter> m_exporter;
  std::string m_exportDir;
  ExportFormat m_exportFormat = ExportFormat::Csv;
};

py::dict experimentDict(const ExperimentResult& r) {
  py::dict d;
  d["experiment"] = r.experiment, d["solver"] = r.solver, d["dim"] = r.dim, d["particles"] = r.particles;
  d["quantity"] = r.quantity, d["unit"] = r.unit, d["measured"] = r.measured, d["reference"] = r.reference;
  d["relative_error"] = r.relativeError, d["method"] = r.method;
  py::dict curve;
  for (std::size_t c = 0; c < r.columns.size(); ++c) {
    py::array_t<double> a(static_cast<py::ssize_t>(r.rows.size()));
    double* out = a.mutable_data();
    for (std::size_t i = 0; i < r.rows.size(); ++i) out[i] = c < r.rows[i].size() ? r.rows[i][c] : std::nan("");
    curve[py::str(r.columns[c])] = readOnly(a);
  }
  d["curve"] = curve;
  return d;
}

py::dict sweepRunDict(const SweepRun& run) {
  py::dict d;
  d["index"] = run.index, d["label"] = run.label, d["scene"] = run.scene, d["solver"] = run.solver;
  d["dim"] = run.dim, d["spacing"] = run.spacing, d["duration"] = run.duration, d["seed"] = run.seed;
  d["params"] = run.params;
  return d;
}

}  // namespace

}  // namespace sloshlab::python

PYBIND11_MODULE(sloshlab, m) {
  using namespace sloshlab;
  using namespace sloshlab::python;
  m.doc() = "sloshlab: the particle-fluid lab's engine from Python (docs/python.md)";
#ifdef SLOSHLAB_HAVE_GPU
  gpu::registerGpuSolvers();  // gpu-pbf and gpu-dfsph by name; each checks for OpenGL 4.3 when made
#endif

  static py::exception<std::runtime_error> error(m, "Error", PyExc_RuntimeError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const std::runtime_error& e) {
      error(e.what());
    }
  });

  py::class_<Motion>(m, "Motion", "A scripted container motion (sloshlab.motion, or a CSV path where one is taken)")
      .def_property_readonly("duration", [](const Motion& mo) { return mo.script.empty() ? 0.0 : mo.script.rows().back().t; })
      .def("__repr__", [](const Motion& mo) { return "<sloshlab.Motion " + mo.description + ">"; });
  m.def("motion", &makeMotionFrom, py::arg("kind"),
        "A motion of the Motions panel: shake, sweep, acceleration, step, rotation, tilt, impulse, swirl or spin (3D), "
        "its fields as "
        "keywords (amplitude=0.005, frequency=1.9, duration=3, ...)");

  py::class_<PySimulation>(m, "Simulation", "A running simulation: a scene's liquid in its container, one solver")
      .def(py::init(&PySimulation::create), py::arg("scene") = "bottle", py::arg("solver") = "", py::arg("dim") = 2,
           py::arg("spacing") = 0.0, py::arg("params") = py::dict(), py::arg("seed") = 1, py::arg("motion") = py::none(),
           "scene: a built-in name or a scene file; solver: '' for the scene's; spacing in m (0: the scene's); "
           "params: {key: value} as --set; motion: sloshlab.motion(...) or a motion CSV")
      .def_static("load_state", &PySimulation::load, py::arg("path"), "The simulation a state file holds")
      .def("step", &PySimulation::step, py::arg("count") = 1, "Steps `count` steps of the solver's own dt")
      .def("advance", &PySimulation::advance, py::arg("seconds"), "Steps on by this much simulated time (s)")
      .def_property_readonly("dim", [](PySimulation& s) { return s.sim().dim(); })
      .def_property_readonly("solver", [](PySimulation& s) { return s.sim().solverName(); })
      .def_property_readonly("scene", [](PySimulation& s) { return s.sim().setup().scene.name; })
      .def_property_readonly("spacing", [](PySimulation& s) { return s.sim().spacing(); })
      .def_property_readonly("time", [](PySimulation& s) { return s.sim().time(); })
      .def_property_readonly("steps", [](PySimulation& s) { return s.sim().stepCount(); })
      .def_property_readonly("particle_count", [](PySimulation& s) { return s.sim().particleCount(); })
      .def("__len__", [](PySimulation& s) { return s.sim().particleCount(); })
      .def_property_readonly("failed", [](PySimulation& s) { return s.sim().failed(); })
      .def_property_readonly("stats", [](PySimulation& s) { return statsDict(s.sim().stats()); })
      .def_property_readonly("positions", &PySimulation::positions, "World positions (m), (N, dim), read-only")
      .def_property_readonly("velocities", &PySimulation::velocities, "World velocities (m/s), (N, dim), read-only")
      .def_property_readonly("container_positions", &PySimulation::containerPositions,
                             "Positions in the container's frame (m): the walls at 0 and size")
      .def_property_readonly("container_velocities", &PySimulation::containerVelocities,
                             "Velocities relative to the container (m/s)")
      .def_property_readonly("ids", &PySimulation::ids, "Each particle's number, in the arrays' order")
      .def("field", &PySimulation::field, py::arg("name"),
           "A colour field per particle: speed, density, pressure or vorticity (None where the solver lacks it)")
      .def("surface_heights", &PySimulation::surfaceHeights, py::arg("x"),
           "Wave gauges: the liquid's height above the floor under each container-frame x (m), physics.md (11.9)")
      .def("pressure_at", &PySimulation::pressureAtPoint, py::arg("point"), py::arg("radius"),
           "A pressure sensor: the mean pressure (Pa) of the particles within radius of a container-frame point")
      .def_property_readonly("params", &PySimulation::params, "The solver's parameters now")
      .def("param_info", &PySimulation::paramInfo, "Each parameter's key, unit, range and equation")
      .def("set_param", &PySimulation::setParam, py::arg("key"), py::arg("value"),
           "Sets a parameter as --set does: an unknown key or a value out of range raises sloshlab.Error")
      .def_property_readonly(
          "pour",
          [](PySimulation& s) {
            const PourStats p = s.sim().pourStats();
            py::dict d;
            d["has_faucet"] = p.hasFaucet, d["has_outlet"] = p.hasOutlet;
            d["faucet_on"] = p.faucetOn, d["outlet_on"] = p.outletOn;
            d["rate"] = p.rate, d["mass_in"] = p.massIn, d["mass_out"] = p.massOut;
            d["particles_in"] = p.particlesIn, d["particles_out"] = p.particlesOut, d["blocked"] = p.blocked;
            return d;
          },
          "The faucet's and outlet's totals (physics.md §14): mass in and out (kg; kg/m in 2D), rate (m^dim/s)")
      .def(
          "set_pour",
          [](PySimulation& s, bool faucet, bool outlet) { s.sim().setFaucetOn(faucet), s.sim().setOutletOn(outlet); },
          py::arg("faucet"), py::arg("outlet"), "Switches the scene's faucet and outlet on or off")
      .def_property_readonly("container", &PySimulation::container)
      .def_property_readonly("bodies", &PySimulation::bodies,
                             "The floating bodies (physics.md §16), container frame: shape, density, mass, position, "
                             "velocity, angular_velocity, rotation (body axes as columns), draft, force, torque")
      .def("set_body_density", &PySimulation::setBodyDensity, py::arg("index"), py::arg("density"),
           "A body's density (kg/m^3, 1 to 1e5), as the Scene panel's slider sets it")
      .def("move_to", &PySimulation::moveTo, py::arg("position"), py::arg("angle") = 0.0, py::arg("angle_x") = 0.0,
           py::arg("angle_y") = 0.0,
           "The container follows the mouse's spring toward this world pose (angle_x, angle_y: 3D only)")
      .def("play", &PySimulation::play, py::arg("motion"), "Plays a motion from now, from where the container stands")
      .def("save_state", &PySimulation::saveState, py::arg("path"))
      .def("save_scene", &PySimulation::saveScene, py::arg("path"))
      .def("export", &PySimulation::exportFrame, py::arg("dir"), py::arg("format") = "csv",
           "Writes this frame as --export does (csv, vtk or ply)");

  m.def("set_threads", [](int n) {
    if (n < 1 || n > 1024) throw std::runtime_error("threads must lie in [1, 1024]");
    omp_set_num_threads(n);
  }, py::arg("count"), "OpenMP threads for the steps that follow (as --threads)");
  m.def("scenes", &builtinSceneNames, "The built-in scenes");
  m.def("solvers", [] {
    std::vector<std::string> names;
    for (const SolverInfo& s : solverInfos()) names.emplace_back(s.name);
    return names;
  });
  m.def("experiments", [] {
    std::vector<std::string> names;
    for (const ExperimentInfo& e : experimentInfos()) names.emplace_back(e.name);
    return names;
  });
  m.def(
      "run_experiment",
      [](const std::string& name, const std::string& solver, int dim, double spacing) {
        ExperimentRequest request{name, solver, dim, spacing};
        ExperimentResult result;
        {
          py::gil_scoped_release unlocked;
          result = runExperiment(request);
        }
        return experimentDict(result);
      },
      py::arg("name"), py::arg("solver") = "", py::arg("dim") = 2, py::arg("spacing") = 0.0,
      "Runs an experiment: its measurement, reference and curve (columns as arrays)");

  m.def("sweep_runs", [](const std::string& path) {
    py::list out;
    for (const SweepRun& run : loadSweep(path).runs) out.append(sweepRunDict(run));
    return out;
  }, py::arg("path"), "The runs a sweep file expands into");
  m.def(
      "run_sweep",
      [](const std::string& path, const std::string& out, py::object index) {
        const Sweep sweep = loadSweep(path);
        py::list lines;
        std::vector<std::size_t> items;
        if (index.is_none()) {
          for (const SweepRun& r : sweep.runs) items.push_back(r.index);
        } else {
          const long k = index.cast<long>();
          if (k < 0 || static_cast<std::size_t>(k) >= sweep.runs.size())
            throw std::runtime_error("index " + std::to_string(k) + " is out of range [0, " +
                                     std::to_string(sweep.runs.size() - 1) + "]");
          items.push_back(static_cast<std::size_t>(k));
        }
        for (const std::size_t k : items) {
          if (sweepRunFinished(out, k)) continue;
          py::gil_scoped_release unlocked;
          runSweepItem(sweep, k, out);
        }
        if (index.is_none()) mergeSweep(sweep, out);
        return (std::filesystem::path(out) / "summary.csv").string();
      },
      py::arg("path"), py::arg("out"), py::arg("index") = py::none(),
      "Runs a sweep (or item `index`) into `out`, skipping finished runs; returns the merged table's path");
}
