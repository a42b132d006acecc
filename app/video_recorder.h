// Video of the view: MP4 (H.264, yuv420p, which every player accepts) or an animated
// GIF, made by the ffmpeg executable, to which raw RGB frames are piped.
//
// The video runs on simulated time: one frame per 1/fps simulated seconds. While
// recording, the simulation thread is frame-locked (command::SetFrameLock): its steps
// land on each frame's time and it waits there until the UI has read that frame back
// and handed it to ffmpeg (command::FrameTaken). A solver slower than real time, or a
// window that draws fewer frames per second than the video has, makes the window play
// in slow motion, never the video: no frame is skipped or repeated.
//
// A frame is the view only (the particles, the container and the colour legend) or,
// with VideoSettings::panels, the whole window; never the view's messages (the
// recording line, toasts), which are drawn after the frame is read
// (gui_app.cpp, renderLayer).
#pragma once

#include "sim_thread.h"

#include <cstdint>
#include <string>
#include <sys/types.h>
#include <vector>

namespace sloshlab::app {

enum class VideoFormat { Mp4, Gif };

struct VideoSettings {
  int fps = 30;                // 30 or 60 frames per simulated second (GIF: 30, as its frame
                               // times are whole hundredths of a second and players show 1/100 s for 1/10 s)
  VideoFormat format = VideoFormat::Mp4;
  bool panels = false;         // record the whole window, panels included
};

// The format a file name asks for (.mp4 or .gif, any case), or false for another.
bool videoFormatFor(const std::string& path, VideoFormat& format);

// Why no video can be recorded, or "" when ffmpeg is on the PATH: the one line says
// how to install it.
std::string ffmpegProblem();

// A name in the current directory that no file has, from the date and time to the
// millisecond: "sloshlab_20260301_141502_387.png" (then "_2", "_3", ... should that
// exist), so that two captures in the same second never overwrite each other.
std::string uniqueCaptureName(const std::string& extension);

// One ffmpeg process writing one file: under a temporary name, renamed by finish().
class FfmpegWriter {
 public:
  // Starts ffmpeg for width x height RGB frames. Throws std::runtime_error.
  FfmpegWriter(const std::string& path, int width, int height, const VideoSettings& settings);
  ~FfmpegWriter();  // unfinished: ffmpeg is stopped and the temporary file removed
  FfmpegWriter(const FfmpegWriter&) = delete;
  FfmpegWriter& operator=(const FfmpegWriter&) = delete;

  // Top row first, 3 bytes per pixel. Throws when ffmpeg has stopped.
  void write(const std::vector<unsigned char>& rgb);
  // Closes the pipe, waits for ffmpeg and renames the file. Throws on failure.
  void finish();
  std::uintmax_t bytes() const;  // written so far
  double cpuSeconds() const { return m_cpuSeconds; }  // ffmpeg's, once finished

 private:
  std::string ffmpegError(const std::string& what) const;
  void abandon();

  std::string m_path, m_tmp, m_log;
  int m_pipe = -1;
  pid_t m_pid = -1;
  double m_cpuSeconds = 0.0;
};

// The app's recorder: starts and stops recordings, and takes each locked frame of the
// simulation thread.
class VideoRecorder {
 public:
  explicit VideoRecorder(SimulationThread& sim) : m_sim(sim) {}
  ~VideoRecorder();

  // Returns "" or why it could not start (ffmpeg missing, a bad path).
  std::string start(const std::string& path, int width, int height, const VideoSettings& settings);
  // Finishes the file; returns the line to show ("saved ...", or the error).
  std::string stop();
  bool recording() const { return m_writer != nullptr; }

  // Whether `s` is a frame of this recording not yet taken. If so, it is taken: the
  // simulation may step on toward the next frame while this one is drawn and read
  // (the triple buffer never overwrites the snapshot the UI holds), and the caller
  // must call readFrame() after drawing it.
  bool takeFrame(const Snapshot& s);
  // Reads the framebuffer (width x height) and hands it to ffmpeg. Returns "" or an
  // error, after which the recording has stopped.
  std::string readFrame(int width, int height);

  long frames() const { return m_frames; }
  double seconds() const { return static_cast<double>(m_frames) / m_settings.fps; }
  std::uintmax_t bytes() const { return m_writer ? m_writer->bytes() : 0; }
  const std::string& path() const { return m_path; }
  bool panels() const { return m_settings.panels; }
  int fps() const { return m_settings.fps; }

 private:
  SimulationThread& m_sim;
  std::unique_ptr<FfmpegWriter> m_writer;
  std::string m_path;
  VideoSettings m_settings;
  int m_width = 0, m_height = 0;
  long m_lock = 0;       // the frame lock's name (one per recording)
  long m_frames = 0;     // taken so far
  long m_lastFrame = -1;  // the simulation's index of the last one
  double m_firstTime = 0.0, m_lastTime = 0.0;  // simulated time of the first and the last
  std::vector<unsigned char> m_rgb;
};

}  // namespace sloshlab::app
