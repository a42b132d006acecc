// `sloshlab sweep FILE.json`: the whole sweep on this machine (several runs at once, one
// process each), one item of it (--index N, for Slurm job arrays and GNU parallel), or
// the merge of the finished runs' summaries (docs/sweeps.md).
#include "sweep_command.h"

#include "cli.h"
#include "cli_parsing.h"

#include "sloshlab/file_checks.h"
#include "sloshlab/sweep.h"

#include <omp.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace sloshlab::app {

namespace {

namespace fs = std::filesystem;

struct SweepOptions {
  std::string file;
  std::string out;             // empty: FILE's stem + "_runs", beside FILE
  std::optional<long> index;   // one item
  int jobs = 0;                // runs at once; 0: one per core
  int threads = 0;             // OpenMP threads per run; 0: all cores / jobs
  bool merge = false;          // only merge the finished runs
  bool list = false;           // only list the runs
  bool slurm = false;          // only print the sbatch line
};

std::optional<SweepOptions> parseSweepOptions(int argc, char** argv) {
  SweepOptions o;
  CLI::App cli{"sloshlab sweep: many runs from one JSON file, one folder each, merged into one table "
               "(docs/sweeps.md)",
               "sloshlab sweep"};
  cli.add_option("file", o.file, "the sweep file (.json)")->required();
  cli.add_option("--out", o.out, "the runs' folder (default: FILE's name without .json, plus _runs, beside FILE)");
  auto* indexOpt = cli.add_option("--index", o.index, "run item N alone (Slurm: $SLURM_ARRAY_TASK_ID)")
                       ->check(number(0L, 99999L));
  cli.add_option("--jobs", o.jobs, "runs at once, one process each (default: one per core)")->check(number(1, 1024));
  cli.add_option("--threads", o.threads, "OpenMP threads per run (default: the cores shared among the jobs)")
      ->check(number(1, 1024));
  auto* mergeOpt = cli.add_flag("--merge", o.merge, "run nothing: merge the finished runs' summaries into summary.csv");
  auto* listOpt = cli.add_flag("--list", o.list, "run nothing: print each item's index and changes");
  auto* slurmOpt = cli.add_flag("--slurm", o.slurm, "run nothing: print the sbatch line that runs the sweep as a job array");
  for (CLI::Option* only : {mergeOpt, listOpt, slurmOpt, indexOpt})
    for (CLI::Option* other : {mergeOpt, listOpt, slurmOpt, indexOpt})
      if (only != other) only->excludes(other);
  if (!parseCommandLine(cli, argc, argv)) return std::nullopt;
  if (o.out.empty()) {
    const fs::path file(o.file);
    o.out = (file.parent_path() / (file.stem().string() + "_runs")).string();
  }
  return o;
}

// Why the runs cannot go into `dir`, or "": it must be a writable directory, or one that
// can be made (its nearest existing ancestor writable).
std::string outDirProblem(const std::string& dir) {
  fs::path p = fs::absolute(dir);
  std::error_code ec;
  if (fs::exists(p, ec)) {
    if (!fs::is_directory(p, ec)) return "'" + dir + "' is not a directory";
    const std::string problem = writableDirectoryProblem(p.string());
    return problem.empty() ? "" : "'" + dir + "': " + problem;
  }
  while (!p.empty() && !fs::exists(p, ec)) p = p.parent_path();
  if (p.empty() || !fs::is_directory(p, ec)) return "'" + dir + "' cannot be made";
  const std::string problem = writableDirectoryProblem(p.string());
  return problem.empty() ? "" : "'" + dir + "' cannot be made: " + problem;
}

// "3 s" or "1 min 12 s".
std::string wallText(double seconds) {
  char text[48];
  if (seconds < 60.0) std::snprintf(text, sizeof text, "%.2f s", seconds);
  else std::snprintf(text, sizeof text, "%d min %02d s", static_cast<int>(seconds / 60.0), static_cast<int>(seconds) % 60);
  return text;
}

// One item in this process; prints its line. Returns the exit code.
int runOne(const Sweep& sweep, std::size_t index, const SweepOptions& o) {
  const SweepRun& run = sweep.runs[index];
  const std::string where = "run " + std::to_string(index) + "/" + std::to_string(sweep.runs.size()) + " (" + run.label + ")";
  if (sweepRunFinished(o.out, index)) {
    std::printf("%s: finished before, skipped\n", where.c_str());
    return 0;
  }
  const auto start = std::chrono::steady_clock::now();
  try {
    runSweepItem(sweep, index, o.out);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sloshlab: error: %s: %s\n", where.c_str(), e.what());
    return 3;
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%s: done in %s -> %s\n", where.c_str(), wallText(wall).c_str(), sweepRunFolder(o.out, index).c_str());
  std::fflush(stdout);
  return 0;
}

// The rest of the sweep, `jobs` child processes at once, each `sloshlab sweep FILE
// --index N`. Returns how many of them did not finish their run.
int runAll(const Sweep& sweep, const SweepOptions& o, int jobs, int threads) {
  std::deque<std::size_t> queue;
  std::size_t skipped = 0;
  for (const SweepRun& run : sweep.runs) {
    if (sweepRunFinished(o.out, run.index)) ++skipped;
    else queue.push_back(run.index);
  }
  if (skipped > 0) std::printf("sweep %s: %zu of %zu runs finished before, skipped\n", sweep.name.c_str(), skipped, sweep.runs.size());
  std::fflush(stdout);
  std::map<pid_t, std::size_t> running;
  int failures = 0;
  const std::string self = "/proc/self/exe";
  while (!queue.empty() || !running.empty()) {
    while (!queue.empty() && static_cast<int>(running.size()) < jobs) {
      const std::size_t index = queue.front();
      queue.pop_front();
      std::vector<std::string> args{"sloshlab", "sweep", o.file, "--out", o.out, "--index", std::to_string(index),
                                    "--threads", std::to_string(threads)};
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      pid_t pid = 0;
      if (posix_spawn(&pid, self.c_str(), nullptr, nullptr, argv.data(), environ) != 0) {
        std::fprintf(stderr, "sloshlab: error: cannot start a process for run %zu\n", index);
        ++failures;
        continue;
      }
      running[pid] = index;
    }
    int status = 0;
    const pid_t done = ::waitpid(-1, &status, 0);
    if (done < 0) break;
    if (!running.count(done)) continue;
    running.erase(done);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) ++failures;
  }
  return failures;
}

}  // namespace

int runSweepCommand(int argc, char** argv) {
  const auto parsed = parseSweepOptions(argc, argv);
  if (!parsed) return 0;
  SweepOptions o = *parsed;
  const Sweep sweep = loadSweep(o.file);  // SweepError: one line, exit 2, nothing written
  if (o.index && static_cast<std::size_t>(*o.index) >= sweep.runs.size())
    throw UsageError("--index " + std::to_string(*o.index) + " is out of range: '" + o.file + "' holds " +
                     std::to_string(sweep.runs.size()) + " runs, 0 to " + std::to_string(sweep.runs.size() - 1));
  if (o.list) {
    for (const SweepRun& run : sweep.runs) std::printf("%zu %s\n", run.index, run.label.c_str());
    return 0;
  }
  if (o.slurm) {
    // Slurm writes the tasks' logs into the runs' folder, which must exist first.
    const std::string out = fs::absolute(o.out).string();
    std::printf("mkdir -p '%s' && sbatch --array=0-%zu --output='%s/slurm_%%a.log' --wrap \"'%s' sweep '%s' --out '%s' "
                "--index \\$SLURM_ARRAY_TASK_ID\"\n",
                out.c_str(), sweep.runs.size() - 1, out.c_str(), fs::canonical("/proc/self/exe").c_str(),
                fs::absolute(o.file).c_str(), out.c_str());
    return 0;
  }
  if (const std::string problem = outDirProblem(o.out); !problem.empty()) throw UsageError("--out " + problem);

  if (o.merge) {
    std::vector<std::size_t> missing;
    const std::size_t rows = mergeSweep(sweep, o.out, &missing);
    std::printf("sweep %s: %zu of %zu runs in %s/summary.csv", sweep.name.c_str(), rows, sweep.runs.size(), o.out.c_str());
    if (!missing.empty()) std::printf(" (%zu not finished yet, the first run %zu)", missing.size(), missing.front());
    std::printf("\n");
    return 0;
  }

  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (o.index) {
    if (o.threads > 0) omp_set_num_threads(o.threads);
    return runOne(sweep, static_cast<std::size_t>(*o.index), o);
  }
  const int jobs = o.jobs > 0 ? o.jobs : cores;
  const int threads = o.threads > 0 ? o.threads : std::max(1, cores / jobs);
  const auto start = std::chrono::steady_clock::now();
  const int failures = runAll(sweep, o, jobs, threads);
  std::vector<std::size_t> missing;
  const std::size_t rows = mergeSweep(sweep, o.out, &missing);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("sweep %s: %zu of %zu runs finished in %s (%d at once, %d thread%s each); the table: %s/summary.csv\n",
              sweep.name.c_str(), rows, sweep.runs.size(), wallText(wall).c_str(), jobs, threads, threads == 1 ? "" : "s",
              o.out.c_str());
  return failures > 0 || !missing.empty() ? 3 : 0;
}

}  // namespace sloshlab::app
