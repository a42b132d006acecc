// Scripted container motions for the lab (the Motions panel): each a MotionScript
// (container.h) made from a few parameters, sampled every 5 ms, starting and ending at
// rest (no velocity jump at either end, so the driver's accelerations stay bounded).
//
//   shake          x = A r(t) sin(2 pi f t) along an axis for a duration; r ramps the
//                  amplitude up over the first period and down over the last
//   sweep          the same with the frequency rising linearly from f to f_end (a chirp:
//                  the tank's resonance shows as the largest swing)
//   acceleration   a constant acceleration for a duration, then the same braking to rest
//                  (physics.md (11.2): the surface tilts to -a/g, then the other way)
//   step           a move by a distance, a smoothstep over the ramp time, then held
//   rotation       turning at a constant rate for a duration (ramped in and out)
//   tilt           a turn to an angle over the ramp time, then held
//   impulse        a quick push: a move by speed x ramp time, over the ramp time
//   swirl          orbital shaking: the centre on a horizontal circle of radius A at f
//                  (x and z in 3D, x and y in 2D), ramped as a shake (a swirled glass)
//   spin           turning about the vertical y at a constant rate (ramped); 3D only
#pragma once

#include "sloshlab/container.h"

#include <string>

namespace sloshlab {

enum class MotionKind { Shake, Sweep, Acceleration, Step, Rotation, Tilt, Impulse, Swirl, Spin, Count };
const char* motionKindName(MotionKind kind);  // "shake", ...

struct MotionSpec {
  MotionKind kind = MotionKind::Shake;
  int axis = 0;               // 0: x (sideways), 1: y (up)
  double amplitude = 0.02;    // A (m): shake, sweep, swirl (the circle's radius)
  double frequency = 1.0;     // f (Hz): shake, swirl; the sweep's start
  double frequencyEnd = 3.0;  // f_end (Hz): the sweep's end
  double duration = 3.0;      // s: shake, sweep, acceleration, rotation, swirl, spin
  double acceleration = 2.0;  // a (m/s^2)
  double distance = 0.1;      // m: step
  double rate = 1.0;          // rad/s: rotation, spin
  double angle = 0.3;         // rad: tilt
  double speed = 1.0;         // m/s: impulse
  double rampTime = 0.2;      // s: step, tilt, impulse; rotation's ramps
};

// For a container of dimension dim. Throws std::runtime_error for a parameter out of
// its range (one line naming it), or a spin in 2D.
MotionScript makeMotion(const MotionSpec& spec, int dim);

// The --motion CSV (header t,x,y,angle, or t,x,y,z,angle in 3D, with angle_x,angle_y
// when the script turns about more than z) of a script.
std::string motionCsv(const MotionScript& script, int dim);

}  // namespace sloshlab
