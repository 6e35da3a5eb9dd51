// Small arithmetic helpers shared by the estimator's source files (private to src/estimate).
#pragma once

#include <cstdint>

#include "oomkit/core/units.h"
#include "oomkit/estimate/estimate.h"

namespace oomkit {

inline int64_t ceil_div(int64_t a, int64_t b) { return a / b + (a % b != 0 ? 1 : 0); }

// Checked arithmetic bound to the field that an overflow would blame.
struct Arith {
  const char* field;
  int64_t mul(int64_t a, int64_t b) const { return checked_mul(a, b, field); }
  int64_t mul(int64_t a, int64_t b, int64_t c) const { return mul(mul(a, b), c); }
  int64_t add(int64_t a, int64_t b) const { return checked_add(a, b, field); }
};

// Optimizer state and gradient element width: 2 B in pure bf16, else 4 B.
inline int64_t state_bytes_per_element(const TrainingSetup& s) { return s.precision == Precision::kBf16 ? 2 : 4; }

}  // namespace oomkit
