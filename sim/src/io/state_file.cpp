// Save and resume (sloshlab/state_file.h): the header, the checksum and the set-up;
// the rest of the body is SimulationImpl::exchangeState's (state_archive.h).
#include "sloshlab/state_file.h"
#include "sloshlab/run_settings.h"

#include "simulation_impl.h"
#include "io/state_archive.h"
#include "sloshlab/atomic_file.h"
#include "sloshlab/emitter.h"
#include "sloshlab/file_checks.h"
#include "sloshlab/scene.h"

#include <array>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

namespace sloshlab {

namespace {

constexpr char kMagic[16] = "SLOSHLAB STATE\n";  // 15 characters and the terminating zero
constexpr std::uint32_t kByteOrderMark = 0x01020304;
constexpr std::size_t kHeaderSize = 40;
constexpr std::uint32_t kMaxOverrides = 1000;

// FNV-1a, 64 bits (Fowler, Noll, Vo): enough to tell a damaged file, not a forged one.
std::uint64_t fnv1a(std::string_view bytes) {
  std::uint64_t h = 14695981039346656037ull;
  for (const char c : bytes) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return h;
}

template <class T>
void put(std::string& out, T value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof value);
}
template <class T>
T get(std::string_view bytes, std::size_t at) {
  T value;
  std::memcpy(&value, bytes.data() + at, sizeof value);
  return value;
}

// The run's set-up: the scene as JSON (scene_writer.cpp) and the choices made on top.
void exchangeSetup(StateArchive& ar, SimulationSetup& setup, std::string& sceneJson, std::string& sceneOrigin) {
  std::int32_t dim = setup.dim;
  ar.value(dim, "the dimension");
  if (dim != 2 && dim != 3) throw StateError("the dimension is " + std::to_string(dim));
  setup.dim = dim;
  ar.string(setup.solver, "the solver's name");
  ar.value(setup.spacing, "the spacing");
  std::uint32_t overrides = static_cast<std::uint32_t>(setup.overrides.size());
  ar.value(overrides, "the number of --set overrides");
  if (overrides > kMaxOverrides) throw StateError("it holds " + std::to_string(overrides) + " --set overrides");
  setup.overrides.resize(overrides);
  for (auto& [key, value] : setup.overrides) {
    ar.string(key, "an override's name");
    ar.string(value, "an override's value");
  }
  ar.value(setup.seed, "the seed");
  ar.string(sceneJson, "the scene");
  ar.string(sceneOrigin, "the scene's origin");
  std::vector<MotionScript::Row> rows = setup.motion.rows();
  ar.vector(rows, "the motion script");
  if (ar.loading()) {
    // 0 (the scene's), or within the bounds of --spacing and the scene's "spacing".
    const ParamInfo& range = runSetting("spacing");
    if (setup.spacing != 0.0 && !(setup.spacing >= range.min && setup.spacing <= range.max))
      throw StateError("the spacing is outside " + describeRange(range.min, range.max) + " m");
    try {
      setup.motion = rows.empty() ? MotionScript() : MotionScript::fromRows(std::move(rows));
    } catch (const std::runtime_error& e) {
      throw StateError(std::string("the motion script: ") + e.what());
    }
  }
}

template <int D>
SimulationImpl<D>& typed(Simulation& sim) {
  auto* impl = dynamic_cast<SimulationImpl<D>*>(&sim);
  if (!impl) throw std::logic_error("a simulation not made by Simulation::create");
  return *impl;
}

void exchangeRun(StateArchive& ar, Simulation& sim) {
  if (sim.dim() == 2)
    typed<2>(sim).exchangeState(ar);
  else
    typed<3>(sim).exchangeState(ar);
}

std::unique_ptr<Simulation> loadBody(std::string_view body, const std::string& origin, double maxParticles) {
  const std::string file = "state file '" + origin + "'";
  StateArchive ar = StateArchive::reader(body);
  SimulationSetup setup;
  std::string sceneJson, sceneOrigin;
  std::unique_ptr<Simulation> sim;
  try {
    exchangeSetup(ar, setup, sceneJson, sceneOrigin);
  } catch (const StateError& e) {
    throw StateFileError(file + " is damaged: " + e.what());
  }
  try {
    setup.scene = parseScene(sceneJson, origin + " (its scene)");
    setup.scene.origin = sceneOrigin;  // where the run's scene came from: a file, or builtin:<name>
    if (maxParticles > 0.0) {
      const std::string& solver = setup.solver.empty() ? setup.scene.solver : setup.solver;
      const double spacing = setup.spacing > 0.0 ? setup.spacing : setup.scene.spacingFor(solver, setup.dim);
      const double n = setup.dim == 2 ? estimateParticleCount<2>(setup.scene, spacing)
                                      : estimateParticleCount<3>(setup.scene, spacing);
      if (!(n <= maxParticles)) throw std::runtime_error("more particles than the budget");
    }
    sim = Simulation::create(setup);
  } catch (const std::runtime_error& e) {
    throw StateFileError(file + ": its set-up does not start: " + e.what());
  }
  try {
    exchangeRun(ar, *sim);
    ar.expectEnd();
  } catch (const StateError& e) {
    throw StateFileError(file + " is damaged: " + e.what());
  }
  return sim;
}

}  // namespace

std::string saveState(Simulation& sim) {
  if (sim.failed()) throw std::runtime_error("there is no state to save: " + sim.failureMessage());
  StateArchive ar = StateArchive::writer();
  SimulationSetup setup = sim.setup();
  std::string sceneJson = sceneToJson(setup.scene), sceneOrigin = setup.scene.origin;
  exchangeSetup(ar, setup, sceneJson, sceneOrigin);
  exchangeRun(ar, sim);
  const std::string& body = ar.bytes();
  std::string out(kMagic, sizeof kMagic);
  put(out, kStateVersion);
  put(out, kByteOrderMark);
  put(out, static_cast<std::uint64_t>(body.size()));
  put(out, fnv1a(body));
  out += body;
  return out;
}

void writeStateFile(const std::string& path, Simulation& sim) {
  writeFileAtomically(path, saveState(sim));
}

namespace {

std::string_view checkedBody(std::string_view bytes, const std::string& origin, bool verifyChecksum) {
  const std::string file = "state file '" + origin + "'";
  if (bytes.size() < sizeof kMagic || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
    throw StateFileError("'" + origin + "' is not a sloshlab state file");
  if (bytes.size() < kHeaderSize) throw StateFileError(file + " is damaged: it ends inside its header");
  const auto version = get<std::uint32_t>(bytes, 16);
  if (version != kStateVersion)
    throw StateFileError(file + " has format version " + std::to_string(version) + "; this build reads version " +
                         std::to_string(kStateVersion));
  if (get<std::uint32_t>(bytes, 20) != kByteOrderMark)
    throw StateFileError(file + " was written on a machine of the other byte order");
  const auto length = get<std::uint64_t>(bytes, 24);
  const std::string_view body = bytes.substr(kHeaderSize);
  if (length != body.size())
    throw StateFileError(file + " is damaged: its header gives " + std::to_string(length) + " bytes of state, it holds " +
                         std::to_string(body.size()));
  if (verifyChecksum && get<std::uint64_t>(bytes, 32) != fnv1a(body))
    throw StateFileError(file + " is damaged: its checksum does not match its contents");
  return body;
}

}  // namespace

std::unique_ptr<Simulation> loadState(std::string_view bytes, const std::string& origin) {
  return loadBody(checkedBody(bytes, origin, true), origin, 0.0);
}

std::unique_ptr<Simulation> loadStateUnchecked(std::string_view bytes, const std::string& origin,
                                               double maxParticles) {
  return loadBody(checkedBody(bytes, origin, false), origin, maxParticles);
}

std::unique_ptr<Simulation> readStateFile(const std::string& path) {
  const std::string problem = inputFileProblem(path);
  if (!problem.empty()) throw StateFileError("state file '" + path + "': " + problem);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw StateFileError("state file '" + path + "' cannot be opened");
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw StateFileError("state file '" + path + "' cannot be read");
  return loadState(bytes, path);
}

}  // namespace sloshlab
