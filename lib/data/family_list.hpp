// The data families of calib, in one list: every template over a data family is explicitly
// instantiated for each of them through CALIB_FOR_EACH_FAMILY(MACRO), MACRO(Data) being the
// instantiations of one source file.
#pragma once

#define CALIB_FOR_EACH_FAMILY(MACRO) \
    MACRO(CategoricalData)           \
    MACRO(NormalData)                \
    MACRO(LaplaceData)               \
    MACRO(MvNormalData)              \
    MACRO(MixtureNormalData)

// Those of univariate predictive distributions (is_univariate_v).
#define CALIB_FOR_EACH_UNIVARIATE_FAMILY(MACRO) \
    MACRO(NormalData)                          \
    MACRO(LaplaceData)                         \
    MACRO(MixtureNormalData)
