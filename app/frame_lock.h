// The video frame lock (command::SetFrameLock): while a video records, the simulation
// lands on every multiple of the frame period after the lock began, and publishes each
// such state as one frame once the UI has taken the frame before, so that none is lost
// or repeated. This class keeps the count; the simulation thread steps and publishes.
#pragma once

#include <algorithm>

namespace sloshlab::app {

class FrameLock {
 public:
  // From `now` (simulated s) on, a frame every `period` s; period 0 ends the lock.
  // `lock` names the recording, so that a frame of an earlier one is never taken for it.
  void start(double period, long lock, double now) {
    m_period = std::max(period, 0.0);
    m_lock = lock;
    m_base = now;
    m_shown = m_taken = -1;
    m_ready = false;
  }
  bool on() const { return m_period > 0.0; }
  long lock() const { return m_lock; }
  // Simulated time of the next frame to publish.
  double nextTime() const { return m_base + static_cast<double>(m_shown + 1) * m_period; }
  // A new simulation (rebuilt or loaded) goes on recording: its next frame is now.
  void restartAt(double now) { m_base = now - static_cast<double>(m_shown + 1) * m_period; }

  // The state is at the next frame's time (set after each stepping toward it).
  void setReady(bool ready) { m_ready = ready; }
  bool ready() const { return m_ready; }
  // A published frame the UI has not fetched: nothing else may be published meanwhile
  // (the triple buffer would replace it).
  bool untaken() const { return on() && m_shown > m_taken; }
  // The ready frame may go out now.
  bool publishable() const { return m_ready && !untaken(); }
  // The number of the frame published now.
  long publish() {
    m_ready = false;
    return ++m_shown;
  }
  // The UI fetched `frame` of recording `lock` (frames of an earlier recording are ignored).
  void taken(long lock, long frame) {
    if (lock == m_lock) m_taken = std::max(m_taken, frame);
  }

 private:
  double m_period = 0.0;  // 0: off
  long m_lock = 0;
  double m_base = 0.0;    // simulated time of frame 0
  long m_shown = -1, m_taken = -1;  // the last frame published, and taken by the UI
  bool m_ready = false;
};

}  // namespace sloshlab::app
