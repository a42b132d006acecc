// Lecture files (lecture_file.h): read strictly, written back in the same form.
#include "lecture_file.h"

#include "sloshlab/comparison.h"
#include "sloshlab/file_checks.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <iterator>

namespace sloshlab::app {

namespace {

using nlohmann::json;
using nlohmann::ordered_json;

struct MotionKey {
  const char* key;
  double MotionSpec::*field;
};
constexpr MotionKey kMotionKeys[] = {
    {"amplitude", &MotionSpec::amplitude}, {"frequency", &MotionSpec::frequency},
    {"frequency_end", &MotionSpec::frequencyEnd}, {"duration", &MotionSpec::duration},
    {"acceleration", &MotionSpec::acceleration}, {"distance", &MotionSpec::distance},
    {"rate", &MotionSpec::rate}, {"angle", &MotionSpec::angle}, {"speed", &MotionSpec::speed},
    {"ramp", &MotionSpec::rampTime},
};

// Errors name the file, the slide and the key.
struct Reader {
  std::string where;

  [[noreturn]] void fail(const std::string& what) const { throw LectureError(where + ": " + what); }
  const json& object(const json& j, const std::string& name) const {
    if (!j.is_object()) fail("'" + name + "' must be an object");
    return j;
  }
  std::string text(const json& j, const std::string& key) const {
    if (!j.is_string()) fail("'" + key + "' must be a string");
    return j.get<std::string>();
  }
  double number(const json& j, const std::string& key) const {
    if (!j.is_number()) fail("'" + key + "' must be a number");
    return j.get<double>();
  }
};

MotionSpec readMotion(const json& j, const Reader& r) {
  r.object(j, "motion");
  MotionSpec m;
  bool haveKind = false;
  for (const auto& [key, value] : j.items()) {
    if (key == "kind") {
      const std::string kind = r.text(value, key);
      for (int k = 0; k < static_cast<int>(MotionKind::Count); ++k)
        if (kind == motionKindName(static_cast<MotionKind>(k))) m.kind = static_cast<MotionKind>(k), haveKind = true;
      if (!haveKind) r.fail("motion kind '" + kind + "' is unknown (shake, sweep, acceleration, step, rotation, tilt, impulse)");
    } else if (key == "axis") {
      const double axis = r.number(value, key);
      if (axis != 0.0 && axis != 1.0) r.fail("motion 'axis' must be 0 (x) or 1 (y)");
      m.axis = static_cast<int>(axis);
    } else {
      bool known = false;
      for (const MotionKey& k : kMotionKeys)
        if (key == k.key) m.*k.field = r.number(value, key), known = true;
      if (!known) r.fail("motion: unknown key '" + key + "'");
    }
  }
  if (!haveKind) r.fail("motion needs a 'kind'");
  return m;
}

Slide readSlide(const json& j, const Reader& r) {
  r.object(j, "slide");
  Slide s;
  bool haveScene = false;
  for (const auto& [key, value] : j.items()) {
    if (key == "caption") s.caption = r.text(value, key);
    else if (key == "scene") s.scene = r.text(value, key), haveScene = true;
    else if (key == "solver") s.solver = r.text(value, key);
    else if (key == "compare") {
      s.compare = r.text(value, key);
      try {
        parsePaneList(s.compare);
      } catch (const std::runtime_error& e) {
        r.fail(e.what());
      }
    }
    else if (key == "dim") {
      const double dim = r.number(value, key);
      if (dim != 2.0 && dim != 3.0) r.fail("'dim' must be 2 or 3");
      s.dim = static_cast<int>(dim);
    } else if (key == "params") {
      r.object(value, key);
      for (const auto& [name, v] : value.items()) {
        if (v.is_number()) s.params[name] = v.dump();
        else if (v.is_boolean()) s.params[name] = v.get<bool>() ? "true" : "false";
        else if (v.is_string()) s.params[name] = v.get<std::string>();
        else r.fail("parameter '" + name + "' must be a number, true/false or a name");
      }
    } else if (key == "motion") s.motion = readMotion(value, r);
    else if (key == "colour") s.colour = r.text(value, key);
    else if (key == "container_frame") {
      if (!value.is_boolean()) r.fail("'container_frame' must be true or false");
      s.containerFrame = value.get<bool>();
    } else if (key == "pins") {
      if (!value.is_array() || value.size() > 4) r.fail("'pins' must be a list of at most 4 names");
      for (const json& pin : value) s.pins.push_back(r.text(pin, "pins"));
    } else {
      r.fail("unknown key '" + key + "'");
    }
  }
  if (!haveScene) r.fail("a slide needs a 'scene'");
  if (s.motion) {
    try {
      (void)makeMotion(*s.motion, s.dim);  // its ranges, checked now rather than at the slide
    } catch (const std::runtime_error& e) {
      r.fail(e.what());
    }
  }
  return s;
}

}  // namespace

Lecture parseLecture(const std::string& jsonText, const std::string& origin) {
  json doc;
  try {
    doc = json::parse(jsonText);
  } catch (const json::exception&) {
    throw LectureError("lecture file '" + origin + "': invalid JSON");
  }
  Reader r{"lecture file '" + origin + "'"};
  r.object(doc, "the file");
  Lecture lecture;
  for (const auto& [key, value] : doc.items()) {
    if (key == "title") lecture.title = r.text(value, key);
    else if (key == "slides") {
      if (!value.is_array() || value.empty()) r.fail("'slides' must be a list of at least one slide");
      for (std::size_t i = 0; i < value.size(); ++i)
        lecture.slides.push_back(readSlide(value[i], Reader{r.where + ", slide " + std::to_string(i + 1)}));
    } else {
      r.fail("unknown key '" + key + "'");
    }
  }
  if (lecture.slides.empty()) r.fail("it has no 'slides'");
  return lecture;
}

Lecture loadLecture(const std::string& path) {
  if (const std::string problem = inputFileProblem(path); !problem.empty())
    throw LectureError("lecture file '" + path + "': " + problem);
  std::ifstream in(path);
  return parseLecture(std::string(std::istreambuf_iterator<char>(in), {}), path);
}

std::string lectureToJson(const Lecture& lecture) {
  ordered_json doc = ordered_json::object();
  doc["title"] = lecture.title;
  ordered_json slides = ordered_json::array();
  for (const Slide& s : lecture.slides) {
    ordered_json j = ordered_json::object();
    j["caption"] = s.caption;
    j["scene"] = s.scene;
    if (!s.solver.empty()) j["solver"] = s.solver;
    if (!s.compare.empty()) j["compare"] = s.compare;
    j["dim"] = s.dim;
    ordered_json params = ordered_json::object();
    for (const auto& [key, value] : s.params) {
      const ordered_json parsed = ordered_json::parse(value, nullptr, false);
      params[key] = parsed.is_discarded() ? ordered_json(value) : parsed;
    }
    if (!s.params.empty()) j["params"] = params;
    if (s.motion) {
      ordered_json m = ordered_json::object();
      m["kind"] = motionKindName(s.motion->kind);
      m["axis"] = s.motion->axis;
      for (const MotionKey& k : kMotionKeys) m[k.key] = (*s.motion).*k.field;
      j["motion"] = m;
    }
    j["colour"] = s.colour;
    j["container_frame"] = s.containerFrame;
    j["pins"] = s.pins;
    slides.push_back(j);
  }
  doc["slides"] = slides;
  return doc.dump(2) + "\n";
}

}  // namespace sloshlab::app
