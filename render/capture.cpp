#include "render/capture.h"

#include "render/gl.h"
#include "sloshlab/export.h"

#include <stb_image_write.h>

#include <cstring>
#include <stdexcept>
#include <vector>

namespace sloshlab::render {

void saveFramebufferPng(const std::string& path, int width, int height) {
  if (width <= 0 || height <= 0) throw std::runtime_error("cannot capture an empty framebuffer");
  const std::size_t row = static_cast<std::size_t>(width) * 3;
  std::vector<unsigned char> pixels(row * static_cast<std::size_t>(height));
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, pixels.data());
  // GL rows run bottom-up; PNG rows top-down.
  std::vector<unsigned char> flipped(pixels.size());
  for (int y = 0; y < height; ++y)
    std::memcpy(&flipped[static_cast<std::size_t>(y) * row], &pixels[static_cast<std::size_t>(height - 1 - y) * row],
                row);
  std::string png;
  auto append = [](void* context, void* data, int size) {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data), static_cast<std::size_t>(size));
  };
  if (!stbi_write_png_to_func(append, &png, width, height, 3, flipped.data(), static_cast<int>(row)))
    throw std::runtime_error("cannot encode '" + path + "' as PNG");
  writeFileAtomically(path, png);
}

}  // namespace sloshlab::render
