#include "gl_context.h"

#include "sloshlab/gpu.h"

#include <glad/gl.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>
#include <string>
#include <thread>

namespace sloshlab::gpu {

namespace {

std::atomic<unsigned long> g_generations{0};

GLADapiproc eglLoader(const char* name) { return reinterpret_cast<GLADapiproc>(eglGetProcAddress(name)); }

// The displays to try, most specific first: Mesa's surfaceless platform (llvmpipe and
// Mesa drivers, no X server), an EGL device (NVIDIA without a display), the default one.
EGLDisplay openDisplay(std::string& tried) {
  const auto getPlatformDisplay =
      reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
  const auto queryDevices = reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(eglGetProcAddress("eglQueryDevicesEXT"));
  auto initialised = [&](EGLDisplay d, const char* what) {
    EGLint major = 0, minor = 0;
    if (d != EGL_NO_DISPLAY && eglInitialize(d, &major, &minor)) return true;
    tried += tried.empty() ? what : std::string(", ") + what;
    return false;
  };
  if (getPlatformDisplay) {
    EGLDisplay d = getPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
    if (initialised(d, "surfaceless")) return d;
    if (queryDevices) {
      EGLDeviceEXT devices[8];
      EGLint count = 0;
      if (queryDevices(8, devices, &count))
        for (EGLint k = 0; k < count; ++k) {
          d = getPlatformDisplay(EGL_PLATFORM_DEVICE_EXT, devices[k], nullptr);
          if (initialised(d, "device")) return d;
        }
    }
  }
  EGLDisplay d = eglGetDisplay(EGL_DEFAULT_DISPLAY);
  if (initialised(d, "default display")) return d;
  return EGL_NO_DISPLAY;
}

// This thread's context: a headless EGL one, destroyed (with every GL object in it) when
// the thread ends, or the window's shared one (shareWithWindow), let go when the window
// closes.
struct ThreadContext {
  EGLDisplay display = EGL_NO_DISPLAY;
  EGLContext context = EGL_NO_CONTEXT;
  std::string failure;  // set when making it failed: the same line every time after
  unsigned long generation = 0;
  bool ready = false;
  bool shared = false;                  // the window's (current here for good)
  std::function<void()> releaseShared;  // lets the window's go

  ~ThreadContext() {
    if (context != EGL_NO_CONTEXT) {
      eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
      eglDestroyContext(display, context);
    }
  }

  void make() {
    std::string tried;
    display = openDisplay(tried);
    if (display == EGL_NO_DISPLAY) {
      failure = "no EGL display could be opened (tried: " + tried + ")";
      return;
    }
    if (!eglBindAPI(EGL_OPENGL_API)) {
      failure = "EGL has no desktop OpenGL";
      return;
    }
    const EGLint configAttributes[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
    EGLConfig config = nullptr;
    EGLint configs = 0;
    eglChooseConfig(display, configAttributes, &config, 1, &configs);
    const EGLint attributes[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 3,
                                 EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    context = eglCreateContext(display, configs > 0 ? config : nullptr, EGL_NO_CONTEXT, attributes);
    if (context == EGL_NO_CONTEXT) {
      failure = "the GPU offers no OpenGL 4.3 core context through EGL (compute shaders need 4.3)";
      return;
    }
    if (!eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
      failure = "the OpenGL 4.3 context cannot be made current without a surface";
      return;
    }
    const int version = gladLoadGL(eglLoader);
    if (!version) {
      failure = "the OpenGL entry points could not be loaded";
      return;
    }
    if (GLAD_VERSION_MAJOR(version) * 10 + GLAD_VERSION_MINOR(version) < 43) {
      failure = "OpenGL " + std::to_string(GLAD_VERSION_MAJOR(version)) + "." +
                std::to_string(GLAD_VERSION_MINOR(version)) + " is below 4.3 (compute shaders)";
      return;
    }
    generation = ++g_generations;
    ready = true;
  }

  // The window's context, made current here for good; false (and released) when it
  // lacks OpenGL 4.3, and this thread may still make its own later.
  bool adopt(const std::function<void()>& makeCurrent, GlLoader loader, std::function<void()> release) {
    makeCurrent();
    const int version = gladLoadGL(reinterpret_cast<GLADloadfunc>(loader));
    if (!version || GLAD_VERSION_MAJOR(version) * 10 + GLAD_VERSION_MINOR(version) < 43) {
      release();
      return false;
    }
    // Not on a software rasteriser (Mesa's llvmpipe): its "GPU memory" is the host's, so
    // the window's device frame cost more there than the host copy (bench/results/gpu.md),
    // and with the window's GLX context shared across threads the app crashed inside
    // swrast_dri.so in about 3 % of the window tests' runs (docs/decisions/not_met_yet.md).
    // The compute thread makes its own EGL context instead. SLOSHLAB_GPU_SHARE=on
    // shares anyway, to study that path.
    const auto* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    const char* force = std::getenv("SLOSHLAB_GPU_SHARE");
    if (renderer && std::strstr(renderer, "llvmpipe") && !(force && std::string(force) == "on")) {
      release();
      return false;
    }
    releaseShared = std::move(release);
    generation = ++g_generations;
    ready = shared = true;
    return true;
  }

  void letGoOfShared() {
    if (!shared || !ready) return;
    releaseShared();
    ready = false;
    failure = "the window's GL context is gone";
    generation = ++g_generations;  // what was made in it is not deleted through nothing
  }
};

ThreadContext& threadContext() {
  static thread_local ThreadContext context;
  return context;
}

// Makes the compute thread's context current (creating it the first time) and the GL
// entry points loaded; throws GpuUnavailable when there is none to be had.
void requireCompute() {
  ThreadContext& c = threadContext();
  if (!c.ready && c.failure.empty()) {
    // SLOSHLAB_GPU=off hides the GPU, as a machine without one would (for tests and users
    // whose driver misbehaves).
    const char* setting = std::getenv("SLOSHLAB_GPU");
    if (setting && std::string(setting) == "off") c.failure = "the GPU path is switched off (SLOSHLAB_GPU=off)";
    else c.make();
  }
  if (!c.ready) throw GpuUnavailable("GPU solvers are not available: " + c.failure);
  if (!c.shared && eglGetCurrentContext() != c.context)
    eglMakeCurrent(c.display, EGL_NO_SURFACE, EGL_NO_SURFACE, c.context);
}

std::atomic<bool> g_sharing{false};

// The compute thread: one job at a time, handed over under a mutex. It starts with the
// first job and ends with the process (its context goes with it).
class ComputeThread {
 public:
  ~ComputeThread() {
    {
      std::lock_guard lock(m_mutex);
      m_stop = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable()) m_thread.join();
  }

  // `withContext` false: the job runs before any context is made (to offer one).
  void run(const std::function<void()>& job, bool withContext = true) {
    if (std::this_thread::get_id() == m_id.load()) {
      if (withContext) requireCompute();
      job();
      return;
    }
    std::unique_lock callers(m_callers);  // one caller at a time
    std::unique_lock lock(m_mutex);
    if (!m_thread.joinable()) {
      m_thread = std::thread([this] { loop(); });
      m_id = m_thread.get_id();
    }
    m_job = &job;
    m_withContext = withContext;
    m_error = nullptr;
    m_wake.notify_all();
    m_done.wait(lock, [this] { return m_job == nullptr; });
    if (m_error) std::rethrow_exception(m_error);
  }

 private:
  void loop() {
    std::unique_lock lock(m_mutex);
    while (true) {
      m_wake.wait(lock, [this] { return m_stop || m_job != nullptr; });
      if (m_job) {
        try {
          if (m_withContext) requireCompute();
          (*m_job)();
        } catch (...) {
          m_error = std::current_exception();
        }
        m_job = nullptr;
        m_done.notify_all();
      } else if (m_stop) {
        return;
      }
    }
  }

  std::mutex m_callers, m_mutex;
  std::condition_variable m_wake, m_done;
  const std::function<void()>* m_job = nullptr;
  bool m_withContext = true;
  std::exception_ptr m_error;
  bool m_stop = false;
  std::thread m_thread;
  std::atomic<std::thread::id> m_id{};
};

ComputeThread& computeThread() {
  static ComputeThread thread;
  return thread;
}

}  // namespace

void onComputeThread(const std::function<void()>& job) { computeThread().run(job); }

void deleteOnComputeThread(const std::function<void()>& job) {
  computeThread().run(
      [&] {
        try {
          requireCompute();
        } catch (const GpuUnavailable&) {
        }
        job();
      },
      false);
}

unsigned long contextGeneration() { return threadContext().generation; }

bool shareWithWindow(std::function<void()> makeCurrent, GlLoader loader, std::function<void()> release) {
  if (const char* setting = std::getenv("SLOSHLAB_GPU"); setting && std::string(setting) == "off") return false;
  bool adopted = false;
  computeThread().run(
      [&] {
        ThreadContext& c = threadContext();
        if (c.ready || !c.failure.empty()) return;  // made (or tried) already
        adopted = c.adopt(makeCurrent, loader, std::move(release));
      },
      false);
  g_sharing = adopted;
  return adopted;
}

bool sharesWithWindow() { return g_sharing; }

void releaseWindowContext() {
  if (!g_sharing) return;
  computeThread().run([] { threadContext().letGoOfShared(); }, false);
  g_sharing = false;
}

std::string unavailableReason() {
  try {
    onComputeThread([] {});
    return {};
  } catch (const GpuUnavailable& e) {
    return e.what();
  }
}

std::string deviceName() {
  std::string name;
  try {
    onComputeThread([&] {
      const auto text = [](GLenum which) {
        const GLubyte* s = glGetString(which);
        return s ? std::string(reinterpret_cast<const char*>(s)) : std::string("?");
      };
      name = text(GL_RENDERER) + ", OpenGL " + text(GL_VERSION);
    });
  } catch (const GpuUnavailable&) {
  }
  return name;
}

}  // namespace sloshlab::gpu
