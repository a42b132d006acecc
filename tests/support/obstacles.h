// The obstacles' tests (physics.md §15), shared by the CPU solvers'
// (tests/physics/test_obstacles.cpp) and the GPU path's (tests/gpu/test_gpu_solids.cpp).
#pragma once

#include "support/test_support.h"

#include <string>

namespace sloshlab::test {

// The bottle with a baffle standing on its floor, a post (a disc; in 3D a cylinder
// through the depth), a ball (in 2D a disc) and a slanted capsule, filled to `fill`.
std::string obstacleScene(double fill = 0.15);
// A round glass: the container outside a vertical cylinder of radius 0.09 m.
extern const char* const kRoundGlass;
// A bottle with a neck (the box less a round body and a neck) and a ring baffle across
// its body (a plate across the box less a ball; in 2D two plates with a gap):
// differences (15.1b). The plate runs into the bottle's wall: obstacles that meet must
// overlap, as a face that meets another obstacle's is a way out of it (15.3).
extern const char* const kNeckedBottle;

// Under the containment tests' violent shaking (or their tumble), no particle ends a
// step outside the box or inside an obstacle.
template <int D>
void expectKeptOut(const std::string& solver, double spacing, double duration, const std::string& json = obstacleScene(),
                   bool tumble = false);

// The baffled tank at rest stays at rest, as the tank without its baffle.
template <int D>
void expectBaffledTankRests(const std::string& solver);

// The U-tube's liquid swings with the period 2 pi sqrt(L / (2 g)) of its column, within
// `tolerance` of it.
template <int D>
void expectUTubePeriod(const std::string& solver, double tolerance);

}  // namespace sloshlab::test
