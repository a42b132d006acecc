// The ImGui panels: one function per panel, each taking its open flag and the app
// state; panels send their edits to the simulation thread as commands.
#pragma once

#include "app_state.h"
#include "sim_thread.h"

namespace sloshlab::app {

struct PanelContext {
  AppState& state;
  const Snapshot& snapshot;
  SimulationThread& sim;
  const SimulationSetup& baseSetup;  // the command line's setup (motion, overrides, seed)
};

void drawScenePanel(bool* open, PanelContext& ctx);
void drawSolverPanel(bool* open, PanelContext& ctx);
void drawViewPanel(bool* open, PanelContext& ctx);
void drawStatsPanel(bool* open, PanelContext& ctx);
void drawPlaybackPanel(bool* open, PanelContext& ctx);
void drawHelpPanel(bool* open);

// Always-on overlays: the colour legend, the hint, the failure banner, toasts.
void drawOverlays(PanelContext& ctx, double now);

}  // namespace sloshlab::app
