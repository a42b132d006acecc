#include "sloshlab/atomic_file.h"

#include "io/atomic_file.h"
#include "sloshlab/file_checks.h"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace sloshlab {

// "PATH.tmp" made two runs writing the same file collide: the name carries the process
// and a count of this process's writes.
std::string temporaryName(const std::string& path) {
  static std::atomic<unsigned> counter{0};
  return path + "." + std::to_string(::getpid()) + "-" + std::to_string(++counter) + ".tmp";
}

void requireReplaceable(const std::string& path) {
  if (const std::string problem = outputFileProblem(path); !problem.empty())
    throw std::runtime_error("cannot write '" + path + "': " + problem);
}

void replaceWith(const std::string& tmp, const std::string& path) {
  std::string problem = outputFileProblem(path);
  if (problem.empty()) {
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) problem = ec.message();
  }
  if (!problem.empty()) {
    std::remove(tmp.c_str());
    throw std::runtime_error("cannot write '" + path + "': " + problem);
  }
}

void writeFileAtomically(const std::string& path, const std::string& text) {
  requireReplaceable(path);
  const std::string tmp = temporaryName(path);
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error("cannot write '" + path + "'");
    out << text;
    out.flush();
    if (!out) {
      std::remove(tmp.c_str());
      throw std::runtime_error("cannot write '" + path + "'");
    }
  }
  replaceWith(tmp, path);
}

}  // namespace sloshlab
