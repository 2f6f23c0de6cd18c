// The reductions of a categorical data set to pair-regression problems (squared_ce.hpp; digest §2).
#include <calib/squared_ce.hpp>

namespace calib {

std::vector<CeProblem> ce_problems(const CategoricalData& data, CeNotion notion) {
    const Matrix& p = data.probabilities();
    const auto n = p.rows();
    const std::vector<int>& y = data.labels();
    std::vector<CeProblem> problems;
    if (notion == CeNotion::canonical) {
        CeProblem& c = problems.emplace_back(CeProblem{p, p});
        for (Eigen::Index i = 0; i < n; ++i) c.residuals(i, y[static_cast<std::size_t>(i)]) -= 1;  // P − e_Y
    } else if (notion == CeNotion::top_label) {
        CeProblem& c = problems.emplace_back(CeProblem{Matrix(n, 1), Matrix(n, 1)});
        for (Eigen::Index i = 0; i < n; ++i) {
            Eigen::Index top = 0;  // the first maximum, as the ECE's top-label mode
            const double s = p.row(i).maxCoeff(&top);
            c.inputs(i, 0) = s;
            c.residuals(i, 0) = s - (top == y[static_cast<std::size_t>(i)] ? 1.0 : 0.0);
        }
    } else {
        for (Eigen::Index k = 0; k < p.cols(); ++k) {
            CeProblem& c = problems.emplace_back(CeProblem{p.col(k), p.col(k)});
            for (Eigen::Index i = 0; i < n; ++i)
                if (y[static_cast<std::size_t>(i)] == k) c.residuals(i, 0) -= 1;
        }
    }
    return problems;
}

std::string to_string(CeNotion notion) {
    switch (notion) {
    case CeNotion::canonical: return "canonical";
    case CeNotion::top_label: return "top-label";
    case CeNotion::class_wise: return "class-wise";
    }
    return "";
}

std::string to_string(CeEstimator estimator) {
    switch (estimator) {
    case CeEstimator::bins: return "ce-bins";
    case CeEstimator::kde: return "ce-kde";
    case CeEstimator::kkr: return "ce-kkr";
    case CeEstimator::ukkr: return "ce-ukkr";
    }
    return "";
}

std::string to_string(RidgePreset preset) {
    return preset == RidgePreset::reference_code ? "reference-code" : "paper-text";
}

}  // namespace calib
