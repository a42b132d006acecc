#include "run_files.h"

#include "sloshlab/export.h"
#include "sloshlab/file_checks.h"

#include <stdexcept>

namespace sloshlab::app {

namespace {

void require(const std::string& option, const std::string& path, const std::string& problem) {
  if (!problem.empty()) throw std::runtime_error(option + " '" + path + "': " + problem);
}

}  // namespace

void checkRunFiles(const Options& o) {
  const std::pair<const char*, const std::string*> outputFiles[] = {
      {"--stats", &o.statsPath}, {"--record-motion", &o.recordMotionPath}, {"--screenshot", &o.screenshotPath}};
  for (const auto& [option, path] : outputFiles)
    if (!path->empty()) require(option, *path, outputFileProblem(*path));
  if (!o.exportDir.empty()) require("--export", o.exportDir, exportDirProblem(o.exportDir));
}

}  // namespace sloshlab::app
