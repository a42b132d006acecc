// sloshlab: a real-time particle-fluid lab. With --headless (or when built without
// the window) it runs the engine from the command line; otherwise it opens the app.
#include "cli.h"
#include "headless.h"
#include "run_files.h"
#include "sweep_command.h"
#ifdef SLOSHLAB_HAVE_GUI
#include "gui_app.h"
#endif
#ifdef SLOSHLAB_HAVE_GPU
#include "sloshlab/gpu.h"
#endif

#include <omp.h>

#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string_view>

int main(int argc, char** argv) {
  using namespace sloshlab::app;
  try {
#ifdef SLOSHLAB_HAVE_GPU
    sloshlab::gpu::registerGpuSolvers();  // by name; each checks for OpenGL 4.3 when made
#endif
    if (argc > 1 && std::string_view(argv[1]) == "sweep") return runSweepCommand(argc - 1, argv + 1);
    const auto options = parseOptions(argc, argv);
    if (!options) return 0;
    if (options->threads > 0) omp_set_num_threads(options->threads);
    if (options->listScenes) return printScenes(), 0;
    if (options->listExperiments) return printExperiments(), 0;
    if (options->listParams) return printParams(*options), 0;
    checkRunFiles(*options);
    if (!options->experiment.empty()) return runExperimentHeadless(*options);
    if (options->headless) return runHeadless(*options);
#ifdef SLOSHLAB_HAVE_GUI
    return runGui(*options);
#else
    if (options->frames > 0 || !options->screenshotPath.empty() || !options->recordMotionPath.empty() ||
        !options->videoPath.empty())
      throw std::runtime_error("this build has no window (configured with SLOSHLAB_GUI=OFF)");
    std::printf("sloshlab was built without the window (SLOSHLAB_GUI=OFF): running the scene headless.\n");
    return runHeadless(*options);
#endif
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sloshlab: error: %s\n", e.what());
    return 2;
  }
}
