// Parameters described once.
//
// Every solver keeps its parameters in a plain value struct with defaults. A static
// table of ParamInfo describes each field once: its key, label, unit, group, range,
// scale, and a one-line description naming the equation it enters. The same table
// drives scene files, the --set option, clamping and the ImGui panel.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

namespace sloshlab {

enum class ParamKind { Real, Integer, Toggle, Choice };

struct ParamInfo {
  const char* key;          // scene/CLI key, snake_case
  const char* label;        // UI label
  const char* unit;         // SI unit, "1" for dimensionless, "" for toggles/choices
  const char* group;        // UI grouping
  std::size_t offset;       // byte offset of the field in its struct
  ParamKind kind;
  double min = 0.0;
  double max = 1.0;
  bool logScale = false;
  const char* description = "";                  // one line, with the equation it enters
  std::span<const char* const> choices = {};     // names for ParamKind::Choice (stored as int)
};

// A parameter table: the entries of one struct type.
struct ParamTable {
  std::string_view owner;  // e.g. "wcsph"
  std::span<const ParamInfo> entries;

  const ParamInfo* find(std::string_view key) const;
  std::string keyList() const;  // "a, b, c" for error messages
};

// Bad parameter input: unknown key, unparsable or out-of-range value.
class ParamError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A view of one parameter struct through its table.
class ParamRef {
 public:
  ParamRef() = default;
  ParamRef(void* data, const ParamTable* table) : m_data(data), m_table(table) {}

  const ParamTable& table() const { return *m_table; }
  bool valid() const { return m_data != nullptr; }

  double get(const ParamInfo& info) const;
  // Sets a value, clamped into [min, max] (integers rounded): the UI's path.
  void setClamped(const ParamInfo& info, double value);
  // Strict path for scene files and --set: throws ParamError naming the problem
  // when the key is unknown, the text does not parse or the value is out of range.
  void setFromText(std::string_view key, std::string_view text);
  void setStrict(std::string_view key, double value);
  // Clamps every field into its range; returns how many fields changed.
  int clampAll();
  std::string formatValue(const ParamInfo& info) const;

 private:
  void* m_data = nullptr;
  const ParamTable* m_table = nullptr;
};

// Ranges as people read them: bounds print with six significant digits (%g), and a
// value that prints as a bound counts as that bound, so that a range shown by an error
// or by --list-params can be typed back: 1/60 prints 0.0166667, and 0.0166667 was
// "out of range [0.0001, 0.0166667]". Used by --set, scene files and the options.
std::string formatNumber(double value);
std::string describeRange(double lo, double hi);  // "[lo, hi]"
// x in [lo, hi] (x moved onto a bound it prints as), or nullopt when x is not finite
// or lies outside.
std::optional<double> fitRange(double x, double lo, double hi);

template <class T>
consteval ParamKind paramKindOf() {
  if constexpr (std::is_same_v<T, double>) return ParamKind::Real;
  else if constexpr (std::is_same_v<T, bool>) return ParamKind::Toggle;
  else if constexpr (std::is_same_v<T, int>) return ParamKind::Integer;
  else static_assert(sizeof(T) == 0, "parameters are double, int or bool");
}

}  // namespace sloshlab

// Offset and kind of a parameter field; choices are int fields given ParamKind::Choice.
#define SLOSHLAB_PARAM_FIELD(Struct, field) \
  offsetof(Struct, field), ::sloshlab::paramKindOf<decltype(Struct::field)>()
#define SLOSHLAB_CHOICE_FIELD(Struct, field) offsetof(Struct, field), ::sloshlab::ParamKind::Choice
