// The ImGui panels: one function per panel, each taking its open flag and the app
// state; panels send their edits to the simulation thread as commands.
#pragma once

#include "app_state.h"
#include "sim_thread.h"

#include "render/camera.h"

#include <glm/glm.hpp>

#include <optional>

namespace sloshlab::app {

// Where things go, in ImGui units (the display size), from the font size so that the
// layout follows the UI scale: two columns of panels, and between them the free area
// where the bottle, the colour legend and the messages live (the whole window when H
// hides the panels, which hides the menu bar too).
struct Layout {
  float em = 13.0f;
  glm::vec2 display{0.0f};
  float top = 0.0f;          // the panels' top, below the menu bar
  float leftWidth = 0.0f;    // the columns' widths
  float rightWidth = 0.0f;
  glm::vec4 free{0.0f};      // x0, y0, x1, y1
};
Layout windowLayout(bool panelsShown);

struct PanelContext {
  AppState& state;
  const Snapshot& snapshot;
  SimulationThread& sim;
  const SimulationSetup& baseSetup;  // the command line's setup (motion, overrides, seed)
  const Layout& layout;
};

// Switching scene, dimension, solver or spacing, from the Scene and Solver panels and
// from the keys (gui_app.cpp): the choice changes and the simulation thread builds a
// new simulation from it (command::Rebuild), with the command line's motion, overrides
// and seed when the scene is the one it named. A new scene or dimension starts at its
// own spacing. Scene and solver indices wrap around; choosing the current one does
// nothing.
struct SceneSwitch {
  AppState& state;
  SimulationThread& sim;
  const SimulationSetup& baseSetup;
};
void chooseScene(const SceneSwitch& to, int scene);
void chooseDim(const SceneSwitch& to, int dim);
void chooseSolver(const SceneSwitch& to, int solver);
void chooseSpacing(const SceneSwitch& to, float spacing);

// The Scene panel's choices (scene, dimension, solver, spacing) that describe `setup`.
SceneChoice initialChoice(const SimulationSetup& setup);

// The menu bar (hidden with the panels and in the lecture view): the Panels menu opens
// and closes each panel, Help the key table.
void drawMenuBar(AppState& state);
// Every open panel, each in its place (kPlaces in panels.cpp); after a change of UI scale
// they go back there.
void drawPanels(PanelContext& ctx);

void drawScenePanel(bool* open, PanelContext& ctx);
void drawSolverPanel(bool* open, PanelContext& ctx);
void drawViewPanel(bool* open, PanelContext& ctx);
void drawStatsPanel(bool* open, PanelContext& ctx);
void drawPlaybackPanel(bool* open, PanelContext& ctx);
void drawExportPanel(bool* open, PanelContext& ctx);
void drawMotionsPanel(bool* open, PanelContext& ctx);
void drawExperimentsPanel(bool* open, PanelContext& ctx);
void drawInspectorPanel(bool* open, PanelContext& ctx);
void drawProbesPanel(bool* open, PanelContext& ctx);
// The probes in the view: a gauge as a vertical line through the container, a sensor as
// a circle of its radius, each with its number (2D; in 3D at their drawn positions).
// With the panel's "place" on, `clickAt` (framebuffer pixels) adds a probe there and is
// consumed.
// The inspected body's free-body diagram on the view: its weight and the liquid's force
// on it, from its centre, at 50 px per M g (inspector_panel.cpp).
void drawBodyForces(PanelContext& ctx, const render::CameraView& camera, const glm::mat4& drawnFromWorld);
void drawProbeMarkers(PanelContext& ctx, const render::CameraView& camera, const glm::mat4& drawnFromWorld,
                      std::optional<glm::vec2>& clickAt);
// The Export panel's fields from the command line's --export, --format and --every.
void initExportChoice(ExportChoice& choice, const std::string& dir, ExportFormat format, long every);
void drawHelpPanel(bool* open);

// Always-on overlays, drawn behind the panels inside the free area so that they never
// cover a control: the colour legend (kept with the panels hidden), on ImGui's
// background draw list, and the messages (the failure banner, slow motion, recording,
// the hint, toasts) on its foreground list, which gui_app.cpp draws below the windows
// and after any screenshot or video frame is read, so that no picture shows them.
void drawOverlays(PanelContext& ctx, double now);

// The Scene panel's sections (scene_sections.cpp): the faucet's and outlet's switches
// and mass balance, and the obstacles listed under "Geometry"; each draws nothing for
// a scene without them.
void drawPourControls(PanelContext& ctx);
void drawGeometry(PanelContext& ctx);
void drawBodies(PanelContext& ctx);

// Particles of the snapshot outside the container's box (0 for a sound solver).
std::size_t particlesOutside(const Snapshot& s);
// Host particle i (of s.positions) lies in the outlet's spout: past its wall by no more
// than the spout (physics.md (14.3)).
bool inOutletSpout(const Snapshot& s, std::size_t i);

}  // namespace sloshlab::app
