// Offscreen capture: the current framebuffer as RGB rows (for video frames) or as a
// PNG file, written atomically.
#pragma once

#include <string>
#include <vector>

namespace sloshlab::render {

// Reads the default framebuffer's back buffer (width x height pixels) into `rgb`:
// 3 bytes per pixel, the top row first. Reuses `rgb`'s storage.
void readFramebufferRgb(int width, int height, std::vector<unsigned char>& rgb);

// Reads the default framebuffer (width x height pixels) and writes it as an RGB PNG
// at `path` (temporary name, then rename). Throws std::runtime_error on failure.
void saveFramebufferPng(const std::string& path, int width, int height);

}  // namespace sloshlab::render
