// Fills a scene's fluid blocks with particles on a lattice (square in 2D; in 3D
// square layers with every other layer offset by half a spacing, the BCC-like
// layering of "Fluid Engine Development", Kim 2016, ch. 2), with optional jitter.
// Blocks share one lattice anchored at the container corner, so overlapping blocks
// never put two particles on one site.
#pragma once

#include "sloshlab/math.h"
#include "sloshlab/particles.h"
#include "sloshlab/scene.h"

#include <cstdint>

namespace sloshlab {

// Positions and initial velocities (v = v_block + omega x r); masses are the solver's.
template <int D>
void emitFluid(const Scene& scene, double spacing, std::uint64_t seed, ParticleSet<D>& out);

// Particles emitFluid would give, estimated from the blocks' geometry without emitting
// them: lattice sites per axis for a box, area or volume over s^D for a round shape, at
// most the container's sites in all (blocks may overlap).
template <int D>
double estimateParticleCount(const Scene& scene, double spacing);

// Refuses a spacing whose particles would exceed the limit, before any is allocated:
// the limit used to be checked after emitting (a 1 m box at 1e-4 m allocated ~1 GB
// before it was refused). Throws std::runtime_error stating the limit and its memory.
template <int D>
void checkParticleBudget(const Scene& scene, double spacing);

// Lattice points around the origin within radius r (origin included), for kernel
// normalisation: the same lattice the emitter uses.
template <int D>
std::vector<Vec<D>> latticeNeighbourhood(double spacing, double radius);

}  // namespace sloshlab
