// libFuzzer target: the state file loader (loadStateUnchecked, what --load-state reads
// once the checksum matched), fed the input as the file's bytes, then two steps of the
// loaded simulation. Bad input must end in one StateFileError, the line `sloshlab:
// error: ...` prints; a loaded state may fail its steps (a blow-up the watchdog
// reports) but never crash. Any other exception, or a sanitizer report, is a finding.
// The checksum is skipped so that mutations reach the body; set-ups that would emit
// more than 20,000 particles are refused, so that one input takes milliseconds.
#include "sloshlab/state_file.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  try {
    auto sim = sloshlab::loadStateUnchecked(bytes, "fuzz.slosh", 2e4);
    for (int i = 0; i < 2 && !sim->failed(); ++i) sim->step(0.0);
  } catch (const sloshlab::StateFileError&) {
  }
  return 0;
}
