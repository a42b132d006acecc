#include "format.h"

#include <cmath>
#include <cstdio>
#include <cstring>

namespace sloshlab::app {

namespace {

// A unit whose first symbol stands alone (not raised to a power): "mJ/m" and "ms"
// read right, "mm^2/s" and "mkg" would not.
bool takesPrefix(const char* unit) {
  for (const char* symbol : {"s", "m", "J", "Pa", "N", "W", "Hz"}) {
    const std::size_t n = std::strlen(symbol);
    if (std::strncmp(unit, symbol, n) == 0 && (unit[n] == '\0' || unit[n] == '/' || unit[n] == ' ')) return true;
  }
  return false;
}

bool hasUnit(const char* unit) { return unit && unit[0] != '\0' && std::strcmp(unit, "1") != 0; }

// The power of 1000 (as an exponent, -9..6) that puts |value| in [1, 1000).
int engineeringExponent(double value) {
  if (value == 0.0 || !std::isfinite(value)) return 0;
  const int e = static_cast<int>(std::floor(std::log10(std::abs(value)) / 3.0)) * 3;
  return e < -9 ? -9 : (e > 6 ? 6 : e);
}

const char* prefix(int exponent) {
  switch (exponent) {
    case -9: return "n";
    case -6: return "u";  // the panels' font has no micro sign
    case -3: return "m";
    case 3: return "k";
    case 6: return "M";
    default: return "";
  }
}

std::string withUnit(const std::string& number, const std::string& unit) {
  return unit.empty() ? number : number + " " + unit;
}

}  // namespace

std::string formatQuantity(double value, const char* unit, int digits) {
  const std::string u = hasUnit(unit) ? unit : "";
  char text[64];
  if (!std::isfinite(value)) {
    std::snprintf(text, sizeof text, "%g", value);
    return withUnit(text, u);
  }
  if (value == 0.0) return withUnit("0", u);
  const double a = std::abs(value);
  if (!u.empty() && takesPrefix(unit) && a >= 1e-9 && a < 1e9) {
    const int e = engineeringExponent(value);
    double mantissa = value / std::pow(10.0, e);
    // Rounding can carry into the next prefix: 999.7 us is 1 ms.
    std::snprintf(text, sizeof text, "%.*g", digits, mantissa);
    if (std::abs(std::strtod(text, nullptr)) >= 1000.0 && e < 6) {
      mantissa /= 1000.0;
      std::snprintf(text, sizeof text, "%.*g", digits, mantissa);
      return withUnit(text, std::string(prefix(e + 3)) + u);
    }
    return withUnit(text, std::string(prefix(e)) + u);
  }
  if (a >= 1e-3 && a < 1e5) {
    std::snprintf(text, sizeof text, "%.*g", digits, value);
    return withUnit(text, u);
  }
  // A short exponent: 2.66e-4, not 2.66e-04.
  int exponent = static_cast<int>(std::floor(std::log10(a)));
  double mantissa = value / std::pow(10.0, exponent);
  std::snprintf(text, sizeof text, "%.*g", digits, mantissa);
  if (std::abs(std::strtod(text, nullptr)) >= 10.0) {
    ++exponent;
    std::snprintf(text, sizeof text, "%.*g", digits, mantissa / 10.0);
  }
  return withUnit(std::string(text) + "e" + std::to_string(exponent), u);
}

DisplayUnit displayUnit(const char* unit, double max) {
  if (!hasUnit(unit)) return {};
  if (!takesPrefix(unit)) return {1.0, unit};
  const int e = engineeringExponent(max);
  return {std::pow(10.0, e), std::string(prefix(e)) + unit};
}

std::string escapePercent(const std::string& text) {
  std::string out;
  for (char c : text) {
    out += c;
    if (c == '%') out += '%';
  }
  return out;
}

}  // namespace sloshlab::app
