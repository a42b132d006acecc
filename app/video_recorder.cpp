#include "video_recorder.h"

#include "render/capture.h"
#include "sloshlab/file_checks.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <stdexcept>

extern char** environ;

namespace sloshlab::app {

namespace {

namespace fs = std::filesystem;

const char* const kInstallHint =
    "cannot record video: ffmpeg is missing (sudo apt-get install ffmpeg, or third_party/install_deps.sh)";

// The ffmpeg executable on the PATH, or "".
std::string ffmpegPath() {
  const char* env = std::getenv("PATH");
  const std::string path = env ? env : "/usr/local/bin:/usr/bin:/bin";
  std::size_t from = 0;
  while (from <= path.size()) {
    const std::size_t to = std::min(path.find(':', from), path.size());
    const std::string dir = path.substr(from, to - from);
    const std::string candidate = (dir.empty() ? std::string(".") : dir) + "/ffmpeg";
    std::error_code ec;
    if (fs::is_regular_file(candidate, ec) && ::access(candidate.c_str(), X_OK) == 0) return candidate;
    from = to + 1;
  }
  return {};
}

// ffmpeg's command line. Input: raw RGB frames on stdin at `fps`. MP4: H.264 in
// yuv420p (4:2:0 needs even sizes: an odd row or column is cropped) with the index at
// the front, so that a browser plays it while loading. GIF: a palette per frame
// (palettegen stats_mode=single), so that ffmpeg never holds the whole video in memory
// as a palette for all frames would; GIFs loop.
std::vector<std::string> ffmpegArguments(const std::string& exe, const std::string& out, int width, int height,
                                         const VideoSettings& s) {
  std::vector<std::string> a = {exe, "-hide_banner", "-loglevel", "error", "-nostdin", "-y",
                                "-f", "rawvideo", "-pixel_format", "rgb24",
                                "-video_size", std::to_string(width) + "x" + std::to_string(height),
                                "-framerate", std::to_string(s.fps), "-i", "pipe:0"};
  if (s.format == VideoFormat::Mp4) {
    a.insert(a.end(), {"-vf", "crop=trunc(iw/2)*2:trunc(ih/2)*2", "-c:v", "libx264", "-preset", "veryfast", "-crf",
                       "20", "-pix_fmt", "yuv420p", "-movflags", "+faststart", "-f", "mp4", out});
  } else {
    a.insert(a.end(), {"-vf", "split[a][b];[a]palettegen=stats_mode=single[p];[b][p]paletteuse=new=1", "-f", "gif",
                       out});
  }
  return a;
}

std::string lastLine(const std::string& path) {
  std::ifstream in(path);
  std::string line, last;
  while (std::getline(in, line))
    if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
  return last;
}

}  // namespace

bool videoFormatFor(const std::string& path, VideoFormat& format) {
  std::string ext = fs::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (ext == ".mp4") return format = VideoFormat::Mp4, true;
  if (ext == ".gif") return format = VideoFormat::Gif, true;
  return false;
}

std::string ffmpegProblem() { return ffmpegPath().empty() ? kInstallHint : ""; }

std::string uniqueCaptureName(const std::string& extension) {
  const auto now = std::chrono::system_clock::now();
  const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  const long ms = static_cast<long>(
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000);
  char stamp[64];
  std::strftime(stamp, sizeof stamp, "sloshlab_%Y%m%d_%H%M%S", std::localtime(&seconds));
  char base[80];
  std::snprintf(base, sizeof base, "%s_%03ld", stamp, ms);
  std::string name = base + extension;
  std::error_code ec;
  for (int k = 2; fs::symlink_status(name, ec).type() != fs::file_type::not_found; ++k)
    name = std::string(base) + "_" + std::to_string(k) + extension;
  return name;
}

// ---------------------------------------------------------------- FfmpegWriter

FfmpegWriter::FfmpegWriter(const std::string& path, int width, int height, const VideoSettings& settings)
    : m_path(path) {
  const std::string exe = ffmpegPath();
  if (exe.empty()) throw std::runtime_error(kInstallHint);
  if (const std::string problem = outputFileProblem(path); !problem.empty())
    throw std::runtime_error("cannot write '" + path + "': " + problem);
  // As writeFileAtomically: a temporary name unique to this process, beside the file.
  static std::atomic<unsigned> counter{0};
  m_tmp = path + "." + std::to_string(::getpid()) + "-v" + std::to_string(++counter) + ".tmp";
  std::string log = (fs::temp_directory_path() / "sloshlab_ffmpeg_XXXXXX").string();
  const int logFd = ::mkstemp(log.data());
  if (logFd < 0) throw std::runtime_error("cannot create a log file for ffmpeg in " + fs::temp_directory_path().string());
  ::close(logFd);
  m_log = log;

  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    std::remove(m_log.c_str());
    throw std::runtime_error("cannot start ffmpeg: no pipe");
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[0], 0);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, m_log.c_str(), O_WRONLY | O_TRUNC, 0);
  std::vector<std::string> args = ffmpegArguments(exe, m_tmp, width, height, settings);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const int spawned = ::posix_spawn(&m_pid, exe.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[0]);
  if (spawned != 0) {
    ::close(fds[1]);
    m_pid = -1;
    std::remove(m_log.c_str());
    throw std::runtime_error("cannot start " + exe);
  }
  m_pipe = fds[1];
  // A write to an ffmpeg that has stopped fails with EPIPE and is reported, instead
  // of the signal ending the app.
  std::signal(SIGPIPE, SIG_IGN);
}

FfmpegWriter::~FfmpegWriter() { abandon(); }

void FfmpegWriter::abandon() {
  if (m_pipe >= 0) ::close(m_pipe), m_pipe = -1;
  if (m_pid > 0) {
    ::kill(m_pid, SIGTERM);
    int status = 0;
    ::waitpid(m_pid, &status, 0);
    m_pid = -1;
  }
  if (!m_tmp.empty()) std::remove(m_tmp.c_str()), m_tmp.clear();
  if (!m_log.empty()) std::remove(m_log.c_str()), m_log.clear();
}

std::string FfmpegWriter::ffmpegError(const std::string& what) const {
  const std::string line = lastLine(m_log);
  return line.empty() ? what : what + ": " + line;
}

void FfmpegWriter::write(const std::vector<unsigned char>& rgb) {
  const unsigned char* data = rgb.data();
  std::size_t left = rgb.size();
  while (left > 0) {
    const ssize_t n = ::write(m_pipe, data, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::runtime_error(ffmpegError("ffmpeg stopped while recording '" + m_path + "'"));
    data += n, left -= static_cast<std::size_t>(n);
  }
}

void FfmpegWriter::finish() {
  ::close(m_pipe), m_pipe = -1;
  int status = 0;
  rusage usage{};
  while (::wait4(m_pid, &status, 0, &usage) < 0 && errno == EINTR) {
  }
  m_pid = -1;
  m_cpuSeconds = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                 1e-6 * static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
  std::string problem;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    problem = ffmpegError("ffmpeg failed on '" + m_path + "' (status " +
                          std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status)) + ")");
  else if (problem = outputFileProblem(m_path); !problem.empty())  // checked again: the path may have changed
    problem = "cannot write '" + m_path + "': " + problem;
  if (problem.empty()) {
    std::error_code ec;
    fs::rename(m_tmp, m_path, ec);
    if (ec) problem = "cannot write '" + m_path + "': " + ec.message();
    else m_tmp.clear();
  }
  abandon();  // the log, and the temporary file if it was not renamed
  if (!problem.empty()) throw std::runtime_error(problem);
}

std::uintmax_t FfmpegWriter::bytes() const {
  std::error_code ec;
  const std::uintmax_t n = fs::file_size(m_tmp, ec);
  return ec ? 0 : n;
}

// ---------------------------------------------------------------- VideoRecorder

VideoRecorder::~VideoRecorder() { stop(); }

std::string VideoRecorder::start(const std::string& path, int width, int height, const VideoSettings& settings) {
  if (recording()) return "already recording " + m_path;
  if (settings.format == VideoFormat::Gif && settings.fps != 30) return "a GIF is recorded at 30 fps";
  try {
    m_writer = std::make_unique<FfmpegWriter>(path, width, height, settings);
  } catch (const std::exception& e) {
    return e.what();
  }
  m_path = path, m_settings = settings, m_width = width, m_height = height;
  m_frames = 0, m_lastFrame = -1;
  m_sim.post(command::SetFrameLock{1.0 / settings.fps, ++m_lock});
  return {};
}

std::string VideoRecorder::stop() {
  if (!m_writer) return {};
  m_sim.post(command::SetFrameLock{0.0, m_lock});
  std::unique_ptr<FfmpegWriter> writer = std::move(m_writer);
  if (m_frames == 0) return "no video frame recorded: nothing saved";  // the writer's destructor cleans up
  try {
    writer->finish();
  } catch (const std::exception& e) {
    return e.what();
  }
  std::error_code ec;
  const fs::path shown = fs::absolute(m_path, ec);
  const std::uintmax_t size = fs::file_size(m_path, ec);
  char text[192];
  std::snprintf(text, sizeof text,
                " (%ld frames, %.2f s at %d fps, simulated t = %.9g to %.9g s; %.1f MB; ffmpeg took %.1f s of CPU)",
                m_frames, seconds(), m_settings.fps, m_firstTime, m_lastTime,
                ec ? 0.0 : 1e-6 * static_cast<double>(size), writer->cpuSeconds());
  return "saved " + (shown.empty() ? m_path : shown.string()) + text;
}

bool VideoRecorder::takeFrame(const Snapshot& s) {
  if (!recording() || s.videoLock != m_lock || s.videoFrame <= m_lastFrame) return false;
  m_lastFrame = s.videoFrame;
  if (m_frames == 0) m_firstTime = s.stats.time;
  m_lastTime = s.stats.time;
  m_sim.post(command::FrameTaken{m_lock, s.videoFrame});
  return true;
}

std::string VideoRecorder::readFrame(int width, int height) {
  if (!recording()) return {};
  if (width != m_width || height != m_height) {
    const std::string saved = stop();
    return "recording stopped: the window changed size; " + saved;
  }
  try {
    render::readFramebufferRgb(width, height, m_rgb);
    m_writer->write(m_rgb);
  } catch (const std::exception& e) {
    m_sim.post(command::SetFrameLock{0.0, m_lock});
    m_writer.reset();
    return e.what();
  }
  ++m_frames;
  return {};
}

}  // namespace sloshlab::app
