// A small numeric CSV reader for motion files and test data: a header row of column
// names, then rows of numbers. Lines starting with '#' and blank lines are skipped.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace sloshlab {

struct CsvTable {
  std::vector<std::string> header;
  std::vector<std::vector<double>> rows;

  int column(const std::string& name) const;  // -1 when absent
};

// Throws std::runtime_error("<what> '<path>': <problem> (line N)") on any defect.
// With allowNan, the cell "nan" reads as NaN (a figure that was not measured).
CsvTable readCsv(const std::string& path, const std::string& what, bool allowNan = false);
// The same from text already in memory; `origin` stands for the path in messages.
// readCsv checks the file and hands its contents here (the fuzzer enters here too).
CsvTable parseCsv(std::istream& in, const std::string& origin, const std::string& what, bool allowNan = false);

}  // namespace sloshlab
