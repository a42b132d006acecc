#include "io/csv_reader.h"

#include "sloshlab/file_checks.h"

#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>
#include <stdexcept>

namespace sloshlab {

int CsvTable::column(const std::string& name) const {
  for (std::size_t i = 0; i < header.size(); ++i)
    if (header[i] == name) return static_cast<int>(i);
  return -1;
}

namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const auto comma = line.find(',', start);
    out.push_back(trim(line.substr(start, comma == std::string::npos ? std::string::npos : comma - start)));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

}  // namespace

CsvTable readCsv(const std::string& path, const std::string& what, bool allowNan) {
  if (const std::string problem = inputFileProblem(path); !problem.empty())
    throw std::runtime_error(what + " '" + path + "': " + problem);
  std::ifstream in(path);
  if (!in) throw std::runtime_error(what + " '" + path + "': cannot open");
  return parseCsv(in, path, what, allowNan);
}

CsvTable parseCsv(std::istream& in, const std::string& path, const std::string& what, bool allowNan) {
  CsvTable table;
  std::string line;
  int lineNo = 0;
  auto fail = [&](const std::string& problem) {
    throw std::runtime_error(what + " '" + path + "': " + problem + " (line " + std::to_string(lineNo) + ")");
  };
  while (std::getline(in, line)) {
    ++lineNo;
    const std::string t = trim(line);
    if (t.empty() || t[0] == '#') continue;
    std::vector<std::string> cells = split(t);
    if (table.header.empty()) {
      for (const auto& c : cells)
        if (c.empty()) fail("empty column name in header");
      table.header = std::move(cells);
      continue;
    }
    if (cells.size() != table.header.size())
      fail("expected " + std::to_string(table.header.size()) + " values, found " + std::to_string(cells.size()));
    std::vector<double> values(cells.size());
    for (std::size_t i = 0; i < cells.size(); ++i) {
      const std::string& c = cells[i];
      if (allowNan && c == "nan") {
        values[i] = std::numeric_limits<double>::quiet_NaN();
        continue;
      }
      auto [ptr, ec] = std::from_chars(c.data(), c.data() + c.size(), values[i]);
      if (ec != std::errc() || ptr != c.data() + c.size() || !std::isfinite(values[i]))
        fail("'" + c + "' is not a number");
    }
    table.rows.push_back(std::move(values));
  }
  if (table.header.empty()) throw std::runtime_error(what + " '" + path + "': empty file");
  if (table.rows.empty()) throw std::runtime_error(what + " '" + path + "': no data rows");
  return table;
}

}  // namespace sloshlab
