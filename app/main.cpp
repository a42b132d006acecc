// sloshlab: a real-time particle-fluid lab. With --headless (or when built without
// the window) it runs the engine from the command line; otherwise it opens the app.
#include "cli.h"
#include "headless.h"

#include <omp.h>

#include <cstdio>
#include <exception>

int main(int argc, char** argv) {
  using namespace sloshlab::app;
  try {
    const auto options = parseOptions(argc, argv);
    if (!options) return 0;
    if (options->threads > 0) omp_set_num_threads(options->threads);
    if (options->listScenes) return printScenes(), 0;
    if (options->listParams) return printParams(*options), 0;
    return runHeadless(*options);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sloshlab: error: %s\n", e.what());
    return 2;
  }
}
