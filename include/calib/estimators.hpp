// Estimators of calibration errors: SKCE (biased, unbiased, block), UCME and the binned ECE.
//
// Data is one of CategoricalData, NormalData, LaplaceData, MvNormalData (data.hpp); the kernel
// must apply to its family (kernels.hpp). Every O(n²) and O(nB) sum runs on the tiled, OpenMP
// pairwise engine: memory O(n·m), results bitwise identical for any thread count.
#pragma once

#include <calib/data.hpp>
#include <calib/kernels.hpp>
#include <calib/parallel.hpp>

#include <climits>
#include <cstddef>
#include <vector>

namespace calib {

// Biased (V-statistic) estimator of the squared kernel calibration error
// [widmann-2021 Lemma 1; widmann-2019 SKCE_b]:  (1/n²) Σ_{i,j} h(W_i, W_j)  ≥ 0.
// O(n²) time. Needs n ≥ 1.
template <class Data>
double skce_biased(const Data& data, const Kernel& kernel, const ParallelOptions& parallel = {});

// Unbiased (quadratic U-statistic) estimator [widmann-2021 Lemma 2 with B = n; widmann-2019
// SKCE_uq]:  (n choose 2)^{-1} Σ_{i<j} h(W_i, W_j).  O(n²) time. Needs n ≥ 2.
template <class Data>
double skce_unbiased(const Data& data, const Kernel& kernel, const ParallelOptions& parallel = {});

// Block estimator [widmann-2021 Lemma 2, eq. B.2]: consecutive blocks of B observations, the last
// n mod B observations dropped; η_b = (B choose 2)^{-1} Σ_{i<j in block b} h_ij and the estimate
// is the mean of the ⌊n/B⌋ block estimates. B = 2 is the linear estimator SKCE_ul, B = n the
// unbiased one. O(nB) time. Needs 2 ≤ B ≤ n. (BlockSkce: kernels.hpp, shared with the MMD's.)
template <class Data>
BlockSkce skce_block(const Data& data, const Kernel& kernel, std::size_t block_size,
                     const ParallelOptions& parallel = {});

// The block size √n used by the ICLR 2021 experiments: max(2, ⌊√n⌋).
std::size_t sqrt_block_size(std::size_t n);

// A block size given as B, or as the rule sqrt (sqrt_block_size, chosen once n is known).
struct BlockSize {
    std::size_t value = 2;  // B; 0 stands for sqrt
    BlockSize(std::size_t b = 2) : value(b) {}  // NOLINT: a number is a block size
    static BlockSize sqrt() { return BlockSize(0); }
    bool is_sqrt() const { return value == 0; }
    std::size_t resolve(std::size_t n) const { return value ? value : sqrt_block_size(n); }
};

// UCME with J user-given test locations T_j = (p_j, y_j) [widmann-2021 App. C]:
//   UCME² = (1/J) Σ_j ( (1/n) Σ_i [k(T_j, W_i) − E_{Z∼p_i} k(T_j, (p_i, Z))] )²   (plug-in, ≥ 0).
// The locations are a data set of the same family (its targets are the y_j). O(nJ) time.
template <class Data>
double ucme(const Data& data, const Data& locations, const Kernel& kernel,
            const ParallelOptions& parallel = {});

// The n×J matrix of deviations Z_ij = k(T_j, W_i) − E_{Z∼p_i} k(T_j, (p_i, Z)); its column means
// give the UCME and it is the input of the CME test.
template <class Data>
Matrix ucme_deviations(const Data& data, const Data& locations, const Kernel& kernel,
                       const ParallelOptions& parallel = {});

// Expected calibration error with binning [widmann-2019 §ECE; CalibrationErrors.jl `ECE`]:
//   ECE = Σ_{non-empty bins b} (n_b / n) · d(mean prediction in b, label frequencies in b).
// Modes: canonical bins the full probability vector; top_label reduces each observation to the
// 2-class problem ([c, 1 − c], 1{y = argmax p}) with confidence c = max_k p_k (ties: first class)
// and bins the confidence; class_wise reduces it to m such problems ([p_k, 1 − p_k], 1{y = k}),
// bins each class's p_k on its own and takes the cells of all classes, each weighted n_kb/(n·m)
// (Kull et al. 2019's class-wise ECE: the mean over classes of their binned errors).
// Binnings:
//   uniform(nbins)   each coordinate x ∈ [0,1] goes to bin ⌈nbins·x⌉ (x = 0 → bin 1): bins are
//                    [0, 1/nbins], (1/nbins, 2/nbins], …; a bin of a probability vector is the tuple
//                    of its coordinates' bins (canonical) or the confidence's bin (top-label).
//   equal_mass(nbins), quantile(nbins)  (top-label and class-wise: one number per observation) the
//                    rules of prediction_bins.hpp on the binned values: equal_mass splits their sorted
//                    order into nbins parts of equal counts (Kumar et al. 2019, as the debiased L2 error
//                    does); quantile puts the edges at their empirical quantiles (scikit-learn's
//                    calibration_curve, strategy "quantile"). A value on an edge is in the bin below.
//   median_variance(minsize, maxbins)  recursively split the set whose coordinate has the largest
//                    sample variance at that coordinate's median (below: x < v, above: x ≥ v, v the
//                    (⌊k/2⌋+1)-th smallest of k values) while both parts keep ≥ minsize points; a part
//                    with < 2·minsize points becomes a bin; at most maxbins bins.
// Distances d: tv (½ L1, default), l1, euclidean, sqeuclidean.
// Aggregates over the non-empty bins (cells, class-wise), each of weight w_b = n_b/n (n_kb/(n·m)):
//   mean  Σ_b w_b d_b (the ECE); max  max_b d_b (the maximum calibration error, MCE, of Naeini et al.
//   2015); rms  √(Σ_b w_b d_b²) (the RMS calibration error; torchmetrics' norm "l2" with tv).
enum class EceMode { canonical, top_label, class_wise };
enum class EceDistance { tv, l1, euclidean, sqeuclidean };
enum class EceAggregate { mean, max, rms };
enum class BinningScheme { uniform, median_variance, equal_mass, quantile };
struct EceOptions {
    BinningScheme binning = BinningScheme::uniform;
    int nbins = 10;             // uniform (per coordinate), equal_mass, quantile: bins, ≥ 1
    int minsize = 10;           // median_variance: minimum bin size, ≥ 1
    int maxbins = INT_MAX;      // median_variance: maximum number of bins, ≥ 1
    EceDistance distance = EceDistance::tv;
    EceMode mode = EceMode::canonical;
    EceAggregate aggregate = EceAggregate::mean;
};
double ece(const CategoricalData& data, const EceOptions& options = {});

std::string to_string(EceMode mode);
std::string to_string(EceDistance distance);
std::string to_string(EceAggregate aggregate);
EceMode parse_ece_mode(const std::string& name);
EceAggregate parse_ece_aggregate(const std::string& name);
EceDistance parse_ece_distance(const std::string& name);

}  // namespace calib
