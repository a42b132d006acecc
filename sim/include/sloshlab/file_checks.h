// What a run may read and write, checked before it starts, so that bad paths give one
// line naming the file instead of a surprise halfway through (or none at all).
#pragma once

#include <string>

namespace sloshlab {

// Why `path` cannot be read as an input file, or "" when it can: missing, a directory,
// or not a regular file (a FIFO would block the run, a device would never end).
std::string inputFileProblem(const std::string& path);

// Why `path` cannot be (re)placed by an output file written under a temporary name
// and renamed, or "" when it can. Only a new name or a regular file may be replaced:
// the rename would put a CSV in place of a device node (--stats /dev/full as root), a
// FIFO or the symbolic link itself; and its directory must exist and be writable.
std::string outputFileProblem(const std::string& path);

// Why files cannot be created in `dir`, or "" when they can.
std::string writableDirectoryProblem(const std::string& dir);

}  // namespace sloshlab
