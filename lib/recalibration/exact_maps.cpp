// The exact maps' rows (exact_maps.hpp).
#include "recalibration/exact_maps.hpp"

#include "recalibration/histogram_map.hpp"
#include "recalibration/isotonic_map.hpp"
#include "recalibration/venn_abers_map.hpp"

namespace calib::detail {

const ExactMap* exact_map(RecalibrationMethod method) {
    static const ExactMap maps[] = {
        {RecalibrationMethod::isotonic, fit_isotonic, apply_isotonic, isotonic_nll, isotonic_parameters,
         isotonic_parameter_names, set_isotonic_parameters, curves_problem},
        {RecalibrationMethod::histogram, fit_histogram, apply_histogram, histogram_nll, histogram_parameters,
         histogram_parameter_names, set_histogram_parameters, bins_problem},
        {RecalibrationMethod::venn_abers, fit_venn_abers, apply_venn_abers, venn_abers_nll, venn_abers_parameters,
         venn_abers_parameter_names, set_venn_abers_parameters, venn_abers_problem},
    };
    for (const ExactMap& map : maps)
        if (map.method == method) return &map;
    return nullptr;
}

}  // namespace calib::detail
