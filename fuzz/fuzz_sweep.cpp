// libFuzzer target: the sweep file parser (parseSweep), fed the input as the file's
// text. Bad input must end in one SweepError, the line `sloshlab: error: ...` prints;
// any other exception, or a sanitizer report, is a finding.
#include "sloshlab/sweep.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    (void)sloshlab::parseSweep(text, "fuzz.json");
  } catch (const sloshlab::SweepError&) {
  }
  return 0;
}
