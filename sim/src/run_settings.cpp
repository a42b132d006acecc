#include "sloshlab/run_settings.h"

#include <stdexcept>
#include <string>

namespace sloshlab {

const ParamTable& runSettingsTable() {
  using R = RunSettings;
  static const ParamInfo entries[] = {
      {"spacing", "Spacing", "m", "Run", SLOSHLAB_PARAM_FIELD(R, spacing), 1e-5, 10.0, true,
       "Particle spacing s of the emitter's lattice (physics.md, Notation): SPH supports h and the grid "
       "solvers' cells are multiples of it. Halving s multiplies the particle count by 4 in 2D, 8 in 3D."},
      {"speed", "Speed", "1", "Run", SLOSHLAB_PARAM_FIELD(R, speed), 0.1, 2.0, true,
       "Playback speed: simulated seconds per wall second asked for; steps land on each frame's time "
       "(physics.md (9.1)). A solver that cannot keep up plays slower, and the view says so."},
  };
  static const ParamTable table{"run", entries};
  return table;
}

const ParamInfo& runSetting(std::string_view key) {
  if (const ParamInfo* info = runSettingsTable().find(key)) return *info;
  throw std::logic_error("no run setting '" + std::string(key) + "'");
}

}  // namespace sloshlab
