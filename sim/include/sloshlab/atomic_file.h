// Writing a whole file so that a reader never sees half of it: under a temporary name
// in the same directory, renamed over the path when complete. Only a new name or a
// regular file is replaced (outputFileProblem in file_checks.h), never a device, FIFO
// or symbolic link.
#pragma once

#include <string>

namespace sloshlab {

// Writes `text` to path atomically (a temporary "<path>.<pid>-<n>.tmp" in the same
// directory, then rename). Throws on failure.
void writeFileAtomically(const std::string& path, const std::string& text);

}  // namespace sloshlab
