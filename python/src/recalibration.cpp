// calib.recalibrate_fit and calib.recalibrate_apply (recalibration.hpp): the maps of `calib recalibrate
// fit|apply` (calib/recalibration.hpp) on arrays. A map travels as the text of the JSON map file, so that
// Python's dict of it has the file's fields and values, bitwise.
#include "recalibration.hpp"

#include "arrays.hpp"
#include "values.hpp"

#include <calib/recalibration.hpp>

#include <pybind11/numpy.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace py = pybind11;

namespace calib::python {

namespace {

double number(const std::string& name, const py::handle& v) {
    const double x = to_double(to_value(name, v));
    if (!std::isfinite(x)) throw option_error(name, std::string(py::repr(v)), "a finite number");
    return x;
}

std::string text(const std::string& name, const py::handle& v) {
    if (!py::isinstance<py::str>(v)) throw option_error(name, std::string(py::repr(v)), "a str");
    return v.cast<std::string>();
}

// RecalibrationOptions' fields by their names (the command line's --ridge, --objective, --lambda,
// --notion, and the rest of the struct's): one entry per field, so that a new field of the struct is
// one more entry here. `applies` says when the command line takes the option; the library checks the
// values (ranges, lambda with the objective, the notion).
struct FitOption {
    const char* name;
    void (*set)(RecalibrationOptions&, const std::string&, const py::handle&);
    bool (*applies)(RecalibrationMethod, const RecalibrationOptions&);
    const char* condition;  // when it applies, for the message
};

bool always(RecalibrationMethod, const RecalibrationOptions&) { return true; }
bool with_mmd(RecalibrationMethod, const RecalibrationOptions& o) { return o.objective == RecalibrationObjective::nll_mmd; }
bool with_normal_mmd(RecalibrationMethod m, const RecalibrationOptions& o) { return !is_categorical(m) && with_mmd(m, o); }
bool sampled(RecalibrationMethod m, const RecalibrationOptions& o) {
    return with_normal_mmd(m, o) && o.mmd_marginalisation != MmdMarginalisation::analytic;
}

// An integer in [min, max]: a Python int (exactly, up to 2^64 − 1), or a float with an integral value.
std::uint64_t integer(const std::string& name, const py::handle& v, std::uint64_t min, std::uint64_t max) {
    const std::string rule = "an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]";
    if (py::isinstance<py::int_>(v) && !py::isinstance<py::bool_>(v)) {
        try {
            const auto x = v.cast<std::uint64_t>();
            if (x >= min && x <= max) return x;
        } catch (const py::cast_error&) {  // negative or beyond 64 bits
        }
        throw option_error(name, std::string(py::repr(v)), rule);
    }
    const double x = number(name, v);
    // (x < 2^64 too: double(max) rounds up to 2^64 for the largest max, which no uint64 holds)
    if (!(x >= static_cast<double>(min) && x <= static_cast<double>(max) && x < 18446744073709551616.0 &&
          x == std::floor(x)))
        throw option_error(name, std::string(py::repr(v)), rule);
    return static_cast<std::uint64_t>(x);
}

const std::vector<FitOption>& fit_options() {
    static const std::vector<FitOption> table = {
        {"objective",
         [](RecalibrationOptions& o, const std::string& n, const py::handle& v) {
             o.objective = parse_recalibration_objective(text(n, v));
         },
         always, ""},
        {"lambda", [](RecalibrationOptions& o, const std::string& n, const py::handle& v) { o.lambda = number(n, v); },
         with_mmd, "objective nll+mmd"},
        {"notion",
         [](RecalibrationOptions& o, const std::string& n, const py::handle& v) {
             o.notion = parse_mmd_notion(text(n, v));
         },
         with_mmd, "objective nll+mmd"},
        {"kernel_y",
         [](RecalibrationOptions& o, const std::string& n, const py::handle& v) {
             o.mmd_target = parse_gaussian_target(text(n, v), n);
         },
         with_normal_mmd, "family normal and objective nll+mmd"},
        {"lengthscale",
         [](RecalibrationOptions& o, const std::string& n, const py::handle& v) { o.mmd_lengthscale = number(n, v); },
         with_normal_mmd, "family normal and objective nll+mmd"},
        {"lengthscale_y",
         [](RecalibrationOptions& o, const std::string& n, const py::handle& v) { o.mmd_target_lengthscale = number(n, v); },
         with_normal_mmd, "family normal and objective nll+mmd"},
        {"threshold",
         [](RecalibrationOptions& o, const std::string& n, const py::handle& v) { o.mmd_threshold = number(n, v); },
         [](RecalibrationMethod m, const RecalibrationOptions& o) {
             return with_normal_mmd(m, o) && o.mmd_target == GaussianTarget::sign;
         },
         "family normal, objective nll+mmd and kernel_y sign"},
        {"marginalisation",
         [](RecalibrationOptions& o, const std::string& n, const py::handle& v) {
             o.mmd_marginalisation = parse_mmd_marginalisation(text(n, v), n);
         },
         with_normal_mmd, "family normal and objective nll+mmd"},
        {"samples",
         [](RecalibrationOptions& o, const std::string& n, const py::handle& v) {
             o.mmd_samples = static_cast<std::size_t>(integer(n, v, 1, 100000000));
         },
         sampled, "marginalisation mc-paired or mc-all-pairs"},
        {"mc_seed",
         [](RecalibrationOptions& o, const std::string& n, const py::handle& v) {
             o.mmd_seed = integer(n, v, 0, std::numeric_limits<std::uint64_t>::max());
         },
         sampled, "marginalisation mc-paired or mc-all-pairs"},
        {"ridge", [](RecalibrationOptions& o, const std::string& n, const py::handle& v) { o.ridge = number(n, v); },
         [](RecalibrationMethod m, const RecalibrationOptions&) { return m == RecalibrationMethod::matrix; },
         "method matrix"},
        {"probability_floor",
         [](RecalibrationOptions& o, const std::string& n, const py::handle& v) { o.probability_floor = number(n, v); },
         [](RecalibrationMethod m, const RecalibrationOptions&) { return is_categorical(m); },
         "a categorical method (temperature, temperature-bias, vector, matrix)"},
        {"max_iterations",
         [](RecalibrationOptions& o, const std::string& n, const py::handle& v) {
             o.max_iterations = static_cast<std::size_t>(integer(n, v, 1, 1000000000));
         },
         always, ""},
        {"gradient_tolerance",
         [](RecalibrationOptions& o, const std::string& n, const py::handle& v) { o.gradient_tolerance = number(n, v); },
         always, ""},
    };
    return table;
}

// The options given by keyword; throws TypeError for an unknown name (listing the known ones) and
// ValueError for one that does not apply (as the command line refuses it). `lambda` is required with
// nll+mmd, as on the command line.
RecalibrationOptions fit_options(RecalibrationMethod method, const py::dict& given) {
    RecalibrationOptions o;
    std::string known;
    for (const FitOption& f : fit_options()) known += (known.empty() ? "" : ", ") + std::string(f.name);
    for (const auto& item : given) {
        const std::string name = py::str(item.first);
        bool found = false;
        for (const FitOption& f : fit_options())
            if (name == f.name) found = true;
        if (!found)
            throw py::type_error("unexpected keyword argument " + name + " for recalibrate_fit; its options are " + known +
                                 " (lambda_ for lambda)");
    }
    for (const FitOption& f : fit_options())  // in the table's order: the objective before what depends on it
        if (given.contains(f.name)) f.set(o, f.name, given[f.name]);
    for (const FitOption& f : fit_options())
        if (given.contains(f.name) && !f.applies(method, o))
            throw invalid_argument(std::string(f.name) + " applies only with " + f.condition);
    if (o.objective == RecalibrationObjective::nll_mmd && !given.contains("lambda"))
        throw invalid_argument("objective nll+mmd needs lambda (lambda_=L, the weight of MMD^2, >= 0)");
    return o;
}

const FamilyInfo& recalibration_family(const std::string& name, const py::dict& arrays) {
    const FamilyInfo& family = name.empty() ? infer_family(arrays) : find_family(name);
    if (family.name != "categorical" && family.name != "normal")
        throw invalid_argument("recalibration maps categorical predictions (probs, labels) or normal ones (mean, std, "
                               "y), not family " + family.name);
    return family;
}

// A table of finite numbers (the raw scores or forecasts a map takes).
Matrix finite_table(const py::handle& object, const std::string& name) {
    Matrix t = table_matrix(object, name);
    for (Eigen::Index j = 0; j < t.cols(); ++j)
        for (Eigen::Index i = 0; i < t.rows(); ++i)
            if (!std::isfinite(t(i, j)))
                throw invalid_argument(name + "[" + std::to_string(i) + (t.cols() > 1 ? ", " + std::to_string(j) : "") +
                                       "] = " + std::string(py::repr(py::float_(t(i, j)))) + ", must be finite");
    if (t.rows() == 0) throw invalid_argument(name + " is empty: no observations");
    return t;
}

std::string fit(const std::string& family_name, const py::dict& arrays, const py::dict& reading, const py::object& features,
                const std::string& method_name, const py::dict& options) {
    const FamilyInfo& family = recalibration_family(family_name, arrays);
    const bool categorical = family.name == "categorical";
    const RecalibrationMethod method = parse_recalibration_method(method_name);
    if (is_categorical(method) != categorical)
        throw invalid_argument("method " + method_name + " does not apply to family " + family.name +
                               (categorical ? " (temperature, temperature-bias, vector, matrix)" : " (affine, affine-features)"));
    RecalibrationOptions o = fit_options(method, options);
    // As the command line: the distribution notion by default for the normal maps' nll+mmd.
    if (!categorical && o.objective == RecalibrationObjective::nll_mmd && !options.contains("notion"))
        o.notion = MmdNotion::distribution;
    const bool individual = o.objective == RecalibrationObjective::nll_mmd && o.notion == MmdNotion::individual;
    if (!features.is_none() && method != RecalibrationMethod::affine_features && !individual)
        throw invalid_argument("features applies only to method affine-features or notion individual");
    if (features.is_none() && method == RecalibrationMethod::affine_features)
        throw invalid_argument("method affine-features needs features (one value x per observation)");
    if (features.is_none() && individual)
        throw invalid_argument("notion individual needs features (the conditioning variable, n rows)");
    // The data set validates the arrays as the command line's reader does the file.
    const ClassOptions read = class_options(family, reading);
    const AnyData data = make_data(family, arrays, read);
    RecalibrationMap map;
    if (categorical) {
        const auto& d = std::get<CategoricalData>(data);
        // As read_categorical_scores: the probabilities as read, or the logits themselves.
        CategoricalScores scores{read.logits ? table_matrix(arrays["probs"], "probs") : Matrix(d.probabilities()),
                                 d.labels(), read.logits};
        py::gil_scoped_release release;
        map = fit_recalibration(scores, method, o);
    } else {
        const auto& d = std::get<NormalData>(data);
        if (features.is_none()) {
            py::gil_scoped_release release;
            map = fit_recalibration(d, method, o);
        } else {
            const Matrix x = table_matrix(features, "features");
            py::gil_scoped_release release;
            map = fit_recalibration(d, x, method, o);
        }
    }
    return to_json(map);
}

// The map applied to new predictions: {"probs": (n, m)} or {"mean": (n,), "std": (n,)}, the arrays of
// the family's predictions, so that they can be passed on as they are.
py::dict apply(const std::string& map_json, const py::dict& arrays, const py::object& features) {
    const RecalibrationMap map = recalibration_map_from_json(map_json);
    const bool categorical = is_categorical(map.method);
    const std::vector<std::string> names = categorical ? std::vector<std::string>{"probs"}
                                                       : std::vector<std::string>{"mean", "std"};
    for (const auto& item : arrays) {
        const std::string name = py::str(item.first);
        if (std::find(names.begin(), names.end(), name) == names.end())
            throw invalid_argument(name + " does not apply to a map of method " + to_string(map.method) + ", which takes " +
                                   (categorical ? "probs (its raw scores: logits or probabilities)" : "mean and std"));
    }
    for (const std::string& name : names)
        if (!arrays.contains(name)) throw invalid_argument("missing " + name + " for a map of method " + to_string(map.method));
    if (!features.is_none() && map.method != RecalibrationMethod::affine_features)
        throw invalid_argument("features applies only to a map of method affine-features, not " + to_string(map.method));
    if (features.is_none() && map.method == RecalibrationMethod::affine_features)
        throw invalid_argument("the map is affine-features: it needs features (one value x per observation)");
    const Matrix x = features.is_none() ? Matrix() : finite_table(features, "features");
    py::dict out;
    if (categorical) {
        const Matrix scores = finite_table(arrays["probs"], "probs");
        Matrix p;
        {
            py::gil_scoped_release release;
            p = apply_recalibration(map, scores);
        }
        py::array_t<double> probs({p.rows(), p.cols()});  // C order, as NumPy's default
        auto w = probs.mutable_unchecked<2>();
        for (Eigen::Index i = 0; i < p.rows(); ++i)
            for (Eigen::Index k = 0; k < p.cols(); ++k) w(i, k) = p(i, k);
        out["probs"] = probs;
        return out;
    }
    const Matrix mean = finite_table(arrays["mean"], "mean"), stddev = finite_table(arrays["std"], "std");
    if (mean.cols() != 1 || stddev.cols() != 1 || stddev.rows() != mean.rows())
        throw invalid_argument("mean and std must be 1-d arrays of the same length, got " + std::to_string(mean.rows()) +
                               " x " + std::to_string(mean.cols()) + " and " + std::to_string(stddev.rows()) + " x " +
                               std::to_string(stddev.cols()));
    if (x.size() && x.rows() != mean.rows())
        throw invalid_argument("features has " + std::to_string(x.rows()) + " rows but mean has " +
                               std::to_string(mean.rows()));
    Matrix r;
    {
        py::gil_scoped_release release;
        r = apply_recalibration(map, mean.col(0), stddev.col(0), x);
    }
    out["mean"] = py::array_t<double>(r.rows(), r.col(0).data());
    out["std"] = py::array_t<double>(r.rows(), r.col(1).data());
    return out;
}

}  // namespace

void add_recalibration(py::module_& m) {
    m.def("recalibrate_fit", &fit, py::arg("family"), py::arg("arrays"), py::arg("reading"), py::arg("features"),
          py::arg("method"), py::arg("options"));
    m.def("recalibrate_apply", &apply, py::arg("map_json"), py::arg("arrays"), py::arg("features"));
}

}  // namespace calib::python
