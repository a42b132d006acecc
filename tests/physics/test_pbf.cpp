// Position-based fluids (pbf.h): its default sub-steps. Its hydrostatic tanks and its
// dam breaks are rows of the every-solver tests (test_hydrostatic.cpp,
// test_dam_break.cpp); containment under the violent shake and thread-count
// independence are the every-solver tests test_containment.cpp and
// test_determinism.cpp. Formulas: physics.md section 7.
#include "solvers/pbf.h"

#include <gtest/gtest.h>

namespace sloshlab {
namespace {

// The issue asks for one or two sub-steps per 1/60 s frame by default.
TEST(PbfDefaults, TwoSubStepsPerFrame) {
  EXPECT_LE(PbfParams{}.substeps, 2);
}

}  // namespace
}  // namespace sloshlab
