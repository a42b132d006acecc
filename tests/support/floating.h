// The floating bodies' tests (physics.md §16), shared by the CPU solvers'
// (tests/physics/test_bodies.cpp) and the GPU path's (tests/gpu/test_gpu_solids.cpp): a
// tank with a box let go just above the surface, run until it settles, and the figures of
// its last window; the light ball, the heavy box, the momentum, the shaking, resuming.
#pragma once

#include "support/test_support.h"

#include <string>

namespace sloshlab::test {

// A tank 0.4 m wide (and 0.2 m deep in 3D) with 0.15 m of liquid, and a box `width` wide
// and 0.06 m tall (`width` deep in 3D) of `density` let go with its bottom `dropFrom`
// above the surface.
std::string tankWithBox(double density, double dropFrom = 0.005, double width = 0.08);

struct Settled {
  double draft = 0.0;       // mean over the last `window` seconds (m)
  double bottom = 0.0;      // mean height of the body's lowest point (m)
  double speed = 0.0;       // the body's largest speed in the window (m/s)
  double wander = 0.0;      // how far its centre strays from where it was when the window opened (m)
  double tilt = 0.0;        // the largest angle of its y axis from the vertical (rad)
};

// Runs `json` (body 0 a box `width` wide and 0.06 m tall) for `duration` seconds in
// frames of 1/60 s and measures body 0 over the last `window`; a failed run is a test
// failure and returns what it had.
template <int D>
Settled settle(const std::string& json, const std::string& solver, double spacing, double duration, double window,
               double width = 0.08);

// (16.8): the half-density box floats at half its height, 0.03 m: the draft over the last
// second of a 4 s (2D) or 3 s (3D) run within `bound` of it, and flat (tilt < 0.2 rad).
template <int D>
void expectArchimedes(const std::string& solver, double spacing, double bound, double width = 0.08);

// (16.6), (16.12), (16.14): without gravity, a slab of liquid thrown at a resting ball
// in a large box; the liquid's and the ball's momentum together change by less than
// `bound` of it over 0.25 s, before anything reaches a wall.
template <int D>
void expectMomentumKept(const std::string& solver, double bound = 1e-12);

// Under the containment tests' violent shaking, with a light ball and a capsule: no
// particle deeper inside a body than half a spacing, none outside the box, no body out.
template <int D>
void expectBodiesHold(const std::string& solver, double spacing, double duration);

// The draft d of a ball of radius r at q times the liquid's density (2D: a disc).
double ballDraft(int dim, double r, double q);

// A ball of a tenth of the liquid's density let go a spacing above the floor of a tank
// 0.25 m deep: its centre rises above the surface, and over the last second of
// `duration` its draft is within `bound` of ballDraft.
template <int D>
void expectLightBallRises(const std::string& solver, double spacing, double duration = 4.0, double bound = 0.35);

// A box of twice the liquid's density sinks and stays: its bottom within a quarter
// spacing above `gap` spacings over the last 0.5 s of `duration`, never through the
// floor, its centre within 10 mm.
template <int D>
void expectSinks(const std::string& solver, double spacing, double gap = 1.0, double duration = 3.0);

// A state file with a floating box resumes bit for bit (particles and the body).
template <int D>
void expectBodiesResume(const std::string& solver);

}  // namespace sloshlab::test
