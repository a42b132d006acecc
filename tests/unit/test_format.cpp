// The panels' numbers: engineering notation with units (app/format.h).
#include "format.h"

#include <gtest/gtest.h>

namespace sloshlab::app {
namespace {

TEST(Format, SmallTimesTakeAPrefix) {
  EXPECT_EQ(formatQuantity(0.000266, "s"), "266 us");
  EXPECT_EQ(formatQuantity(0.0166667, "s"), "16.7 ms");
  EXPECT_EQ(formatQuantity(1.359, "s", 4), "1.359 s");
  EXPECT_EQ(formatQuantity(0.9997e-3, "s"), "1 ms");  // rounding carries into the next prefix
  EXPECT_EQ(formatQuantity(2e-6, "s"), "2 us");
}

TEST(Format, PerDepthAndCompositeUnits) {
  EXPECT_EQ(formatQuantity(0.02746, "J/m"), "27.5 mJ/m");
  EXPECT_EQ(formatQuantity(97.15, "J/m"), "97.2 J/m");
  EXPECT_EQ(formatQuantity(99.91, "kg/m"), "99.9 kg/m");
  EXPECT_EQ(formatQuantity(2.66e-4, "kg/m"), "2.66e-4 kg/m");  // kg takes no second prefix
  EXPECT_EQ(formatQuantity(1e-6, "m^2/s"), "1e-6 m^2/s");      // nor a unit raised to a power
  EXPECT_EQ(formatQuantity(9.224e-6, "kg m/s"), "9.22e-6 kg m/s");
  EXPECT_EQ(formatQuantity(15000.0, "Pa"), "15 kPa");
  EXPECT_EQ(formatQuantity(1.11e-12, "J/m"), "1.11e-12 J/m");  // below the smallest prefix
}

TEST(Format, PlainNumbers) {
  EXPECT_EQ(formatQuantity(0.0, "s"), "0 s");
  EXPECT_EQ(formatQuantity(7.49e-7, ""), "7.49e-7");
  EXPECT_EQ(formatQuantity(0.838, "%"), "0.838 %");
  EXPECT_EQ(formatQuantity(1000.0, "kg/m^3", 4), "1000 kg/m^3");
  EXPECT_EQ(formatQuantity(2.0, "1"), "2");
  EXPECT_EQ(formatQuantity(-9.99999e-5, ""), "-1e-4");
}

TEST(Format, SliderUnitsFollowTheRange) {
  const DisplayUnit dt = displayUnit("s", 1.0 / 60.0);
  EXPECT_EQ(dt.unit, "ms");
  EXPECT_DOUBLE_EQ(dt.scale, 1e-3);
  EXPECT_EQ(displayUnit("m/s", 500.0).unit, "m/s");
  EXPECT_EQ(displayUnit("m^2/s", 0.1).unit, "m^2/s");
  EXPECT_EQ(displayUnit("1", 5.0).unit, "");
  EXPECT_EQ(escapePercent("0.1 %"), "0.1 %%");
}

}  // namespace
}  // namespace sloshlab::app
