// The help texts of `calib` (kept in one place so that they read as one manual; docs/cli.md has
// the long version).
#include "commands.hpp"

namespace calib::cli {

const char* const main_help = R"(calib - calibration errors of probabilistic predictions

Usage:
  calib estimate --family F --input FILE.csv --estimator E [options]
  calib --help | --version
  calib COMMAND --help

Commands:
  estimate   estimate a calibration error (SKCE, UCME or ECE) of the predictions in a CSV file
             and print it as one JSON object

Exit codes: 0 success, 2 bad command line or bad input file, 1 internal failure.
Errors are reported as one line on stderr: "calib: <message>".

Example:
  calib estimate --family categorical --input preds.csv --estimator skce-unbiased
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
                        w2 (2-Wasserstein) for the other families (default w2)
  --lengthscale L|median|median-full
                        l > 0, or the median of the distances d(p_i,p_j) over pairs i<j
                        (median, the default) or over all n^2 ordered pairs with the zero
                        diagonal (median-full); above 5000 observations the median is taken
                        on a seeded random subset of 5000
  --kernel-y K          k_Y: white (delta) for categorical/binary, sqexp (exp(-(y-y')^2/(2 l^2)))
                        for normal, mvnormal-diag, mvnormal, exp (exp(-|y-y'|/l)) for laplace;
                        each family supports only its default
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

}  // namespace calib::cli
