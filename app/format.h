// Numbers with units for the panels: engineering notation where a number is small or
// large (266 us, 2.66e-4 kg/m), so that a value never reads as 0.000 or runs out of
// its box.
#pragma once

#include <string>

namespace sloshlab::app {

// `value` in `unit` with `digits` significant digits. Units that take an SI prefix
// (s, m, m/s, J, J/m, Pa, N, ...: a plain symbol first) get one from n to M; the
// others, and values beyond the prefixes, switch to a short exponent outside
// [1e-3, 1e5). Units "" and "1" print none.
std::string formatQuantity(double value, const char* unit, int digits = 3);

// A unit that a slider shows its value in: `scale` SI units per shown unit.
struct DisplayUnit {
  double scale = 1.0;
  std::string unit;  // "" for none
};
// The unit for a slider over [.., max]: a prefix chosen from the range, so that it
// stays put while the slider moves (max_time_step up to 16.7 ms shows in ms).
DisplayUnit displayUnit(const char* unit, double max);

// `text` with every '%' doubled, for use as an ImGui format string.
std::string escapePercent(const std::string& text);

}  // namespace sloshlab::app
