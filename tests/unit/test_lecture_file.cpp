// Lecture files (app/lecture_file.h): the shipped lecture reads, writes back and reads
// again to the same slides; broken files are refused with one line naming the slide
// and the key.
#include "lecture_file.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

namespace sloshlab::app {
namespace {

std::string shipped() {
  std::ifstream in(std::string(SLOSHLAB_TEST_SOURCE_DIR) + "/../assets/lectures/intro.json");
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(LectureFile, TheShippedLectureRoundTrips) {
  const Lecture a = parseLecture(shipped(), "intro.json");
  ASSERT_EQ(a.slides.size(), 5u);
  EXPECT_EQ(a.slides[0].compare, "wcsph,flip");
  EXPECT_EQ(a.slides[1].compare, "pic,flip,apic");
  EXPECT_EQ(a.slides[2].solver, "wcsph");
  EXPECT_TRUE(a.slides[2].compare.empty());
  ASSERT_TRUE(a.slides[3].motion.has_value());
  EXPECT_EQ(a.slides[3].motion->kind, MotionKind::Sweep);
  EXPECT_DOUBLE_EQ(a.slides[3].motion->frequencyEnd, 2.0);
  EXPECT_TRUE(a.slides[4].containerFrame);
  const Lecture b = parseLecture(lectureToJson(a), "written");
  ASSERT_EQ(b.slides.size(), a.slides.size());
  EXPECT_EQ(b.title, a.title);
  for (std::size_t i = 0; i < a.slides.size(); ++i) {
    const Slide &x = a.slides[i], &y = b.slides[i];
    EXPECT_EQ(x.caption, y.caption);
    EXPECT_EQ(x.scene, y.scene);
    EXPECT_EQ(x.solver, y.solver);
    EXPECT_EQ(x.compare, y.compare);
    EXPECT_EQ(x.dim, y.dim);
    EXPECT_EQ(x.params, y.params);
    EXPECT_EQ(x.colour, y.colour);
    EXPECT_EQ(x.containerFrame, y.containerFrame);
    EXPECT_EQ(x.pins, y.pins);
    ASSERT_EQ(x.motion.has_value(), y.motion.has_value());
    if (x.motion) {
      EXPECT_EQ(x.motion->kind, y.motion->kind);
      EXPECT_EQ(x.motion->amplitude, y.motion->amplitude);
      EXPECT_EQ(x.motion->frequency, y.motion->frequency);
      EXPECT_EQ(x.motion->duration, y.motion->duration);
      EXPECT_EQ(x.motion->acceleration, y.motion->acceleration);
    }
  }
  Lecture withParams;
  withParams.slides.push_back(Slide{});
  withParams.slides[0].params = {{"viscosity", "0.01"}, {"clamp_negative_pressure", "false"}};
  EXPECT_EQ(parseLecture(lectureToJson(withParams), "w").slides[0].params, withParams.slides[0].params);
}

void expectRefused(const std::string& text, const std::string& expected) {
  try {
    parseLecture(text, "x.json");
    ADD_FAILURE() << "accepted: " << text;
  } catch (const LectureError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(expected), std::string::npos) << what;
    EXPECT_NE(what.find("lecture file 'x.json'"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
}

TEST(LectureFile, BrokenFilesAreRefusedWithOneLine) {
  expectRefused("{", "invalid JSON");
  expectRefused("[]", "must be an object");
  expectRefused(R"({"slides": [{"scene": "bottle", "compare": "pic"}]})", "slide 1: --compare takes 2 to 4 items");
  expectRefused(R"({"slides": [{"scene": "bottle", "compare": "pic,magic"}]})", "unknown solver 'magic'");
  expectRefused(R"({"slides": []})", "at least one slide");
  expectRefused(R"({"title": "t"})", "no 'slides'");
  expectRefused(R"({"slides": [{"scene": "bottle"}], "colour": 1})", "unknown key 'colour'");
  expectRefused(R"({"slides": [{"caption": "x"}]})", "slide 1: a slide needs a 'scene'");
  expectRefused(R"({"slides": [{"scene": "bottle"}, {"scene": "bottle", "dim": 4}]})", "slide 2: 'dim' must be 2 or 3");
  expectRefused(R"({"slides": [{"scene": "bottle", "motion": {"kind": "wobble"}}]})", "motion kind 'wobble' is unknown");
  expectRefused(R"({"slides": [{"scene": "bottle", "motion": {"kind": "shake", "frequency": 99}}]})",
                "frequency lies in");
  expectRefused(R"({"slides": [{"scene": "bottle", "pins": ["a", "b", "c", "d", "e"]}]})", "at most 4");
  expectRefused(R"({"slides": [{"scene": "bottle", "params": {"viscosity": [1]}}]})", "parameter 'viscosity'");
}

}  // namespace
}  // namespace sloshlab::app
