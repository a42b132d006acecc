// The settings of a run that belong to no solver, described once like a solver's
// parameters (params.h): the particle spacing and the playback speed. Their tables
// give the ranges that scene files, state files, the command line and the panels
// check against. The mouse's follow spring has its table beside its struct
// (ContainerDriver::followTable, container.h).
#pragma once

#include "sloshlab/params.h"

#include <string_view>

namespace sloshlab {

struct RunSettings {
  double spacing = 0.01;  // particle spacing s (m)
  double speed = 1.0;     // playback speed: simulated s per wall s (the window)
};

const ParamTable& runSettingsTable();
// The entry of `key` ("spacing" or "speed"); a key the table lacks is a programming error.
const ParamInfo& runSetting(std::string_view key);

}  // namespace sloshlab
