// The steps of an atomic write (sloshlab/atomic_file.h), for writers that stream to
// the temporary file themselves (the stats table, io/export.cpp).
#pragma once

#include <string>

namespace sloshlab {

// A temporary name beside `path` (rename must not cross file systems), unique to this
// process and write.
std::string temporaryName(const std::string& path);

// Throws unless `path` may be replaced (outputFileProblem in file_checks.h).
void requireReplaceable(const std::string& path);

// Renames `tmp` over `path`, checking `path` again first (a long run gives it time to
// change); removes `tmp` and throws on failure.
void replaceWith(const std::string& tmp, const std::string& path);

}  // namespace sloshlab
