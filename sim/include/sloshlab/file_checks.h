// What a run may read and write, checked before it starts, so that bad paths give one
// line naming the file instead of a surprise halfway through (or none at all).
#pragma once

#include <string>

namespace sloshlab {

// Why `path` cannot be read as an input file, or "" when it can: missing, a directory,
// or not a regular file (a FIFO would block the run, a device would never end).
std::string inputFileProblem(const std::string& path);

}  // namespace sloshlab
