// Seeded random streams (random.hpp).
#include <calib/tool/random.hpp>

#include "core/check.hpp"

#include <algorithm>
#include <numeric>

namespace calib {

namespace {
// SplitMix64 finaliser (Steele, Lea & Flood 2014): a bijective mix of 64 bits.
std::uint64_t mix(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}
}  // namespace

Rng make_stream(std::uint64_t seed, std::uint64_t stream) { return Rng(mix(mix(seed) ^ stream)); }

std::vector<std::size_t> sample_without_replacement(std::size_t n, std::size_t k, Rng& rng) {
    if (k > n) detail::fail("sample_without_replacement", "k = ", k, " exceeds n = ", n);
    std::vector<std::size_t> idx(n);
    std::iota(idx.begin(), idx.end(), std::size_t{0});
    for (std::size_t i = 0; i < k; ++i) std::swap(idx[i], idx[i + uniform_index(rng, n - i)]);
    idx.resize(k);
    std::sort(idx.begin(), idx.end());
    return idx;
}

}  // namespace calib
