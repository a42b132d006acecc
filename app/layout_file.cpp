// The remembered panel layout (layout_file.h).
#include "layout_file.h"

#include <imgui.h>
#include <imgui_internal.h>  // ImGuiSettingsHandler (ImGui 1.86 has no AddSettingsHandler)

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>

namespace sloshlab::app {

std::string layoutFilePath() {
  namespace fs = std::filesystem;
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  if (xdg && *xdg) return (fs::path(xdg) / "sloshlab" / "imgui.ini").string();
  const char* home = std::getenv("HOME");
  if (home && *home) return (fs::path(home) / ".config" / "sloshlab" / "imgui.ini").string();
  return {};
}

LayoutFile::LayoutFile(std::string path) : m_path(std::move(path)) {
  ImGui::GetIO().IniFilename = nullptr;  // ImGui writes nothing itself (not in the current directory)
  if (m_path.empty()) return;
  // [Sloshlab][Remembered]: key=value lines.
  ImGuiSettingsHandler handler;
  handler.TypeName = "Sloshlab";
  handler.TypeHash = ImHashStr("Sloshlab");
  handler.UserData = this;
  handler.ReadOpenFn = [](ImGuiContext*, ImGuiSettingsHandler*, const char* name) -> void* {
    return std::string(name) == "Remembered" ? reinterpret_cast<void*>(1) : nullptr;
  };
  handler.ReadLineFn = [](ImGuiContext*, ImGuiSettingsHandler* h, void*, const char* line) {
    const std::string text(line);
    const auto equals = text.find('=');
    if (equals != std::string::npos && equals > 0)
      static_cast<LayoutFile*>(h->UserData)->m_values[text.substr(0, equals)] = text.substr(equals + 1);
  };
  handler.WriteAllFn = [](ImGuiContext*, ImGuiSettingsHandler* h, ImGuiTextBuffer* out) {
    const auto& values = static_cast<LayoutFile*>(h->UserData)->m_values;
    if (values.empty()) return;
    out->appendf("[%s][Remembered]\n", h->TypeName);
    for (const auto& [key, value] : values) out->appendf("%s=%s\n", key.c_str(), value.c_str());
    out->append("\n");
  };
  ImGui::GetCurrentContext()->SettingsHandlers.push_back(handler);
  std::ifstream in(m_path, std::ios::binary);
  if (!in) return;  // a first run: the default layout
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ImGui::LoadIniSettingsFromMemory(text.data(), text.size());
}

std::string LayoutFile::value(const std::string& key) const {
  const auto at = m_values.find(key);
  return at == m_values.end() ? std::string() : at->second;
}

void LayoutFile::remember(const std::string& key, const std::string& value) {
  if (m_path.empty() || value.find_first_of("\n=") != std::string::npos) return;
  auto& kept = m_values[key];
  if (kept == value) return;
  kept = value;
  ImGui::MarkIniSettingsDirty();
}

LayoutFile::~LayoutFile() {
  if (!m_path.empty() && ImGui::GetCurrentContext()) save();
}

void LayoutFile::update() {
  ImGuiIO& io = ImGui::GetIO();
  if (!io.WantSaveIniSettings) return;
  io.WantSaveIniSettings = false;
  if (!m_path.empty()) save();
}

void LayoutFile::save() {
  namespace fs = std::filesystem;
  std::size_t size = 0;
  const char* text = ImGui::SaveIniSettingsToMemory(&size);
  std::error_code error;
  const fs::path path(m_path);
  if (path.has_parent_path()) fs::create_directories(path.parent_path(), error);
  bool written = false;
  if (!error) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    written = out && out.write(text, static_cast<std::streamsize>(size)) && out.flush();
  }
  if (!written && !m_warned) {
    m_warned = true;
    std::fprintf(stderr, "sloshlab: warning: cannot write the panel layout to '%s'%s%s; it will not be remembered\n",
                 m_path.c_str(), error ? ": " : "", error ? error.message().c_str() : "");
  }
}

}  // namespace sloshlab::app
