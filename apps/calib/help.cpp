// The help texts of `calib` (kept in one place so that they read as one manual; docs/cli.md has
// the long version).
#include "commands.hpp"

namespace calib::cli {

const char* const main_help = R"(calib - calibration errors of probabilistic predictions

Usage:
  calib estimate --family F --input FILE.csv --estimator E [options]
  calib test     --family F --input FILE.csv --method M [options]
  calib --help | --version
  calib COMMAND --help

Commands:
  estimate   estimate a calibration error (SKCE, UCME or ECE) of the predictions in a CSV file
             and print it as one JSON object
  test       test "the predictions are calibrated" and print the p-value and the test's
             details as one JSON object

Exit codes: 0 success, 2 bad command line, bad input file, or a result that cannot be computed
on this data (the message says what to change), 1 internal failure.
Errors are reported as one line on stderr: "calib: <message>".

Examples:
  calib estimate --family categorical --input preds.csv --estimator skce-unbiased
  calib test --family categorical --input preds.csv --method bootstrap --alpha 0.05
)";

const char* const estimate_help = R"(calib estimate - estimate a calibration error and print one JSON object

Usage:
  calib estimate --family F --input FILE.csv --estimator E [kernel options] [estimator options]

Input (a CSV file with a header row, which is skipped; columns by position):
  --family F            categorical   p_1,...,p_m,label    (m >= 2, labels 0-based)
                        binary        p,y                  (p = P(Y = 1), y in {0, 1})
                        normal        mu,sigma,y
                        laplace       mu,beta,y
                        mvnormal-diag mu_1..mu_d,sigma_1..sigma_d,y_1..y_d
                        mvnormal      mu_1..mu_d, the d(d+1)/2 lower-triangular covariance
                                      entries row by row (S11,S21,S22,S31,...), y_1..y_d
                        mixture-normal w_1..w_K,mu_1..mu_K,sigma_1..sigma_K,y  (K normals with
                                      weights w summing to 1; metric w2 is then MW2)
  --input FILE.csv      the predictions and observed targets, one observation per line
  --one-based-labels    categorical only: labels are 1..m
  --logits              categorical only: the m columns are logits (softmax is applied)

Estimator:
  --estimator E         skce-biased    biased (V-statistic) squared kernel calibration error
                        skce-unbiased  unbiased quadratic estimator, O(n^2)
                        skce-block     mean of unbiased estimates on consecutive blocks, O(nB)
                        ucme           unnormalised calibration mean embedding at test locations
                        ece            binned expected calibration error (categorical, binary)
  --block-size B|sqrt   skce-block: block size B >= 2, or sqrt = max(2, floor(sqrt(n)))
                        (default 2, the linear estimator)
  --test-locations FILE ucme: test locations, a CSV file in the format of --input (required)
  --binning SCHEME      ece: uniform:NBINS (bins per coordinate) or
                        median-variance:MINSIZE[:MAXBINS] (default uniform:10)
  --distance D          ece: tv, l1, euclidean or sqeuclidean (default tv)
  --mode M              ece: canonical or top-label (default canonical)

Kernel (skce-* and ucme; k = k_P(p,p') * k_Y(y,y')):
  --kernel-p exp|sqexp  k_P = exp(-d/l) or exp(-d^2/(2 l^2)) (default exp)
  --metric M            d: tv, l1 or euclidean for categorical/binary (default tv);
                        w2 (2-Wasserstein; for mixture-normal the mixture Wasserstein MW2,
                        whose kernel is not guaranteed positive definite) for the other
                        families (default w2)
  --lengthscale L|median|median-full
                        l > 0, or the median of the distances d(p_i,p_j) over pairs i<j
                        (median, the default) or over all n^2 ordered pairs with the zero
                        diagonal (median-full); above 5000 observations the median is taken
                        on a seeded random subset of 5000
  --kernel-y K          k_Y: white (delta) for categorical/binary, sqexp (exp(-(y-y')^2/(2 l^2)))
                        for normal, mvnormal-diag, mvnormal, mixture-normal, exp
                        (exp(-|y-y'|/l)) for laplace; each family supports only its default
  --lengthscale-y L     lengthscale of k_Y for sqexp and exp (default 1)

Other:
  --threads N           OpenMP threads, 0 = OMP_NUM_THREADS or all cores (default 0; not for ece)
  --help                this text

Output: one JSON object on one line with estimator, estimate, n, lengthscale,
lengthscale_rule, kernel, the estimator's own fields (block_size, block_size_rule, num_blocks;
test_locations, num_locations; binning, distance, mode), family, input, threads,
wall_time_seconds (the estimator call) and calib_version.

Exit codes: 0 success, 2 bad option or bad input file, 1 internal failure.

Examples:
  calib estimate --family categorical --input preds.csv --estimator skce-unbiased
  calib estimate --family normal --input gauss.csv --estimator skce-block --block-size sqrt
  calib estimate --family binary --input scores.csv --estimator ece --binning uniform:15
)";

const char* const test_help = R"(calib test - test whether predictions are calibrated; print one JSON object

Usage:
  calib test --family F --input FILE.csv --method M [method options] [kernel options]
             [--alpha A] [--threads N]

Input and kernel options are those of 'calib estimate' (see 'calib estimate --help'):
  --family, --input, --one-based-labels, --logits; --kernel-p, --metric, --lengthscale,
  --kernel-y, --lengthscale-y. Every method uses the kernel except consistency with ece.

Which method (every test is right-tailed: a small p-value speaks against calibration):
  block        z-test of the block SKCE, O(nB): the fastest, asymptotically valid; B = 2 for
               huge n, B = sqrt for more power
  bootstrap    quadratic SKCE with a bootstrap null, O(n^2 R): the most powerful, the reference
  gamma        quadratic SKCE with a moment-matched Gamma null, one O(n^2) pass: a heuristic
  spectral     quadratic SKCE with the Gram spectrum null, O(n^3), n <= 4000
  dfree-biased, dfree-unbiased, dfree-block
               distribution-free bounds: valid at every n but very conservative
  consistency  consistency resampling of an estimator: anti-conservative with ece; for
               reproducing the 2019 experiments (categorical and binary only)
  cme          Hotelling test of the CME at J test locations, O(nJ): needs n >> J

Method options:
  --block-size B|sqrt   block, dfree-block (required): B >= 2, or sqrt = max(2, floor(sqrt(n)));
                        block needs at least 2 blocks (B <= n/2)
  --variance-divisor s-1|s  block: divisor of the block estimates' variance (default s-1)
  --null-variance       block: the standard error from the within-block mean of h^2
  --replicates R        bootstrap, spectral, consistency: R >= 1 (default 1000)
  --memory-budget BYTES bootstrap: cache the n x n Gram matrix if 8n^2 bytes fit (suffix K, M
                        or G allowed; default 2G); else recompute it per pass
  --pvalue-rule count|plus-one  bootstrap, spectral, consistency: #{T* >= T}/R (default) or
                        (1 + #{T* >= T})/(1 + R)
  --seed S              bootstrap, spectral, consistency, cme --locations (default 1234)
  --estimator E         consistency (required): ece (with --binning, --distance, --mode as in
                        'calib estimate'), skce-unbiased, skce-biased or skce-block (with
                        --block-size B|sqrt, default 2)
  --test-locations FILE cme: test locations in the format of --input, or
  --locations J         cme: J >= 1 locations drawn from the data and removed from the sample
                        (needs n > 2J)
  --reference chi2|f    cme: null distribution of Hotelling's statistic (default chi2)
  --ridge EPS           cme: EPS >= 0 added to the covariance's diagonal (default 0)

Other:
  --alpha A             level in (0, 1): adds "alpha" and "reject" (p_value < A)
  --threads N           OpenMP threads, 0 = OMP_NUM_THREADS or all cores (default 0); the
                        result does not depend on it
  --help                this text

Output: one JSON object on one line: method, null, estimate, statistic, p_value, [alpha,
reject], n, the method's details (e.g. block_size, num_blocks, std_error; replicates), the
options used, the kernel (lengthscale, lengthscale_rule, kernel), seed (where used), family,
input, threads, wall_time_seconds (the test) and calib_version.

Exit codes: 0 success, 2 bad option, bad input file, or a test that cannot be computed on this
data (e.g. a singular CME covariance; the message says what to change), 1 internal failure.

Examples:
  calib test --family categorical --input preds.csv --method block --block-size sqrt --alpha 0.05
  calib test --family binary --input scores.csv --method bootstrap --replicates 2000 --seed 7
  calib test --family normal --input gauss.csv --method cme --locations 5
)";

}  // namespace calib::cli
