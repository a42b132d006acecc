// The Motions panel: scripted container motions with their parameters (sloshlab/
// motions.h), played from the scene's start on the running solver; the live drag
// recorded and replayed from the start; motions saved and loaded as --motion CSV.
#include "panel_widgets.h"

#include "sloshlab/motions.h"

#include <algorithm>
#include <cmath>

namespace sloshlab::app {

namespace {

constexpr const char* kKinds[] = {"shake", "sweep", "acceleration", "step", "rotation", "tilt", "impulse", "swirl", "spin"};
constexpr const char* kKindHelp[] = {
    "x = A sin(2 pi f t) for the duration, the amplitude ramped in and out over a period.",
    "A shake whose frequency rises linearly from f to f_end (a chirp): the tank answers most at its "
    "sloshing resonance, omega^2 = g k tanh(k h) (physics.md (11.4)).",
    "A constant acceleration a for the duration, then the same braking to rest: the surface tilts to "
    "slope -a/g, then the other way (physics.md (11.2)).",
    "A move by the distance over the ramp time (smoothstep), then held.",
    "Turning at a constant rate for the duration, ramped in and out: the liquid feels the centrifugal and "
    "Coriolis accelerations (physics.md (8.3)).",
    "A turn to the angle over the ramp time, then held: the surface levels in the world.",
    "A quick push at up to the speed over the ramp time: the liquid sloshes back at its first mode.",
    "Orbital shaking, as one swirls a glass: the centre circles at radius A with frequency f, in the "
    "horizontal plane (x and z; x and y in 2D), the radius ramped in and out over a period.",
    "Turning about the vertical at a constant rate for the duration, ramped in and out (3D): Newton's "
    "bucket, whose surface becomes the paraboloid y = omega^2 r^2 / (2 g) once the liquid turns with it.",
};

static_assert(IM_ARRAYSIZE(kKinds) == static_cast<int>(MotionKind::Count) && IM_ARRAYSIZE(kKindHelp) == IM_ARRAYSIZE(kKinds));

bool translates(MotionKind k) {
  return k != MotionKind::Rotation && k != MotionKind::Tilt && k != MotionKind::Swirl && k != MotionKind::Spin;
}

void sliderDouble(const char* label, double& value, double lo, double hi, const char* format, const char* help,
                  double scale = 1.0) {
  float shown = static_cast<float>(value * scale);
  if (ImGui::SliderFloat(label, &shown, static_cast<float>(lo * scale), static_cast<float>(hi * scale), format))
    value = static_cast<double>(shown) / scale;
  helpMarker(help);
}

void motionParameters(MotionSpec& m) {
  if (translates(m.kind)) {
    ImGui::RadioButton("x", &m.axis, 0);
    ImGui::SameLine();
    ImGui::RadioButton("y (up)", &m.axis, 1);
    ImGui::SameLine();
    ImGui::TextUnformatted("axis");
  }
  switch (m.kind) {
    case MotionKind::Shake:
    case MotionKind::Sweep:
      sliderDouble("Amplitude", m.amplitude, 0.001, 0.2, "%.1f mm", "A (m): the half swing of x = A sin(2 pi f t).", 1e3);
      sliderDouble("Frequency", m.frequency, 0.2, 10.0, "%.2f Hz", "f (Hz): the shake's frequency, the sweep's start.");
      if (m.kind == MotionKind::Sweep)
        sliderDouble("End frequency", m.frequencyEnd, 0.2, 10.0, "%.2f Hz", "f_end (Hz): where the sweep ends.");
      sliderDouble("Duration", m.duration, 0.5, 30.0, "%.1f s", "How long it shakes (s).");
      break;
    case MotionKind::Acceleration:
      sliderDouble("Acceleration", m.acceleration, -20.0, 20.0, "%.2f m/s^2",
                   "a (m/s^2): the container's acceleration, then its braking; 9.81 is 1 g.");
      sliderDouble("Duration", m.duration, 0.2, 10.0, "%.1f s", "How long it accelerates; it brakes as long (s).");
      break;
    case MotionKind::Step:
      sliderDouble("Distance", m.distance, -0.5, 0.5, "%.3f m", "How far it moves (m).");
      sliderDouble("Ramp", m.rampTime, 0.02, 2.0, "%.2f s", "Over how long (s); peak speed 1.5 distance / ramp.");
      break;
    case MotionKind::Swirl:
      sliderDouble("Radius", m.amplitude, 0.001, 0.2, "%.1f mm", "A (m): the radius of the circle the centre runs on.",
                   1e3);
      sliderDouble("Frequency", m.frequency, 0.2, 10.0, "%.2f Hz", "f (Hz): turns of the circle per second.");
      sliderDouble("Duration", m.duration, 0.5, 30.0, "%.1f s", "How long it swirls (s).");
      break;
    case MotionKind::Rotation:
    case MotionKind::Spin:
      sliderDouble("Rate", m.rate, -6.0, 6.0, "%.2f rad/s",
                   m.kind == MotionKind::Spin ? "omega (rad/s) about the vertical, counter-clockwise seen from above."
                                              : "omega (rad/s), counter-clockwise positive.");
      sliderDouble("Duration", m.duration, 0.2, 30.0, "%.1f s", "How long it turns (s).");
      sliderDouble("Ramp", m.rampTime, 0.02, 2.0, "%.2f s", "The rate ramps in and out over this (s).");
      break;
    case MotionKind::Tilt:
      sliderDouble("Angle", m.angle, -kPi / 2.0, kPi / 2.0, "%.1f deg", "The angle it turns to, counter-clockwise.",
                   180.0 / kPi);
      sliderDouble("Ramp", m.rampTime, 0.02, 2.0, "%.2f s", "Over how long (s).");
      break;
    case MotionKind::Impulse:
      sliderDouble("Speed", m.speed, -4.0, 4.0, "%.2f m/s", "The push's peak speed (m/s).");
      sliderDouble("Ramp", m.rampTime, 0.02, 0.5, "%.2f s", "How long the push lasts (s).");
      break;
    case MotionKind::Count: break;
  }
}

void heading(const char* text) {
  ImGui::Separator();
  ImGui::TextDisabled("%s", text);
}

void showError(PanelContext& ctx, const std::string& text) {
  ctx.state.toast = text;
  ctx.state.toastUntil = ImGui::GetTime() + 5.0;
}

}  // namespace

void drawMotionsPanel(bool* open, PanelContext& ctx) {
  if (!beginPanel("Motions", open, ctx)) return;
  MotionChoice& c = ctx.state.motionChoice;
  const MotionStatus& status = ctx.snapshot.motion;
  ImGui::PushItemWidth(itemWidthBeside("End frequency"));

  // A spin turns about the vertical: not offered in 2D.
  const int kinds = ctx.snapshot.dim == 3 ? IM_ARRAYSIZE(kKinds) : IM_ARRAYSIZE(kKinds) - 1;
  if (static_cast<int>(c.spec.kind) >= kinds) c.spec.kind = MotionKind::Shake;
  int kind = static_cast<int>(c.spec.kind);
  if (ImGui::Combo("Motion", &kind, kKinds, kinds)) c.spec.kind = static_cast<MotionKind>(kind);
  helpMarker(kKindHelp[kind]);
  motionParameters(c.spec);
  if (ImGui::Button("Play from the start")) {
    try {
      ctx.sim.post(command::PlayMotion{makeMotion(c.spec, ctx.snapshot.dim)});
      ctx.state.playedMotion = c.spec;
    } catch (const std::exception& e) {
      showError(ctx, e.what());
    }
  }
  helpMarker("Restarts the scene with this motion on the running solver and its parameters. A drag takes over.");
  if (status.scripted) {
    ImGui::SameLine();
    if (ImGui::Button("Stop")) ctx.sim.post(command::StopMotion{});
    ImGui::TextDisabled("playing a motion of %.1f s", status.scriptEnd);
  }

  heading("Live drag");
  if (!status.recording) {
    if (ImGui::Button("Record")) ctx.sim.post(command::StartRecording{});
  } else if (ImGui::Button("Stop recording")) {
    ctx.sim.post(command::StopRecording{});
  }
  ImGui::SameLine();
  ImGui::BeginDisabled(status.recorded <= 0.0);
  if (ImGui::Button("Replay from the start")) ctx.sim.post(command::ReplayRecording{});
  ImGui::EndDisabled();
  helpMarker("Record, drag the bottle, stop: Replay restarts the scene and drives the bottle along the same path, "
             "on the running solver (switch solvers to compare them on the same drag).");
  if (status.recording || status.recorded > 0.0)
    ImGui::TextDisabled("%s %.1f s of drag", status.recording ? "recording:" : "recorded", status.recorded);

  heading("File (--motion CSV)");
  ImGui::SetNextItemWidth(-1.0f);
  ImGui::InputText("##motion_path", c.path, sizeof c.path);
  if (ImGui::Button("Save")) ctx.sim.post(command::SaveMotion{c.path});
  ImGui::SameLine();
  if (ImGui::Button("Load and play")) {
    try {
      ctx.sim.post(command::PlayMotion{MotionScript::load(c.path)});
    } catch (const std::exception& e) {
      showError(ctx, e.what());
    }
  }
  helpMarker("Save writes the recorded drag (or else the motion playing) as t,x,y[,z],angle, what --motion reads; "
             "Load and play restarts the scene with a file's motion.");
  if (!status.saved.empty()) ImGui::TextDisabled("saved %s", status.saved.c_str());
  ImGui::PopItemWidth();
  ImGui::End();
}

}  // namespace sloshlab::app
