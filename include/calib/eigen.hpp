// Eigen, as calib's public headers include it. Eigen's alignment of heap and fixed-size data is part
// of calib's ABI: by default it follows the instruction set (16 bytes for SSE, 32 for AVX, 64 for
// AVX-512), so a library built with -march=native and a program built without it would allocate and
// free an Eigen matrix with different rules (a crash in free). calib fixes it at 64 bytes on both
// sides (Eigen's documented way to make code built for different SIMD levels compatible), whatever
// -march either side uses: the library is built with -DEIGEN_MAX_ALIGN_BYTES=64, calib.pc and the
// CMake package pass the same definition, and this header defines it when Eigen is not yet
// included — and refuses to compile when Eigen was included first with another value.
#pragma once

#ifndef EIGEN_MAX_ALIGN_BYTES
#define EIGEN_MAX_ALIGN_BYTES 64
#endif

#include <Eigen/Core>

static_assert(EIGEN_MAX_ALIGN_BYTES == 64,
              "calib needs EIGEN_MAX_ALIGN_BYTES == 64 (its ABI): compile with -DEIGEN_MAX_ALIGN_BYTES=64 "
              "(pkg-config --cflags calib and the CMake target calib::calib add it) or include calib's "
              "headers before any Eigen header");
