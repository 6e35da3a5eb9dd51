#include <gtest/gtest.h>

#include "oomkit/core/error.h"
#include "oomkit/core/units.h"

using namespace oomkit;

// format_bytes uses binary units, two decimals, and never says "GB".
TEST(FormatBytes, BinaryUnitsTwoDecimals) {
  EXPECT_EQ(format_bytes(0), "0 B");
  EXPECT_EQ(format_bytes(1023), "1023 B");
  EXPECT_EQ(format_bytes(1536), "1.50 KiB");
  EXPECT_EQ(format_bytes(3 * kGiB), "3.00 GiB");
  EXPECT_EQ(format_bytes(-12 * kMiB), "-12.00 MiB");
  EXPECT_EQ(format_decimal_gb(98 * kGB), "98.00 GB");
}

// parse_bytes distinguishes GiB (2^30) from GB (10^9) and accepts PyTorch's "20.00 MiB".
TEST(ParseBytes, BinaryAndDecimalUnits) {
  EXPECT_EQ(parse_bytes("24GiB"), 24 * kGiB);
  EXPECT_EQ(parse_bytes("24GB"), 24 * kGB);
  EXPECT_EQ(parse_bytes("20.00 MiB"), 20 * kMiB);
  EXPECT_EQ(parse_bytes("512mib"), 512 * kMiB);
  EXPECT_EQ(parse_bytes("1000"), 1000);
  EXPECT_EQ(parse_bytes("1.5K"), 1536);
  // Just below 2^63: exact, or refused, never negative (a double rounds it up to 2^63; found by fuzz_size).
  try {
    EXPECT_EQ(parse_bytes("\t0000000000009223372036854775803"), int64_t{9223372036854775803});
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "size");
  }
}

// Bad sizes throw InputError naming the field.
TEST(ParseBytes, RejectsBadInputNamingField) {
  for (const char* bad : {"", "-1GiB", "abc", "12 parsecs", "1.2.3GB", "99999999999TiB"}) {
    try {
      parse_bytes(bad, "--memory");
      FAIL() << "accepted '" << bad << "'";
    } catch (const InputError& e) {
      EXPECT_EQ(e.field(), "--memory") << bad;
    }
  }
}

TEST(CheckedArithmetic, ThrowsOnOverflow) {
  EXPECT_EQ(checked_mul(1 << 20, 1 << 20, "x"), int64_t{1} << 40);
  EXPECT_THROW(checked_mul(int64_t{1} << 40, int64_t{1} << 40, "x"), InputError);
  EXPECT_THROW(checked_add(INT64_MAX, 1, "x"), InputError);
}
