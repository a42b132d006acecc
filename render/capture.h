// Offscreen capture: the current framebuffer to a PNG file, written atomically.
#pragma once

#include <string>

namespace sloshlab::render {

// Reads the default framebuffer (width x height pixels) and writes it as an RGB PNG
// at `path` (temporary name, then rename). Throws std::runtime_error on failure.
void saveFramebufferPng(const std::string& path, int width, int height);

}  // namespace sloshlab::render
