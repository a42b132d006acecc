// The files a run reads and writes, checked together before anything is loaded or
// written: a bad output path used to surface only after the whole run (--export out
// --stats out left out/ with particle files and no container.csv).
#pragma once

#include "cli.h"

namespace sloshlab::app {

// Throws std::runtime_error with one line naming the option and the path.
void checkRunFiles(const Options& options);

}  // namespace sloshlab::app
