// Writes the seed corpus of fuzz_state: a few steps of each shipped scene (assets/scenes)
// with every solver, 2D and 3D, at a coarse spacing, saved as state files.
// Usage: make_state_seeds SCENE.json... OUTDIR
#include "sloshlab/scene.h"
#include "sloshlab/solver_registry.h"
#include "sloshlab/state_file.h"

#include <cstdio>
#include <exception>
#include <fstream>
#include <string>

int main(int argc, char** argv) {
  using namespace sloshlab;
  if (argc < 3) {
    std::fprintf(stderr, "usage: make_state_seeds SCENE.json... OUTDIR\n");
    return 2;
  }
  const std::string out = argv[argc - 1];
  int written = 0;
  for (int a = 1; a + 1 < argc; ++a) {
    for (const SolverInfo& info : solverInfos()) {
      const std::string solver = info.name;
      for (int dim : {2, 3}) {
        try {
          SimulationSetup setup;
          setup.scene = loadScene(argv[a]);
          setup.dim = dim;
          setup.solver = solver;
          // Coarse: a few hundred particles, so that the fuzzer runs thousands a second.
          setup.spacing = 4.0 * setup.scene.spacingFor(solver, dim);
          auto sim = Simulation::create(setup);
          for (int s = 0; s < 3 && !sim->failed(); ++s) sim->step(0.0);
          const std::string path = out + "/" + setup.scene.name + "_" + solver + "_" + std::to_string(dim) + "d.slosh";
          std::ofstream(path, std::ios::binary) << saveState(*sim);
          ++written;
        } catch (const std::exception& e) {
          std::fprintf(stderr, "make_state_seeds: %s, %s %dD: %s\n", argv[a], solver.c_str(), dim, e.what());
        }
      }
    }
  }
  std::printf("%d state files in %s\n", written, out.c_str());
  return written > 0 ? 0 : 1;
}
