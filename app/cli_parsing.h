// Shared by the main options (cli.cpp) and the sweep command (sweep_command.cpp): the
// strict reading of numbers, and CLI11's outcomes as the command line answers them.
#pragma once

#include "cli.h"

#include "sloshlab/params.h"

#include <CLI/CLI.hpp>

#include <charconv>
#include <iostream>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <type_traits>

namespace sloshlab::app {

// A strict number check for an option, because CLI11's own reading is loose: its Range
// lets NaN through (--time nan never ended), strtoull wraps "-1" to 2^64-1 and base 0
// reads "010" as octal. The text must be a finite decimal number in [lo, hi]; it is
// rewritten in canonical form so that CLI11's conversion reads the value checked here.
template <class T>
inline CLI::Validator number(T lo, T hi) {
  const std::string kind = std::is_integral_v<T> ? "a whole number" : "a finite number";
  const std::string range = std::is_integral_v<T> ? "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]"
                                                  : describeRange(static_cast<double>(lo), static_cast<double>(hi));
  auto check = [lo, hi, kind, range](std::string& text) -> std::string {
    T value{};
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    bool ok = ec == std::errc() && ptr == end;
    if constexpr (std::is_floating_point_v<T>) {
      const std::optional<double> fitted = fitRange(value, lo, hi);
      ok = ok && fitted;
      if (ok) value = *fitted;
    }
    if (!ok || value < lo || value > hi) return "'" + text + "' is not " + kind + " in " + range;
    std::ostringstream canonical;
    canonical.precision(std::numeric_limits<T>::max_digits10);
    canonical << value;
    text = canonical.str();
    return {};
  };
  return CLI::Validator(check, kind + " in " + range);
}

// Parses argv. Returns false when --help or --version printed and the program should
// exit 0; throws UsageError, on one line, for anything CLI11 refuses.
inline bool parseCommandLine(CLI::App& cli, int argc, char** argv) {
  try {
    cli.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << cli.help();
    return false;
  } catch (const CLI::CallForVersion&) {
    std::cout << cli.version() << "\n";
    return false;
  } catch (const CLI::ParseError& e) {
    std::string what = e.what();
    for (char& c : what)
      if (c == '\n') c = ' ';
    throw UsageError(what);
  }
  return true;
}

}  // namespace sloshlab::app
