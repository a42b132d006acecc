// Colour maps for the particle fields, as 256-entry RGB tables.
#pragma once

#include <array>
#include <cstdint>

namespace sloshlab::render {

enum class Colormap { Water, Viridis, Turbo, Coolwarm, Count };

const char* colormapName(Colormap map);
// 256 RGB triples; entry k is the colour of t = k / 255.
std::array<std::uint8_t, 256 * 3> colormapTable(Colormap map);
// The colour at t in [0, 1], for legends drawn by the UI.
std::array<float, 3> colormapColour(Colormap map, float t);

}  // namespace sloshlab::render
