// Human-readable tables for estimates and verdicts (binary units, two decimals, labelled).
#pragma once

#include <string>
#include <vector>

#include "oomkit/estimate/estimate.h"
#include "oomkit/estimate/verdict.h"

namespace oomkit {

/// The estimate: header (model, setup), parameters by part, the item table (path, bytes,
/// formula), totals per category, phase predictions (first and steady step) and the peak.
std::string format_estimate(const Estimate& e);

/// One line comparing `e` with the same run under the other method (detailed vs chapter).
std::string format_method_comparison(const Estimate& e, const Estimate& other);

/// Capacity, usable bytes, fits / does not fit, headroom, bottleneck and the ranked fixes.
std::string format_verdict(const Verdict& v, const std::string& gpu_label, double safety_margin);

/// The largest micro-batch and the batch curve.
std::string format_batch_curve(int64_t max_batch, const std::vector<BatchPoint>& curve, int64_t usable_bytes);

/// The model-size sweep table.
std::string format_sweep(const std::vector<SweepRow>& rows, const TrainingSetup& setup);

}  // namespace oomkit
