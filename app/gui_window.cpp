#include "gui_window.h"

#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#ifdef SLOSHLAB_HAVE_GPU
#include "sloshlab/gpu.h"
#endif

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

namespace sloshlab::app {

namespace {
std::string g_glfwError;
}  // namespace

SharedComputeContext::SharedComputeContext() {
#ifdef SLOSHLAB_HAVE_GPU
  glfwSetErrorCallback([](int, const char* text) { g_glfwError = text; });
  if (const char* setting = std::getenv("SLOSHLAB_GPU"); setting && std::string(setting) == "off") return;
  if (!glfwInit()) return;  // Window says why
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
  // Not titled "sloshlab...": the test scripts find the app's window by that name.
  window = glfwCreateWindow(16, 16, "GPU compute context", nullptr, nullptr);
  glfwDefaultWindowHints();
  g_glfwError.clear();
  if (!window) return;  // no OpenGL 4.3 here: the GPU path tries EGL
  GLFWwindow* w = window;
  if (!gpu::shareWithWindow([w] { glfwMakeContextCurrent(w); }, reinterpret_cast<gpu::GlLoader>(glfwGetProcAddress),
                            [] { glfwMakeContextCurrent(nullptr); })) {
    glfwDestroyWindow(window);
    window = nullptr;
  }
#endif
}

void SharedComputeContext::close() {
  if (!window) return;
#ifdef SLOSHLAB_HAVE_GPU
  gpu::releaseWindowContext();
#endif
  glfwDestroyWindow(window);
  window = nullptr;
}

Window::Window(double uiScale, SharedComputeContext& shared) : m_shared(shared) {
  glfwSetErrorCallback([](int, const char* text) { g_glfwError = text; });
  if (!glfwInit()) throw std::runtime_error("cannot open a window: " + (g_glfwError.empty() ? "GLFW failed" : g_glfwError));
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 1);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);  // macOS
  glfwWindowHint(GLFW_SCALE_TO_MONITOR, uiScale > 0.0 ? GLFW_FALSE : GLFW_TRUE);
  int width = 1280, height = 800;
  if (uiScale > 0.0) {
    width = static_cast<int>(std::lround(width * uiScale)), height = static_cast<int>(std::lround(height * uiScale));
    if (GLFWmonitor* monitor = glfwGetPrimaryMonitor())
      if (const GLFWvidmode* mode = glfwGetVideoMode(monitor))
        width = std::min(width, mode->width), height = std::min(height, mode->height);
  }
  window = glfwCreateWindow(width, height, "sloshlab", nullptr, shared.window);
  if (!window) {
    m_shared.close();
    glfwTerminate();
    throw std::runtime_error("cannot open a window with OpenGL 4.1: " + g_glfwError);
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(1);
  if (!gladLoadGL(glfwGetProcAddress)) {
    glfwDestroyWindow(window);
    m_shared.close();
    glfwTerminate();
    throw std::runtime_error("cannot load the OpenGL 4.1 functions");
  }
}

Window::~Window() {
  m_shared.close();
  glfwDestroyWindow(window);
  glfwTerminate();
}

ImGuiLayer::ImGuiLayer(GLFWwindow* window, GLFWkeyfun onKey) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // the layout file is the app's (layout_file.h), not the current directory's
  glfwSetKeyCallback(window, onKey);     // ImGui's callback chains to it
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  ImGui_ImplOpenGL3_Init("#version 410 core");
  ImGui_ImplOpenGL3_CreateDeviceObjects();  // so that setScale() can replace the font texture
}

ImGuiLayer::~ImGuiLayer() {
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
}

void ImGuiLayer::setScale(float scale) {
  ImGuiStyle style;
  ImGui::StyleColorsDark(&style);
  style.ScaleAllSizes(scale);
  ImGui::GetStyle() = style;
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  ImFontConfig font;
  font.SizePixels = std::round(13.0f * scale);
  io.Fonts->AddFontDefault(&font);
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
}

void renderLayer(Layer layer) {
  ImDrawData* all = ImGui::GetDrawData();
  ImDrawList* const background = ImGui::GetBackgroundDrawList();
  ImDrawList* const foreground = ImGui::GetForegroundDrawList();
  std::vector<ImDrawList*> lists;
  for (int i = 0; i < all->CmdListsCount; ++i) {
    ImDrawList* list = all->CmdLists[i];
    const Layer of = list == background ? Layer::Legend : list == foreground ? Layer::Messages : Layer::Windows;
    if (of == layer) lists.push_back(list);
  }
  if (lists.empty()) return;
  ImDrawData part = *all;
  part.CmdLists = lists.data();
  part.CmdListsCount = static_cast<int>(lists.size());
  part.TotalVtxCount = part.TotalIdxCount = 0;
  for (const ImDrawList* list : lists) part.TotalVtxCount += list->VtxBuffer.Size, part.TotalIdxCount += list->IdxBuffer.Size;
  ImGui_ImplOpenGL3_RenderDrawData(&part);
}

}  // namespace sloshlab::app
