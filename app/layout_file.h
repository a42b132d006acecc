// The panel layout remembered between runs: ImGui's settings text (window positions,
// sizes, collapsed state, table columns) kept in a file of the user's configuration,
// $XDG_CONFIG_HOME/sloshlab/imgui.ini (~/.config/sloshlab/imgui.ini without it).
//
// The panels are placed with ImGuiCond_FirstUseEver (panels.cpp, beginPanel): a panel
// the file knows keeps its remembered place, and a first run, with no file, gets the
// default columns. ImGui's own file handling is off (io.IniFilename = nullptr, so
// that nothing is written to the current directory); this class reads the text before
// the first frame and writes it when ImGui asks (io.WantSaveIniSettings, at most every
// io.IniSavingRate seconds after a change) and at exit. A file that cannot be written
// costs one warning line on stderr, once, never the run.
//
// The same file keeps the app's own remembered choices, key=value lines in a section
// [Sloshlab][Remembered] (value, remember): for now the view's Show (surface, particles,
// both).
#pragma once

#include <map>
#include <string>

namespace sloshlab::app {

// Where the layout lives: $XDG_CONFIG_HOME/sloshlab/imgui.ini when XDG_CONFIG_HOME is
// set and not empty (the XDG base directory specification), else
// $HOME/.config/sloshlab/imgui.ini; "" when neither variable is set.
std::string layoutFilePath();

class LayoutFile {
 public:
  // path "": remember nothing (--no-layout-file). Needs the ImGui context; reads the file.
  explicit LayoutFile(std::string path);
  ~LayoutFile();  // writes the layout (before the ImGui context goes)
  LayoutFile(const LayoutFile&) = delete;
  LayoutFile& operator=(const LayoutFile&) = delete;

  // Once a frame, after ImGui::Render(): writes the layout when ImGui asks.
  void update();
  // A remembered choice ("" when the file had none); remember() keeps a new one (written
  // with the layout).
  std::string value(const std::string& key) const;
  void remember(const std::string& key, const std::string& value);

 private:
  void save();

  std::string m_path;
  bool m_warned = false;
  std::map<std::string, std::string> m_values;
};

}  // namespace sloshlab::app
