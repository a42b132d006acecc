// libFuzzer target: the motion CSV reader (MotionScript::parse, what --motion FILE.csv
// reads once the file has passed its checks), fed the input as the file's text, and a
// container driven along what it read.
// Bad input must end in one std::runtime_error naming the problem; any other exception,
// or a sanitizer report, is a finding.
#include "sloshlab/container.h"

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const sloshlab::MotionScript script = sloshlab::MotionScript::parse(text, "fuzz.csv");
    // What the driver does with it: sample between, before and after the rows.
    const auto& rows = script.rows();
    (void)script.sample(-1.0);
    (void)script.sample(0.5 * (rows.front().t + rows.back().t));
    (void)script.sample(rows.back().t + 1.0);
    // And a driver along it in 3D, turning about any axis (physics.md (8.5)): a few steps.
    sloshlab::ContainerDriver driver;
    driver.reset({});
    driver.setScript(script);
    sloshlab::ContainerState state;
    const double dt = rows.back().t > 0.0 ? rows.back().t / 8.0 : 1e-3;
    for (int i = 0; i < 10; ++i) driver.advance(state, i * dt, dt);
  } catch (const std::runtime_error&) {
  }
  return 0;
}
