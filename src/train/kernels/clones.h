// OOMKIT_KERNEL_CLONES: compile a loop for AVX-512, AVX2 and the baseline, the one for the CPU
// chosen when the program loads (GCC's target_clones, an ifunc). The kernels here are built with
// -ffp-contract=off, so every clone rounds every operation alike and gives the same bits.
#pragma once

#include <cstddef>  // defines __GLIBC__ on glibc (ifunc, which target_clones needs; musl has none)

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__GLIBC__)
#define OOMKIT_KERNEL_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define OOMKIT_KERNEL_CLONES
#endif
