// Byte units. Sizes are int64_t bytes everywhere inside oomkit; they become text only when
// printed, through format_bytes(). GiB means 2^30 bytes and GB means 10^9 bytes: output uses
// the binary units (KiB, MiB, GiB, TiB) and never labels a binary quantity "GB".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace oomkit {

inline constexpr int64_t kKiB = int64_t{1} << 10;
inline constexpr int64_t kMiB = int64_t{1} << 20;
inline constexpr int64_t kGiB = int64_t{1} << 30;
inline constexpr int64_t kTiB = int64_t{1} << 40;
inline constexpr int64_t kKB = 1000;
inline constexpr int64_t kMB = 1000 * kKB;
inline constexpr int64_t kGB = 1000 * kMB;
inline constexpr int64_t kTB = 1000 * kGB;

/// Formats a byte count with binary units and two decimals: 0 -> "0 B", 1536 -> "1.50 KiB",
/// 3221225472 -> "3.00 GiB". Negative counts (deltas) keep their sign: "-12.00 MiB".
std::string format_bytes(int64_t bytes);

/// Formats a byte count the way PyTorch's allocator messages do (c10's format_size() in
/// CUDACachingAllocator.cpp): up to 1024 -> "N bytes"; up to 1 MiB -> "x.xx KiB"; up to 1 GiB ->
/// "x.xx MiB"; above -> "x.xx GiB" (two decimals, no TiB). Note PyTorch's boundaries are
/// inclusive: 1024 -> "1024 bytes", 1048576 -> "1024.00 KiB". Negative counts print as 0.
/// Used to write OOM messages that PyTorch-message parsers recognise.
std::string format_bytes_pytorch(int64_t bytes);

/// Formats a byte count in decimal gigabytes, two decimals: 98e9 -> "98.00 GB". Only for
/// reproducing sources that state decimal GB (the seed chapter, vendor capacities).
std::string format_decimal_gb(int64_t bytes);

/// Parses a size: a number (integer or decimal) followed by an optional unit, case-insensitive:
/// B, KiB, MiB, GiB, TiB (powers of 2), KB, MB, GB, TB (powers of 10), K/M/G/T (binary, as
/// PyTorch's messages and `ulimit` use them). No unit means bytes. Whitespace between number
/// and unit is allowed ("20.00 MiB").
/// Throws InputError naming `field` for an empty, negative, malformed or overflowing value.
int64_t parse_bytes(std::string_view text, std::string_view field = "size");

/// Multiplies two non-negative counts, throwing InputError naming `field` on int64 overflow.
int64_t checked_mul(int64_t a, int64_t b, std::string_view field);

/// Adds two non-negative counts, throwing InputError naming `field` on int64 overflow.
int64_t checked_add(int64_t a, int64_t b, std::string_view field);

}  // namespace oomkit
