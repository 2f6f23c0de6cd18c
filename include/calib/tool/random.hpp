// Seeded random streams, for calib's own programs (the reproduction apps, benchmarks, tests); not part
// of the library's API. Work that runs in parallel draws from per-task streams derived from
// (seed, stream id), so results do not depend on the thread count or on scheduling. Samplers are
// Boost.Random's (portable across standard libraries).
#pragma once

#include <calib/seed.hpp>

#include <boost/random/mersenne_twister.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace calib {

using Rng = boost::random::mt19937_64;

// The generator of stream `stream` of the master seed `seed`: the pair is mixed with SplitMix64
// finalisers, so that neighbouring seeds and stream ids give unrelated streams.
Rng make_stream(std::uint64_t seed, std::uint64_t stream);

// A uniform index in [0, n) from one 64-bit draw, by Lemire's multiply-shift: ⌊x·n / 2⁶⁴⌋ (bias
// below n/2⁶⁴, immaterial here), identical on every platform.
inline std::size_t uniform_index(Rng& rng, std::size_t n) {
    __extension__ using uint128 = unsigned __int128;  // a GCC/Clang extension, hence __extension__
    return static_cast<std::size_t>((static_cast<uint128>(rng()) * n) >> 64);
}

// k distinct indices of 0..n-1 drawn without replacement (partial Fisher–Yates), in increasing
// order. Needs k ≤ n.
std::vector<std::size_t> sample_without_replacement(std::size_t n, std::size_t k, Rng& rng);

}  // namespace calib
