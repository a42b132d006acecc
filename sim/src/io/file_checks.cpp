#include "sloshlab/file_checks.h"

#include <unistd.h>

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

std::string outputFileProblem(const std::string& path) {
  std::error_code ec;
  const fs::file_status st = fs::symlink_status(path, ec);
  switch (st.type()) {
    case fs::file_type::not_found:
    case fs::file_type::regular: break;
    case fs::file_type::directory: return "is a directory, not a file";
    case fs::file_type::symlink: return "is a symbolic link (only a regular file is replaced)";
    default: return "is not a regular file (only a regular file is replaced)";
  }
  const fs::path parent = fs::path(path).parent_path();
  return writableDirectoryProblem(parent.empty() ? "." : parent.string());
}

std::string writableDirectoryProblem(const std::string& dir) {
  std::error_code ec;
  const fs::file_status st = fs::status(dir, ec);
  if (st.type() == fs::file_type::not_found) return "directory '" + dir + "' does not exist";
  if (st.type() != fs::file_type::directory) return "'" + dir + "' is not a directory";
  if (::access(dir.c_str(), W_OK | X_OK) != 0) return "directory '" + dir + "' is not writable";
  return {};
}

}  // namespace sloshlab
