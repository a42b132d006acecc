#include "render/colormap.h"

#include <algorithm>
#include <cmath>
#include <span>

namespace sloshlab::render {

namespace {

struct Stop {
  float r, g, b;
};

constexpr Stop rgb(unsigned hex) {
  return {static_cast<float>((hex >> 16) & 0xff) / 255.0f, static_cast<float>((hex >> 8) & 0xff) / 255.0f,
          static_cast<float>(hex & 0xff) / 255.0f};
}

// Evenly spaced colour stops, linearly interpolated. Water: deep blue for still
// liquid to white foam for the fastest. Viridis and Turbo: the published maps
// (van der Walt & Smith 2015; Mikhailov 2019) sampled at even steps. Coolwarm: a
// diverging blue-white-red (Moreland 2009) for signed fields such as vorticity.
constexpr Stop kWater[] = {rgb(0x1d56b0), rgb(0x2a74cc), rgb(0x4593e0), rgb(0x74b4ee), rgb(0xb2d8f8), rgb(0xf4faff)};
constexpr Stop kViridis[] = {rgb(0x440154), rgb(0x482878), rgb(0x3e4a89), rgb(0x31688e), rgb(0x26828e),
                             rgb(0x1f9e89), rgb(0x35b779), rgb(0x6dcd59), rgb(0xb4de2c), rgb(0xfde725)};
constexpr Stop kTurbo[] = {rgb(0x30123b), rgb(0x4145ab), rgb(0x4675ed), rgb(0x39a2fc), rgb(0x1bcfd4),
                           rgb(0x24eca6), rgb(0x61fc6c), rgb(0xa4fc3b), rgb(0xd1e834), rgb(0xf3c63a),
                           rgb(0xfe9b2d), rgb(0xf36315), rgb(0xd93806), rgb(0xb11901), rgb(0x7a0402)};
constexpr Stop kCoolwarm[] = {rgb(0x3b4cc0), rgb(0x7396f5), rgb(0xb0cbfc), rgb(0xdddcdc), rgb(0xf6b89c),
                              rgb(0xe7745b), rgb(0xb40426)};

std::span<const Stop> stops(Colormap map) {
  switch (map) {
    case Colormap::Water: return kWater;
    case Colormap::Viridis: return kViridis;
    case Colormap::Turbo: return kTurbo;
    case Colormap::Coolwarm: return kCoolwarm;
    case Colormap::Count: break;
  }
  return kWater;
}

}  // namespace

const char* colormapName(Colormap map) {
  switch (map) {
    case Colormap::Water: return "water";
    case Colormap::Viridis: return "viridis";
    case Colormap::Turbo: return "turbo";
    case Colormap::Coolwarm: return "coolwarm";
    case Colormap::Count: break;
  }
  return "?";
}

std::array<float, 3> colormapColour(Colormap map, float t) {
  const auto s = stops(map);
  const float x = std::clamp(t, 0.0f, 1.0f) * static_cast<float>(s.size() - 1);
  const std::size_t i = std::min(static_cast<std::size_t>(x), s.size() - 2);
  const float w = x - static_cast<float>(i);
  return {s[i].r + w * (s[i + 1].r - s[i].r), s[i].g + w * (s[i + 1].g - s[i].g), s[i].b + w * (s[i + 1].b - s[i].b)};
}

std::array<std::uint8_t, 256 * 3> colormapTable(Colormap map) {
  std::array<std::uint8_t, 256 * 3> table{};
  for (int k = 0; k < 256; ++k) {
    const auto c = colormapColour(map, static_cast<float>(k) / 255.0f);
    for (int j = 0; j < 3; ++j) table[3 * k + j] = static_cast<std::uint8_t>(std::lround(255.0f * c[j]));
  }
  return table;
}

}  // namespace sloshlab::render
