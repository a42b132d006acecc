// Pouring and draining (physics.md (14.1)-(14.3)): a faucet that adds liquid while the
// simulation runs and an outlet that takes it away, both fixed to the container.
//
// Scene keys (sloshlab/scene.h), in the container frame like the fluid blocks:
//   "faucet": {"position": [0.1, 0.35], "direction": [0, -1], "width": 0.03, "speed": 1.0, "on": true}
//   "outlet": {"position": [0.45, 0], "radius": 0.02, "on": true}
// The faucet is given by its jet's speed rather than a volume rate, so that one scene
// serves 2D and 3D: the rate it gives (m^2/s in 2D, per metre of depth; m^3/s in 3D) is
// reported (Simulation::pourStats). A 3D position given with two components sits at
// half the container's depth.
#pragma once

#include "sloshlab/math.h"

namespace sloshlab {

struct Faucet {
  Vec3 position{0.0};          // the nozzle's centre (m)
  bool positionHasDepth = false;
  Vec3 direction{0.0, -1.0, 0.0};  // the jet's direction (normalised when read)
  double width = 0.02;         // the nozzle's width (2D) or diameter (3D) (m)
  double speed = 1.0;          // the jet's speed as it leaves the nozzle (m/s)
  bool on = true;
};

// On a wall (within half a spacing of one), the outlet is a hole in it: the liquid across
// it leaves through the wall. Inside the container it is a drain's mouth: the liquid
// closer than its radius to its centre leaves.
struct Outlet {
  Vec3 position{0.0};          // the hole's centre, on a wall or inside the container (m)
  bool positionHasDepth = false;
  double radius = 0.01;        // the hole's radius (m)
  bool on = true;
};

// What the faucet and the outlet have done since the start.
struct PourStats {
  bool hasFaucet = false, hasOutlet = false;
  bool faucetOn = false, outletOn = false;
  bool outletInWall = false;    // the outlet is a hole in a wall (else a drain's mouth inside)
  // The hole, in the container's frame (z = 0 in 2D): its centre on the wall, its radius,
  // and its wall (the axis it crosses, side 0 at 0 and 1 at the far wall).
  Vec3 outletCentre{0.0};
  double outletRadius = 0.0;
  int outletAxis = -1, outletSide = 0;
  double outletSpout = 0.0;  // how far past the wall the liquid is still simulated (m)
  double rate = 0.0;            // the faucet's volume rate: m^2/s (2D) or m^3/s (3D)
  double massIn = 0.0;          // kg (per metre of depth in 2D)
  double massOut = 0.0;         // kg
  long particlesIn = 0, particlesOut = 0;
  long blocked = 0;             // nozzle points skipped because liquid already stood there
  // The sum of the speeds (relative to the container, m/s) the drained particles had as
  // the outlet took them, since the run (or the resumed state) started: the mean over an
  // interval is the outflow speed, Torricelli's sqrt(2 g h) (physics.md (14.5)).
  double outflowSpeedSum = 0.0;
};

}  // namespace sloshlab
