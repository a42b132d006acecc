#include "sloshlab/file_checks.h"

#include <filesystem>

namespace sloshlab {

namespace fs = std::filesystem;

std::string inputFileProblem(const std::string& path) {
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (st.type() == fs::file_type::not_found) return "no such file";
  if (ec) return "cannot read: " + ec.message();
  if (st.type() == fs::file_type::directory) return "is a directory, not a file";
  if (st.type() != fs::file_type::regular) return "is not a regular file";
  return {};
}

}  // namespace sloshlab
