// libFuzzer: the model config reader (parse_model_config). Invariant: any bytes give a valid
// ModelConfig or an InputError; no other exception, no sanitizer report, bounded error text.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "oomkit/core/error.h"
#include "oomkit/core/model_config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const oomkit::ModelConfig c = oomkit::parse_model_config(text, "fuzz.json");
    if (!c.problems().empty()) std::abort();  // parse_model_config validates
    (void)oomkit::model_config_to_json(c);
  } catch (const oomkit::InputError& e) {
    if (std::string(e.what()).size() > 4096) std::abort();  // bounded error text
  }
  return 0;
}
