#include "run_files.h"

#include "sloshlab/export.h"
#include "sloshlab/file_checks.h"

#include <filesystem>
#include <stdexcept>
#include <vector>

namespace sloshlab::app {

namespace {

namespace fs = std::filesystem;

struct NamedPath {
  const char* option;
  std::string path;

  std::string text() const { return std::string(option) + " '" + path + "'"; }
};

void require(const NamedPath& p, const std::string& problem) {
  if (!problem.empty()) throw std::runtime_error(p.text() + ": " + problem);
}

// Canonical up to its longest existing prefix, without a trailing separator ("out/"
// and "out" are one directory, but not one fs::path).
fs::path canonicalPath(const fs::path& p) {
  std::error_code ec;
  fs::path out = fs::weakly_canonical(p, ec).lexically_normal();
  return out.has_filename() ? out : out.parent_path();
}

// The same file: the same inode where both exist (hard links, "./x" and "x"), the same
// canonical path where neither does yet (two outputs about to be created).
bool sameFile(const fs::path& a, const fs::path& b) {
  std::error_code ec;
  const bool ea = fs::exists(a, ec), eb = fs::exists(b, ec);
  if (ea && eb) return fs::equivalent(a, b, ec);
  return !ea && !eb && canonicalPath(a) == canonicalPath(b);
}

// The export directory is written as a whole: neither it nor a file in it with an
// export name (container.csv, particles_<step>.csv) may be another input or output.
void checkExportDir(const NamedPath& dir, const std::vector<NamedPath>& files) {
  for (const NamedPath& f : files) {
    if (sameFile(f.path, dir.path)) throw std::runtime_error(f.text() + " is the " + dir.text() + " directory");
    const fs::path parent = fs::path(f.path).parent_path().empty() ? "." : fs::path(f.path).parent_path();
    if (isExportFileName(fs::path(f.path).filename().string()) && sameFile(parent, dir.path))
      throw std::runtime_error(f.text() + " would be overwritten by " + dir.text());
  }
}

// Outputs differ from every input and from each other: --scene x.json --stats x.json
// replaced the scene file.
void checkDistinct(const std::vector<NamedPath>& inputs, const std::vector<NamedPath>& outputs) {
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    for (std::size_t j = i + 1; j < outputs.size(); ++j)
      if (sameFile(outputs[i].path, outputs[j].path))
        throw std::runtime_error(outputs[i].text() + " and " + outputs[j].text() + " name the same file");
    for (const NamedPath& in : inputs)
      if (sameFile(outputs[i].path, in.path))
        throw std::runtime_error(outputs[i].text() + " would overwrite the input " + in.text());
  }
}

}  // namespace

void checkRunFiles(const Options& o) {
  std::vector<NamedPath> inputs, outputs;
  if (isScenePath(o.scene)) inputs.push_back({"--scene", o.scene});
  if (!o.motionPath.empty()) inputs.push_back({"--motion", o.motionPath});
  if (!o.loadStatePath.empty()) inputs.push_back({"--load-state", o.loadStatePath});
  for (NamedPath out : {NamedPath{"--stats", o.statsPath}, NamedPath{"--probes", o.probesPath},
                        NamedPath{"--record-motion", o.recordMotionPath},
                        NamedPath{"--screenshot", o.screenshotPath}, NamedPath{"--video", o.videoPath},
                        NamedPath{"--save-scene", o.saveScenePath}, NamedPath{"--save-state", o.saveStatePath}})
    if (!out.path.empty()) outputs.push_back(out);

  for (const NamedPath& out : outputs) require(out, outputFileProblem(out.path));
  checkDistinct(inputs, outputs);
  if (!o.exportDir.empty()) {
    const NamedPath dir{"--export", o.exportDir};
    require(dir, exportDirProblem(dir.path));
    std::vector<NamedPath> files = inputs;
    files.insert(files.end(), outputs.begin(), outputs.end());
    checkExportDir(dir, files);
  }
}

}  // namespace sloshlab::app
