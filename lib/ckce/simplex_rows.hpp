// The simplex kernel of the CKCE evaluated a row chunk at a time, as a pair term of the engine
// (size() and row()) and as a prediction kernel of TensorTerm (values()):
//   k(p_i, q_j) = [lin] p_iᵀq_j + [gauss] exp(−‖p_i − q_j‖²/(2γ²))   (× k_A(a_i, a_j) with an attribute)
#pragma once

#include "engine/term.hpp"

#include <calib/ckce.hpp>

#include <cmath>
#include <cstddef>
#include <utility>

namespace calib::detail {

class SimplexRows {
public:
    // Between the rows of `rows` and those of `cols` (empty: the rows themselves). An attribute
    // applies only between a set and itself.
    SimplexRows(Matrix rows, Matrix cols, const SimplexKernel& kernel, const Attribute* attribute = nullptr)
        : rows_(std::move(rows)), cols_(std::move(cols)), linear_(kernel.linear), gaussian_(kernel.gaussian),
          lengthscale_(kernel.lengthscale), scale_(0.5 / (kernel.lengthscale * kernel.lengthscale)) {
        if (attribute) {
            attribute_ = attribute->values;
            kronecker_ = attribute->type == AttributeKernelType::kronecker;
            attribute_lengthscale_ = attribute->lengthscale;
            attribute_scale_ = 0.5 / (attribute->lengthscale * attribute->lengthscale);
        }
    }

    std::size_t size() const { return static_cast<std::size_t>(rows_.rows()); }

    void row(std::size_t i, std::size_t j0, std::size_t j1, double* out) const { values(i, j0, j1, out); }

    // out[j − j0] = k(p_i, q_j), j1 − j0 ≤ chunk_width. Columns go in register blocks of 32 with the
    // classes innermost (each column of the data is contiguous), both sums in one pass.
    void values(std::size_t i, std::size_t j0, std::size_t j1, double* out) const {
        const Matrix& c = cols();
        const std::size_t len = j1 - j0;
        const Eigen::Index m = rows_.cols();
        const auto r = static_cast<Eigen::Index>(i);
        alignas(64) double sq[chunk_width];
        std::size_t j = 0;
        for (; j + 32 <= len; j += 32) {
            double dot[32] = {}, dist[32] = {};
            for (Eigen::Index k = 0; k < m; ++k) {
                const double x = rows_(r, k);
                const double* y = c.col(k).data() + j0 + j;
                for (int l = 0; l < 32; ++l) {
                    const double d = y[l] - x;
                    dot[l] += x * y[l];
                    dist[l] += d * d;
                }
            }
            for (int l = 0; l < 32; ++l) out[j + l] = dot[l], sq[j + l] = dist[l];
        }
        for (; j < len; ++j) {
            double dot = 0, dist = 0;
            for (Eigen::Index k = 0; k < m; ++k) {
                const double x = rows_(r, k), y = c(static_cast<Eigen::Index>(j0 + j), k), d = y - x;
                dot += x * y;
                dist += d * d;
            }
            out[j] = dot, sq[j] = dist;
        }
        const auto n = static_cast<Eigen::Index>(len);
        Eigen::Map<Eigen::ArrayXd> a(out, n);
        const Eigen::Map<const Eigen::ArrayXd> s(sq, n);
        if (!linear_) a.setZero();
        if (gaussian_) a += gaussian(s, scale_, lengthscale_);
        if (attribute_.size()) {
            const double ai = attribute_(r);
            const auto aj = attribute_.segment(static_cast<Eigen::Index>(j0), n).array();
            if (kronecker_)
                a *= (aj == ai).cast<double>();
            else
                a *= 1 + gaussian((aj - ai).square(), attribute_scale_, attribute_lengthscale_);
        }
    }

private:
    const Matrix& cols() const { return cols_.size() ? cols_ : rows_; }

    // exp(−s/(2γ²)) of squared distances s, through the precomputed scale 1/(2γ²) unless it overflowed
    // (γ below ~5e-155): then (√s/γ)²/2, which keeps s = 0 at exp(0) = 1 instead of exp(−0·∞) = NaN.
    // The result lives on the stack (at most a chunk's width), so a row costs no allocation.
    using ChunkArray = Eigen::Array<double, Eigen::Dynamic, 1, 0, static_cast<int>(chunk_width), 1>;
    template <class Squares>
    static ChunkArray gaussian(const Squares& s, double scale, double lengthscale) {
        if (std::isinf(scale)) return (-0.5 * (s.sqrt() / lengthscale).square()).exp();
        return (-scale * s).exp();
    }

    Matrix rows_, cols_;
    bool linear_, gaussian_;
    double lengthscale_, scale_;
    Vector attribute_;
    bool kronecker_ = true;
    double attribute_lengthscale_ = 1, attribute_scale_ = 0;
};

}  // namespace calib::detail
