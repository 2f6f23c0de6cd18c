// NumPy arrays as calib's data sets (arrays.hpp).
#include "arrays.hpp"
#include "values.hpp"

#include <pybind11/numpy.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <list>
#include <optional>
#include <vector>

namespace py = pybind11;

namespace calib::python {

namespace {

std::string shape_text(const py::array& a) {
    std::string s = "(";
    for (py::ssize_t k = 0; k < a.ndim(); ++k) s += (k ? ", " : "") + std::to_string(a.shape(k));
    return s + (a.ndim() == 1 ? ",)" : ")");
}

std::string wanted_shape(int ndim) { return ndim == 1 ? "(n,)" : ndim == 2 ? "(n, k)" : "(n, d, d)"; }

// The array as NumPy sees it; numbers of any dtype are accepted here and read below.
py::array as_array(const py::handle& object, const char* name, int ndim) {
    py::array a = py::module_::import("numpy").attr("asarray")(object);
    if (a.ndim() != ndim)
        throw invalid_argument(std::string(name) + " must be a " + std::to_string(ndim) + "-d array of shape " +
                               wanted_shape(ndim) + ", got shape " + shape_text(a));
    const char kind = a.dtype().kind();
    if (kind != 'f' && kind != 'i' && kind != 'u' && kind != 'b')
        throw invalid_argument(std::string(name) + " must hold numbers, got dtype " +
                               std::string(py::str(a.dtype())));
    return a;
}

// Calls f(flat index l, value) for the elements in C order, reading float64, float32, int64 and int32
// arrays of any layout directly through their strides; other dtypes are converted to float64 first.
template <class T, class F>
void for_each_typed(const py::array& a, F&& f) {
    const auto* base = static_cast<const char*>(a.data());
    const py::ssize_t nd = a.ndim();
    if (nd == 1) {  // labels and other vectors: one stride
        const py::ssize_t n = a.shape(0), stride = a.strides(0);
        for (py::ssize_t l = 0; l < n; ++l)
            f(static_cast<std::size_t>(l), static_cast<double>(*reinterpret_cast<const T*>(base + l * stride)));
        return;
    }
    std::vector<py::ssize_t> index(static_cast<std::size_t>(nd), 0);
    const std::size_t total = static_cast<std::size_t>(a.size());
    for (std::size_t l = 0; l < total; ++l) {
        py::ssize_t offset = 0;
        for (py::ssize_t k = 0; k < nd; ++k) offset += index[static_cast<std::size_t>(k)] * a.strides(k);
        f(l, static_cast<double>(*reinterpret_cast<const T*>(base + offset)));
        for (py::ssize_t k = nd - 1; k >= 0; --k) {
            auto& i = index[static_cast<std::size_t>(k)];
            if (++i < a.shape(k)) break;
            i = 0;
        }
    }
}
template <class F>
void for_each(const py::array& a, F&& f) {
    if (py::isinstance<py::array_t<double>>(a)) return for_each_typed<double>(a, f);
    if (py::isinstance<py::array_t<float>>(a)) return for_each_typed<float>(a, f);
    if (py::isinstance<py::array_t<std::int64_t>>(a)) return for_each_typed<std::int64_t>(a, f);
    if (py::isinstance<py::array_t<std::int32_t>>(a)) return for_each_typed<std::int32_t>(a, f);
    for_each_typed<double>(py::array_t<double, py::array::forcecast>::ensure(a), f);
}

// An (n, k) array (or (n,) as (n, 1)) as an n×k column-major matrix (a copy: for inputs that are
// transformed anyway, logits and binary probabilities, and arrays calib cannot read in place).
Matrix to_matrix(const py::array& a) {
    const Eigen::Index n = a.shape(0), k = a.ndim() == 2 ? a.shape(1) : 1;
    Matrix m(n, k);
    for_each(a, [&](std::size_t l, double v) { m(static_cast<Eigen::Index>(l) / k, static_cast<Eigen::Index>(l) % k) = v; });
    return m;
}

// Whether calib can read the array where it is: float64 in the machine's byte order, aligned, with
// positive strides of whole elements (C or Fortran order, slices with a positive step).
bool in_place(const py::array& a) {
    if (!py::isinstance<py::array_t<double>>(a) || !(a.flags() & py::detail::npy_api::NPY_ARRAY_ALIGNED_)) return false;
    for (py::ssize_t k = 0; k < a.ndim(); ++k)
        if (a.shape(k) > 1 && (a.strides(k) <= 0 || a.strides(k) % static_cast<py::ssize_t>(sizeof(double)) != 0))
            return false;
    return true;
}

// The arrays of one data set: views of each array, read in place where possible (in_place) and
// otherwise converted once into a matrix the set owns; `owner` keeps all of them alive (the
// references to the NumPy arrays are dropped with the GIL held, whichever thread drops the last copy
// of the data set).
class Arrays {
public:
    MatrixView matrix(const py::array& a) {
        const Eigen::Index n = a.shape(0), k = a.ndim() == 2 ? a.shape(1) : 1;
        if (!in_place(a)) {
            copies_.push_back(to_matrix(a));
            return view_of(copies_.back());
        }
        arrays_.push_back(a);
        constexpr auto size = static_cast<py::ssize_t>(sizeof(double));
        // A dimension of length 1 may have any stride: its only step is never taken.
        const py::ssize_t row = n > 1 ? a.strides(0) / size : 1;
        const py::ssize_t column = a.ndim() == 2 && k > 1 ? a.strides(1) / size : n;
        return MatrixView(static_cast<const double*>(a.data()), n, k,
                          Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>(column, row));
    }
    VectorView vector(const py::array& a) {
        const MatrixView m = matrix(a);
        return VectorView(m.data(), m.rows(), Eigen::InnerStride<Eigen::Dynamic>(m.innerStride()));
    }
    Owner owner() && {
        auto* held = new Held{std::move(arrays_), std::move(copies_)};
        return Owner(held, [](const void* p) {
            py::gil_scoped_acquire gil;
            delete static_cast<const Held*>(p);
        });
    }

private:
    struct Held {
        std::vector<py::array> arrays;
        std::list<Matrix> copies;
    };
    std::vector<py::array> arrays_;
    std::list<Matrix> copies_;  // a list: views point into its elements
};

std::vector<Matrix> to_matrices(const py::array& a) {
    const Eigen::Index n = a.shape(0), d = a.shape(1);
    if (a.shape(2) != d)
        throw invalid_argument("cov must have shape (n, d, d), got " + shape_text(a));
    std::vector<Matrix> out(static_cast<std::size_t>(n), Matrix(d, d));
    for_each(a, [&](std::size_t l, double v) {
        const auto e = static_cast<Eigen::Index>(l);
        out[static_cast<std::size_t>(e / (d * d))](e / d % d, e % d) = v;
    });
    return out;
}

}  // namespace

ReadOptions read_options_of(const FamilyInfo& family, const py::dict& reading) {
    ReadingSetup setup(family, false);
    py::dict rest = reading.attr("copy")();  // set_options removes what it takes
    set_options(setup, rest);
    for (const auto& item : rest) {
        const std::string name = py::str(item.first), why = reading_option_message(name, setup);
        throw invalid_argument(why.empty() ? "unknown reading option " + name : why);
    }
    return setup.read_options();
}

const FamilyInfo& infer_family(const py::dict& given) {
    std::vector<ArrayInfo> arrays;
    for (const auto& item : given)
        arrays.push_back({std::string(py::str(item.first)),
                          static_cast<int>(py::array(py::module_::import("numpy").attr("asarray")(item.second)).ndim())});
    return family_of_arrays(arrays);
}

std::vector<std::string> array_list(const FamilyInfo& family) {
    std::vector<std::string> names;
    for (const ArrayInfo& a : family.arrays) names.push_back(a.name);
    return names;
}

Matrix table_matrix(const py::handle& object, const std::string& name) {
    const py::array probe = py::module_::import("numpy").attr("asarray")(object);
    return to_matrix(as_array(object, name.c_str(), probe.ndim() == 1 ? 1 : 2));
}

bool is_arrays(const py::handle& value) {
    if (py::isinstance<py::tuple>(value) || py::isinstance<py::list>(value) || py::isinstance<py::dict>(value))
        return true;
    // NumPy's scalars have __array__ too, but are numbers.
    const py::object generic = py::module_::import("numpy").attr("generic");
    return py::hasattr(value, "__array__") && !py::isinstance(value, generic);
}

void check_array_names(const FamilyInfo& family, const py::dict& given) {
    std::vector<ArrayInfo> names;
    for (const auto& item : given) names.push_back({std::string(py::str(item.first)), 0});
    check_arrays(family, names);
}

AnyData make_data(const FamilyInfo& family, const py::dict& given, const ReadOptions& options) {
    check_array_names(family, given);
    std::vector<py::array> a;
    for (const ArrayInfo& s : family.arrays) a.push_back(as_array(given[s.name.c_str()], s.name.c_str(), s.ndim));
    const py::ssize_t n = a[0].shape(0);
    for (std::size_t k = 1; k < a.size(); ++k) {
        const std::string& name = family.arrays[k].name;
        if (a[k].shape(0) != n)
            throw invalid_argument(name + " has " + std::to_string(a[k].shape(0)) + " rows but " +
                                   family.arrays[0].name + " has " + std::to_string(n));
        if (a[k].ndim() >= 2 && a[0].ndim() == 2 && a[k].shape(1) != a[0].shape(1))
            throw invalid_argument(name + " has shape " + shape_text(a[k]) + " but " + family.arrays[0].name +
                                   " has " + shape_text(a[0]));
    }
    if (n == 0) throw invalid_argument(family.arrays[0].name + " is empty: no observations");

    // The arrays are read with the GIL held (views where calib can read them in place); the data set is
    // built and validated without it.
    Arrays arrays;
    std::vector<ArrayInput> inputs;
    for (const py::array& array : a) {
        if (array.ndim() == 3) {
            ArrayInput matrices;
            matrices.matrices = to_matrices(array);
            inputs.push_back(std::move(matrices));
        } else {
            inputs.push_back(ArrayInput{arrays.matrix(array), {}});
        }
    }
    Owner owner = std::move(arrays).owner();
    std::optional<AnyData> data;
    {
        py::gil_scoped_release release;
        data = family.from_arrays(inputs, std::move(owner), options);
    }
    if (family.labels_options) {
        const auto& categorical = std::get<CategoricalData>(*data);
        const std::string warning =
            zero_label_warning(categorical.labels(), categorical.num_classes(), options.one_based_labels);
        if (!warning.empty()) warn(warning);
    }
    return std::move(*data);
}

}  // namespace calib::python
