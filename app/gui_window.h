// The platform layer of the window, after the Dear ImGui GLFW + OpenGL3 example: the
// GLFW window with its OpenGL 4.1 context, Dear ImGui's set-up and scale, and ImGui's
// draw data drawn in layers (so that pictures can be read between them).
#pragma once

#include "render/gl.h"  // glad before GLFW

#include <GLFW/glfw3.h>

namespace sloshlab::app {

// The GPU path's context shared with the window's (sloshlab/gpu.h, shareWithWindow), so
// that the window draws GPU solvers' particles from their own memory: a hidden window's
// context, made before the simulation (a GPU solver chosen on the command line computes
// in it from its first step) and current on the compute thread for good. Without a
// display, without OpenGL 4.3 or with SLOSHLAB_GPU=off, nothing is shared, and the GPU
// path makes its own headless context when first used.
class SharedComputeContext {
 public:
  SharedComputeContext();
  ~SharedComputeContext() { close(); }
  SharedComputeContext(const SharedComputeContext&) = delete;
  SharedComputeContext& operator=(const SharedComputeContext&) = delete;
  // The compute thread lets the context go and the hidden window closes (before GLFW ends).
  void close();
  GLFWwindow* window = nullptr;  // null: nothing shared
};

class Window {
 public:
  // The window is 1280x800 times the UI scale (by default the monitor's content scale,
  // which GLFW applies itself), at most the monitor's size. Throws std::runtime_error
  // when no window with OpenGL 4.1 opens. Its context shares objects with `shared`'s
  // (closed here before GLFW ends).
  Window(double uiScale, SharedComputeContext& shared);
  ~Window();
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;
  GLFWwindow* window = nullptr;

 private:
  SharedComputeContext& m_shared;
};

class ImGuiLayer {
 public:
  // `onKey` sees every key press first (ImGui's callback chains to it).
  ImGuiLayer(GLFWwindow* window, GLFWkeyfun onKey);
  ~ImGuiLayer();
  ImGuiLayer(const ImGuiLayer&) = delete;
  ImGuiLayer& operator=(const ImGuiLayer&) = delete;
  // Text and sizes at `scale`: the font is rasterised again at its new size (sharper
  // than stretching the 13 px one), the style's sizes scaled from the defaults. Call
  // between frames.
  void setScale(float scale);
};

// ImGui's draw data in three layers, so that a picture can be read between them: the
// background list (the colour legend), the foreground list, which holds the view's
// messages (drawOverlays) and is drawn here below the windows, and the windows (panels,
// menu bar, tooltips).
enum class Layer { Legend, Messages, Windows };
void renderLayer(Layer layer);

}  // namespace sloshlab::app
