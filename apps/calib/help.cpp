// The help texts of `calib` (kept in one place so that they read as one manual; docs/cli.md has
// the long version).
#include "commands.hpp"

#include <string>

namespace calib::cli {

const char* const main_usage = R"(Usage:
  calib estimate --family F --input FILE --estimator E [options]
  calib test     --family F --input FILE --method M [options]
  calib rank     --family F --input MODEL1.csv MODEL2.csv ... [options]
  calib --help | --version
  calib COMMAND --help
)";

const std::string main_help = std::string("calib - calibration errors of probabilistic predictions\n\n") + main_usage + R"(
Commands:
  estimate   estimate a calibration error (SKCE, CKCE, UCME or ECE) of the predictions in a file
             and print it as one JSON object
  test       test "the predictions are calibrated" and print the p-value and the test's
             details as one JSON object
  rank       rank several models evaluated on the same labelled data by calibration errors
             (CKCE, SKCE, ECE), with paired bootstrap intervals for their differences

Exit codes: 0 success, 2 bad command line, bad input file, or a result that cannot be computed
on this data (the message says what to change), 1 internal failure.
Errors are reported as one line on stderr: "calib: <message>".

Examples:
  calib estimate --family categorical --input preds.csv --estimator skce-unbiased
  calib test --family categorical --input preds.csv --method bootstrap --alpha 0.05
  calib rank --family categorical --input resnet.csv densenet.csv --format table
)";

const char* const estimate_help = R"(calib estimate - estimate a calibration error and print one JSON object

Usage:
  calib estimate --family F --input FILE --estimator E [kernel options] [estimator options]

Input (text or NumPy .npy files; columns by position):
  --family F            categorical   p_1,...,p_m,label    (m >= 2, labels 0-based)
                        binary        p,y                  (p = P(Y = 1), y in {0, 1})
                        normal        mu,sigma,y
                        laplace       mu,beta,y
                        mvnormal-diag mu_1..mu_d,sigma_1..sigma_d,y_1..y_d
                        mvnormal      mu_1..mu_d, the d(d+1)/2 lower-triangular covariance
                                      entries row by row (S11,S21,S22,S31,...), y_1..y_d
                        mixture-normal w_1..w_K,mu_1..mu_K,sigma_1..sigma_K,y  (K normals with
                                      weights w summing to 1; metric w2 is then MW2)
  --input FILE         the predictions, then the targets unless --labels is given: a text file
                        (comma, tab, semicolon or whitespace separated) or a .npy file; - is stdin
  --labels FILE         the targets (labels) in a separate file of the same number of rows; the
                        input then holds only the predictions (alias --targets)
  --header auto|yes|no  auto (default): the first line is a header iff a cell is not a number
  --delimiter D         auto (default), comma, tab, semicolon or whitespace
  --one-based-labels    categorical only: labels are 1..m
  --logits              categorical only: the m columns are logits (softmax is applied)
  --simplex-tolerance T rows of probabilities (or mixture weights) must sum to 1 within T
                        (default max(1e-6, m 2^-24), which accepts float32 softmax outputs)
  --renormalize         divide each row of probabilities (or weights) by its sum first

Estimator:
  --estimator E         skce-biased    biased (V-statistic) squared kernel calibration error
                        skce-unbiased  unbiased quadratic estimator, O(n^2)
                        skce-block     mean of unbiased estimates on consecutive blocks, O(nB)
                        ucme           unnormalised calibration mean embedding at test locations
                        ece            binned expected calibration error (categorical, binary)
                        ckce           conditional kernel calibration error (categorical, binary;
                                       see "CKCE options" below)
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
                        diagonal (median-full); exact at every n
  --median-subsample K  take the median on K observations drawn without replacement
  --median-seed S       the seed of that draw (default 1234)
  --kernel-y K          k_Y: white (delta) for categorical/binary, sqexp (exp(-(y-y')^2/(2 l^2)))
                        for normal, mvnormal-diag, mvnormal, mixture-normal, exp
                        (exp(-|y-y'|/l)) for laplace; each family supports only its default
  --lengthscale-y L     lengthscale of k_Y for sqexp and exp (default 1)

CKCE options (ckce; the kernel options above do not apply):
  --lengthscale G|median  bandwidth G > 0 of the simplex kernel
                        k(p,q) = p'q + exp(-|p-q|^2/(2 G^2)), or the median of the Euclidean
                        distances between predictions (default; exact, or on --median-subsample K;
                        a median of 0 falls back as described in docs/ckce.md)
  --ckce-method M       exact (Cholesky, O(n^3), default), eigen (eigendecomposition),
                        rff (random Fourier features), lowrank (pivoted incomplete Cholesky)
  --lambda L            fixed regularisation lambda > 0 (the ridge added to K is lambda n), or
  --lambda-power a      lambda = n^(-a), a >= 0 (default a = 0.25, the paper's n^(-1/4))
  --features D          rff: number of random frequencies (default 100)
  --rank R              lowrank: maximum rank (default 1000)
  --tolerance T         lowrank: stop when the residual trace is below T tr(K) (default 1e-6)
  --seed S              rff: the random frequencies (default 1234)

Other:
  --threads N           OpenMP threads, 0 = OMP_NUM_THREADS or all cores (default 0); at most
                        4 per processor (at least 64)
  --format json|table   one JSON line (default) or a readable report
  --quiet               no progress bar (it is drawn only on a terminal's stderr anyway)
  --help                this text

Output: one JSON object on one line with estimator, estimate, n, lengthscale,
lengthscale_rule, kernel, the estimator's own fields (block_size, block_size_rule, num_blocks;
test_locations, num_locations; binning, distance, mode; for ckce: bandwidth_fallback, lambda,
lambda_rule, ridge, ckce_method, features, feature_dimension, max_rank, tolerance, rank,
residual_trace, seed), family, input, labels, files (what was read), max_simplex_deviation,
threads, compute_seconds (the estimator call), wall_time_seconds (the whole command) and
calib_version. Numbers are in the shortest form that reads back exactly.

Exit codes: 0 success, 2 bad option or bad input file, 1 internal failure.

Examples:
  calib estimate --family categorical --input preds.csv --estimator skce-unbiased
  calib estimate --family normal --input gauss.csv --estimator skce-block --block-size sqrt
  calib estimate --family binary --input scores.csv --estimator ece --binning uniform:15
  calib estimate --family categorical --input preds.csv --estimator ckce --ckce-method rff
)";

const char* const test_help = R"(calib test - test whether predictions are calibrated; print one JSON object

Usage:
  calib test --family F --input FILE --method M [method options] [kernel options]
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
  cme          Hotelling test of the CME at J test locations, O(nJ): needs J^2 <= 0.07 n

Method options:
  --block-size B|sqrt   block, dfree-block (required): B >= 2, or sqrt = max(2, floor(sqrt(n)));
                        block needs at least 2 blocks (B <= n/2)
  --variance-divisor s-1|s  block: divisor of the block estimates' variance (default s-1)
  --null-variance       block: the standard error from the within-block mean of h^2
  --replicates R        bootstrap, spectral, consistency: 1 <= R <= 1e8 (default 1000)
  --memory-budget auto|BYTES  bootstrap: bound on its whole working memory (suffix K, M or G
                        allowed; default auto: half of the available memory); needs at least
                        16n*257 bytes; the n x n Gram matrix (8n^2 bytes) is cached if it fits too
  --pvalue-rule count|plus-one  bootstrap, spectral, consistency: #{T* >= T}/R (default) or
                        (1 + #{T* >= T})/(1 + R)
  --seed S              bootstrap, spectral, consistency, cme --locations (default 1234)
  --estimator E         consistency (required): ece (with --binning, --distance, --mode as in
                        'calib estimate'), skce-unbiased, skce-biased or skce-block (with
                        --block-size B|sqrt, default 2)
  --test-locations FILE cme: test locations in the format of --input, or
  --locations J         cme: J >= 1 locations drawn from the data and removed from the sample
                        (needs n > 2J)
                        cme validity range: J^2 <= 0.07 n (F) or 0.05 n (chi2) for the n
                        observations tested, else exit 2 (docs/tests.md)
  --reference f|chi2    cme: null distribution of Hotelling's statistic: F(J, n-J) (default,
                        never more liberal) or the paper's chi2_J
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

const char* const rank_help = R"(calib rank - rank models by calibration error, with paired bootstrap intervals

Usage:
  calib rank --family categorical|binary --input MODEL1.csv MODEL2.csv [...] [options]

Every file holds one model's predictions on the same labelled data (the format of
'calib estimate'; the labels must be the same in every file, line by line). Each estimator ranks
the models (lower is better calibrated); a paired bootstrap gives an interval for each difference
so that "model A is better calibrated than model B" can be said at a stated confidence.

Options:
  --input FILES         two or more model files (also --input A.csv --input B.csv)
  --family F            categorical or binary
  --labels FILE, --header, --delimiter, --one-based-labels, --logits, --simplex-tolerance,
  --renormalize         as in 'calib estimate'; one --labels file serves every model
  --estimators LIST     comma-separated, from ckce, skce-unbiased, ece
                        (default ckce,skce-unbiased,ece):
                        ckce           conditional kernel calibration error (CKCE)
                        skce-unbiased  unbiased SKCE with the CKCE's simplex kernel and the
                                       Kronecker label kernel (the paper's JKCE)
                        ece            binned ECE, default uniform:3 bins per coordinate and L1
                                       distance (the paper's configuration)
  --replicates R        bootstrap replicates, 1 <= R <= 1e8 (default 200)
  --level L             level of the intervals in (0, 1) (default 0.95)
  --seed S              seed of the bootstrap (replicate r uses stream r + 1) and of the random
                        features (default 1234)
  --format json|table   one JSON object on one line (default) or a readable table
  --lengthscale G|median, --ckce-method, --lambda, --lambda-power, --features, --rank,
  --tolerance           the CKCE options of 'calib estimate'; --lengthscale also sets the
                        skce-unbiased kernel. The median is taken per model on the full data
                        and kept for the bootstrap replicates. CKCE replicates are computed in
                        the primal form from a factor of each model's Gram matrix (exact, eigen:
                        the shortest pivoted Cholesky whose CKCE on the full data is within 1e-5
                        relative of the estimate; rff, lowrank: their own).
  --binning, --distance, --mode   the ECE options of 'calib estimate' (defaults uniform:3, l1,
                        canonical)
  --threads N           OpenMP threads (default 0: all); replicates run in parallel and the
                        output does not depend on N
  --quiet               no progress bar
  --help                this text

Output (json): command, n, models, estimators, replicates, seed, level, interval, and for each
estimator under results: description, estimates, std_errors (bootstrap standard deviations),
ranking (best first), lengthscales (kernel estimators), comparisons (first, second,
difference = first - second, lower, upper, bootstrap_mean, probability_first_lower, verdict);
replicate_factor_ranks (ckce); then kernel, ece, family, files, max_simplex_deviation, threads,
compute_seconds, wall_time_seconds, calib_version.
The intervals are percentile intervals of the paired bootstrap differences. A verdict names the
better calibrated model when the whole interval lies on one side of 0, else "no clear
difference". CKCE and ECE are biased estimators, and resampling with replacement shifts them; the
shift largely cancels in a paired difference (compare bootstrap_mean with difference), which is
why no per-model intervals are given.

Exit codes: 0 success, 2 bad option or input file (including different labels), 1 internal
failure.

Examples:
  calib rank --family categorical --input lenet.csv densenet.csv resnet.csv --format table
  calib rank --family binary --input a.csv b.csv --estimators ckce,ece --replicates 1000 --seed 7
)";

}  // namespace calib::cli
