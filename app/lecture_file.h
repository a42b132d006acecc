// Lecture files (--lecture FILE.json): slides a lecturer steps through with PageDown
// and PageUp in the lecture view (L). Each slide holds a scene, a solver and dimension,
// parameter values, a scripted motion, the view's colour field and frame, the figures
// pinned to the heads-up display and a one-line caption:
//
//   {"title": "Particles and grids",
//    "slides": [{"caption": "WCSPH: a compressible liquid", "scene": "bottle",
//                "solver": "wcsph", "dim": 2, "params": {"viscosity": 0.01},
//                "compare": "wcsph,flip",   (side by side instead of one solver)
//                "motion": {"kind": "shake", "amplitude": 0.02, "frequency": 1.2, "duration": 4},
//                "colour": "speed", "container_frame": false,
//                "pins": ["Time", "Kinetic energy", "param:viscosity"]}]}
//
// Motion keys: kind (shake, sweep, acceleration, step, rotation, tilt, impulse), axis
// (0: x, 1: y), amplitude (m), frequency, frequency_end (Hz), duration (s),
// acceleration (m/s^2), distance (m), rate (rad/s), angle (rad), speed (m/s), ramp (s)
// (sloshlab/motions.h). Every key is optional but the scene; an unknown key, a bad type
// or value is refused with one line naming the file, the slide and the key.
#pragma once

#include "sloshlab/motions.h"

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace sloshlab::app {

struct Slide {
  std::string caption;
  std::string scene = "bottle";  // a built-in scene's name or a file
  std::string solver;            // empty: the scene's
  std::string compare;           // side by side: a --compare list ("pic,flip,apic"); empty: one view
  int dim = 2;
  std::map<std::string, std::string> params;  // key -> value, as --set takes them
  std::optional<MotionSpec> motion;
  std::string colour = "speed";  // a View panel field: speed, density, pressure, vorticity, solid colour
  bool containerFrame = false;
  std::vector<std::string> pins;  // lecture.h: figure names, "param:<key>"
};

struct Lecture {
  std::string title;
  std::vector<Slide> slides;
};

class LectureError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

Lecture parseLecture(const std::string& jsonText, const std::string& origin);
Lecture loadLecture(const std::string& path);
std::string lectureToJson(const Lecture& lecture);

}  // namespace sloshlab::app
