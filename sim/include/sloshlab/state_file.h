// Save and resume: the whole state of a running simulation in one file.
//
// A state file holds the run's set-up (the scene as JSON, the solver, the dimension,
// the spacing, the --set overrides, the seed and the motion script), every parameter's
// current value, the particles with every per-solver channel the next steps read
// (warm starts, the neighbour lists' reference positions, APIC matrices, the grid
// pressure), the container's pose and its driver's state, the time, the step count
// and the energy watchdog. Resuming from it continues the run bit for bit: 30 steps,
// saved, loaded and 30 more equal 60 steps straight.
//
// Layout: a 40-byte header, then the body.
//   bytes  0-15  "SLOSHLAB STATE\n" and a zero byte
//   bytes 16-19  the format version (kStateVersion), little-endian
//   bytes 20-23  the byte order mark 0x01020304 as written by this machine
//   bytes 24-31  the body's length
//   bytes 32-39  the body's 64-bit FNV-1a checksum
// The body is the values' bytes (sim/src/state_archive.h): it is read back by the same
// build of the format on a machine of the same byte order.
#pragma once

#include "sloshlab/simulation.h"

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

namespace sloshlab {

inline constexpr std::uint32_t kStateVersion = 6;  // 2: particle numbers (the inspector); 3: 3D orientation; 4: faucet and outlet; 5: floating bodies; 6: what each body touches

// A file that is not a state file, a damaged one, or one of another version; the
// message is one line that names the file and what is wrong.
class StateFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The state file's bytes. Throws std::runtime_error for a simulation that has failed
// (its state is what the failure left: nothing to resume).
std::string saveState(Simulation& sim);
// Writes saveState(sim) to `path` atomically (sloshlab/atomic_file.h).
void writeStateFile(const std::string& path, Simulation& sim);

// The simulation a state file holds; `origin` names it in messages. Throws StateFileError.
std::unique_ptr<Simulation> loadState(std::string_view bytes, const std::string& origin);
std::unique_ptr<Simulation> readStateFile(const std::string& path);

// For the fuzz target only: the same without the checksum, so that damaged bodies
// reach the body's reader instead of stopping at the checksum, and refusing a set-up
// that would emit more than maxParticles (a mutated spacing asks for millions).
std::unique_ptr<Simulation> loadStateUnchecked(std::string_view bytes, const std::string& origin,
                                               double maxParticles);

}  // namespace sloshlab
