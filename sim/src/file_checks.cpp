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
  const fs::path parentPath = fs::path(path).parent_path();
  const std::string parent = parentPath.empty() ? "." : parentPath.string();
  const fs::file_status dir = fs::status(parent, ec);
  if (dir.type() == fs::file_type::not_found) return "directory '" + parent + "' does not exist";
  if (dir.type() != fs::file_type::directory) return "'" + parent + "' is not a directory";
  if (::access(parent.c_str(), W_OK | X_OK) != 0) return "directory '" + parent + "' is not writable";
  return {};
}

}  // namespace sloshlab
