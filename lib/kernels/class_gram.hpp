// The check of a class Gram matrix (the gram target kernel of the SKCE and the CKCE).
#pragma once

#include <calib/data.hpp>

namespace calib::detail {

// Throws calib::invalid_argument (naming `function`) unless gram is m×m, finite, symmetric and positive
// semidefinite (smallest eigenvalue ≥ −1e-10 · max(1, max |entry|)).
void check_class_gram(const char* function, const Matrix& gram, int m);

}  // namespace calib::detail
