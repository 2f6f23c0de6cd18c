// `recalibrate fit --method auto`: the cross-validated choice of a recalibration method
// (recalibration_selection.hpp). Folds, fits and scores run serially in a fixed order, so the choice
// does not depend on the thread count.
#include "registry/recalibration_selection.hpp"

#include <calib/errors.hpp>
#include <calib/tool/random.hpp>

#include "core/check.hpp"
#include "core/compensated_sum.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace calib::detail {

namespace {

std::vector<std::size_t> fold_of_rows(std::size_t n, std::size_t folds, std::uint64_t seed) {
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    Rng rng = make_stream(seed, 0);
    for (std::size_t i = n; i > 1; --i) std::swap(order[i - 1], order[uniform_index(rng, i)]);  // Fisher–Yates
    std::vector<std::size_t> fold(n);
    for (std::size_t r = 0; r < n; ++r) fold[order[r]] = r % folds;
    return fold;
}

CategoricalScores rows(const CategoricalScores& data, const std::vector<std::size_t>& index) {
    CategoricalScores out{Matrix(static_cast<Eigen::Index>(index.size()), data.scores.cols()), {}, data.logits};
    for (std::size_t r = 0; r < index.size(); ++r) {
        out.scores.row(static_cast<Eigen::Index>(r)) = data.scores.row(static_cast<Eigen::Index>(index[r]));
        out.labels.push_back(data.labels[index[r]]);
    }
    return out;
}

double row_score(const Matrix& q, Eigen::Index i, int label, CorpScore score, double floor) {
    if (score == CorpScore::log) return -std::log(std::max(q(i, label), floor));
    double sum = 0;
    for (Eigen::Index k = 0; k < q.cols(); ++k) {
        const double d = q(i, k) - (k == label ? 1.0 : 0.0);
        sum += d * d;
    }
    return sum;
}

}  // namespace

std::vector<RecalibrationMethod> selection_candidates(int num_classes) {
    std::vector<RecalibrationMethod> out;
    for (const RecalibrationMethodInfo& m : recalibration_methods())
        if (m.categorical && (!m.two_classes || num_classes == 2)) out.push_back(m.method);
    return out;
}

SelectedMethod select_method(const CategoricalScores& data, const RecalibrationOptions& options,
                             const MethodSelection& selection) {
    const std::size_t n = data.labels.size(), K = selection.folds;
    if (K < 2 || K > n)
        throw invalid_argument("`folds` " + std::to_string(K) + " with n = " + std::to_string(n) +
                               " rows: method auto needs 2 <= folds <= n");
    const std::vector<std::size_t> fold = fold_of_rows(n, K, selection.seed);
    std::vector<std::vector<std::size_t>> held(K), kept(K);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t f = 0; f < K; ++f) (fold[i] == f ? held[f] : kept[f]).push_back(i);

    SelectedMethod out;
    Record scores;
    double best = 0;
    bool any = false;
    const int m = static_cast<int>(data.scores.cols());
    for (const RecalibrationMethod method : selection.candidates)
        if (method_info(method).two_classes && m != 2)
            throw invalid_argument("`candidates` lists " + to_string(method) + ", which maps binary predictions (m = 2 "
                                   "classes), not m = " + std::to_string(m));
    for (const RecalibrationMethod method : selection_candidates(m)) {
        const std::vector<RecalibrationMethod>& given = selection.candidates;
        if (!given.empty() && std::find(given.begin(), given.end(), method) == given.end()) continue;
        CompensatedSum total;
        bool failed = false;
        const auto leave_out = [&](std::size_t f, const char* why) {
            out.warnings.push_back("`method` auto: " + to_string(method) + " left out, its fit on fold " +
                                   std::to_string(f + 1) + " failed: " + why);
            failed = true;
        };
        for (std::size_t f = 0; f < K && !failed; ++f) {
            try {
                const RecalibrationMap map = fit_recalibration(rows(data, kept[f]), method, options).map;
                const CategoricalScores test = rows(data, held[f]);
                const Matrix q = apply_recalibration(map, test.scores);
                for (Eigen::Index i = 0; i < q.rows(); ++i)
                    total.add(row_score(q, i, test.labels[static_cast<std::size_t>(i)], selection.score,
                                        options.probability_floor));
            } catch (const invalid_argument& e) {
                leave_out(f, e.what());
            } catch (const numerical_error& e) {
                leave_out(f, e.what());
            }
        }
        if (failed) continue;
        const double mean = total.value() / static_cast<double>(n);
        scores.push_back({to_string(method), mean});
        if (!any || mean < best) best = mean, out.method = method, any = true;
    }
    if (!any) throw invalid_argument("`method` auto: every candidate's fit failed (" + out.warnings.front() + ")");
    out.record = {{"folds", static_cast<std::uint64_t>(K)},
                  {"cv_seed", selection.seed},
                  {"score", to_string(selection.score)},
                  {"candidates", scores},
                  {"chosen", to_string(out.method)}};
    return out;
}

}  // namespace calib::detail
