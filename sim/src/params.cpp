#include "sloshlab/params.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <sstream>

namespace sloshlab {

const ParamInfo* ParamTable::find(std::string_view key) const {
  for (const ParamInfo& info : entries)
    if (key == info.key) return &info;
  return nullptr;
}

std::string ParamTable::keyList() const {
  std::string out;
  for (const ParamInfo& info : entries) {
    if (!out.empty()) out += ", ";
    out += info.key;
  }
  return out;
}

namespace {

template <class T>
T* fieldOf(void* data, const ParamInfo& info) {
  return reinterpret_cast<T*>(static_cast<char*>(data) + info.offset);
}

bool parseDouble(std::string_view text, double& out) {
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(begin, end, out);
  return ec == std::errc() && ptr == end && std::isfinite(out);
}

bool parseToggle(std::string_view text, double& out) {
  if (text == "true" || text == "on" || text == "1" || text == "yes") { out = 1; return true; }
  if (text == "false" || text == "off" || text == "0" || text == "no") { out = 0; return true; }
  return false;
}

std::string rangeWithUnit(const ParamInfo& info) {
  std::string s = describeRange(info.min, info.max);
  if (*info.unit && std::strcmp(info.unit, "1") != 0) s += std::string(" ") + info.unit;
  return s;
}

}  // namespace

std::string formatNumber(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

std::string describeRange(double lo, double hi) {
  char text[64];
  std::snprintf(text, sizeof text, "[%g, %g]", lo, hi);
  return text;
}

std::optional<double> fitRange(double x, double lo, double hi) {
  if (!std::isfinite(x)) return std::nullopt;
  if (x >= lo && x <= hi) return x;
  const std::string shown = formatNumber(x);
  if (shown == formatNumber(lo)) return lo;
  if (shown == formatNumber(hi)) return hi;
  return std::nullopt;
}

double ParamRef::get(const ParamInfo& info) const {
  switch (info.kind) {
    case ParamKind::Real: return *fieldOf<double>(m_data, info);
    case ParamKind::Integer:
    case ParamKind::Choice: return *fieldOf<int>(m_data, info);
    case ParamKind::Toggle: return *fieldOf<bool>(m_data, info) ? 1.0 : 0.0;
  }
  return 0.0;
}

void ParamRef::setClamped(const ParamInfo& info, double value) {
  if (!std::isfinite(value)) return;
  value = std::clamp(value, info.min, info.max);
  switch (info.kind) {
    case ParamKind::Real: *fieldOf<double>(m_data, info) = value; break;
    case ParamKind::Integer:
    case ParamKind::Choice: *fieldOf<int>(m_data, info) = static_cast<int>(std::lround(value)); break;
    case ParamKind::Toggle: *fieldOf<bool>(m_data, info) = value >= 0.5; break;
  }
}

void ParamRef::setStrict(std::string_view key, double value) {
  const ParamInfo* info = m_table->find(key);
  if (!info)
    throw ParamError("unknown parameter '" + std::string(key) + "' for " + std::string(m_table->owner) +
                     " (known: " + m_table->keyList() + ")");
  const std::optional<double> fitted = fitRange(value, info->min, info->max);
  if (!fitted)
    throw ParamError("parameter '" + std::string(key) + "' = " + formatNumber(value) + " is out of range " +
                     rangeWithUnit(*info));
  if (info->kind == ParamKind::Integer && value != std::floor(value))
    throw ParamError("parameter '" + std::string(key) + "' must be an integer");
  setClamped(*info, *fitted);
}

void ParamRef::setFromText(std::string_view key, std::string_view text) {
  const ParamInfo* info = m_table->find(key);
  if (!info)
    throw ParamError("unknown parameter '" + std::string(key) + "' for " + std::string(m_table->owner) +
                     " (known: " + m_table->keyList() + ")");
  double value = 0.0;
  bool ok = false;
  switch (info->kind) {
    case ParamKind::Real:
    case ParamKind::Integer: ok = parseDouble(text, value); break;
    case ParamKind::Toggle: ok = parseToggle(text, value); break;
    case ParamKind::Choice:
      for (std::size_t i = 0; i < info->choices.size(); ++i)
        if (text == info->choices[i]) { value = static_cast<double>(i); ok = true; }
      if (!ok) {
        std::string names;
        for (const char* c : info->choices) names += (names.empty() ? "" : ", ") + std::string(c);
        throw ParamError("parameter '" + std::string(key) + "' must be one of: " + names + " (got '" +
                         std::string(text) + "')");
      }
      break;
  }
  if (!ok)
    throw ParamError("parameter '" + std::string(key) + "': cannot read '" + std::string(text) + "' as " +
                     (info->kind == ParamKind::Toggle ? "true/false" : "a number"));
  setStrict(key, value);
}

int ParamRef::clampAll() {
  int changed = 0;
  for (const ParamInfo& info : m_table->entries) {
    double before = get(info);
    setClamped(info, before);
    if (get(info) != before) ++changed;
  }
  return changed;
}

std::string ParamRef::formatValue(const ParamInfo& info) const {
  double v = get(info);
  switch (info.kind) {
    case ParamKind::Toggle: return v != 0.0 ? "true" : "false";
    case ParamKind::Choice: {
      auto i = static_cast<std::size_t>(v);
      return i < info.choices.size() ? info.choices[i] : std::to_string(i);
    }
    case ParamKind::Integer: return std::to_string(static_cast<long>(v));
    case ParamKind::Real: return formatNumber(v);
  }
  return {};
}

}  // namespace sloshlab
