#include "render/capture.h"

#include "render/gl.h"
#include "sloshlab/atomic_file.h"

#include <stb_image_write.h>

#include <algorithm>
#include <stdexcept>

namespace sloshlab::render {

void readFramebufferRgb(int width, int height, std::vector<unsigned char>& rgb) {
  if (width <= 0 || height <= 0) throw std::runtime_error("cannot capture an empty framebuffer");
  const std::size_t row = static_cast<std::size_t>(width) * 3;
  rgb.resize(row * static_cast<std::size_t>(height));
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, rgb.data());
  // GL rows run bottom-up; pictures and video frames top-down.
  for (int y = 0; y < height / 2; ++y) {
    auto top = rgb.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(y) * row);
    auto bottom = rgb.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(height - 1 - y) * row);
    std::swap_ranges(top, top + static_cast<std::ptrdiff_t>(row), bottom);
  }
}

void saveFramebufferPng(const std::string& path, int width, int height) {
  std::vector<unsigned char> pixels;
  readFramebufferRgb(width, height, pixels);
  std::string png;
  auto append = [](void* context, void* data, int size) {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data), static_cast<std::size_t>(size));
  };
  if (!stbi_write_png_to_func(append, &png, width, height, 3, pixels.data(), width * 3))
    throw std::runtime_error("cannot encode '" + path + "' as PNG");
  writeFileAtomically(path, png);
}

}  // namespace sloshlab::render
