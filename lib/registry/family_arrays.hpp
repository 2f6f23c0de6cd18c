// Each family's data set from keyword arrays (families.hpp, FamilyInfo::from_arrays): the constructors
// the families table points at, one per family.
#pragma once

#include <calib/families.hpp>

#include <vector>

namespace calib::detail {

using ArrayConstructor = AnyData (*)(const std::vector<ArrayInput>& arrays, Owner owner, const ReadOptions& options);

AnyData categorical_from_arrays(const std::vector<ArrayInput>& a, Owner owner, const ReadOptions& options);
AnyData binary_from_arrays(const std::vector<ArrayInput>& a, Owner owner, const ReadOptions& options);
AnyData normal_from_arrays(const std::vector<ArrayInput>& a, Owner owner, const ReadOptions& options);
AnyData laplace_from_arrays(const std::vector<ArrayInput>& a, Owner owner, const ReadOptions& options);
AnyData mvnormal_diag_from_arrays(const std::vector<ArrayInput>& a, Owner owner, const ReadOptions& options);
AnyData mvnormal_from_arrays(const std::vector<ArrayInput>& a, Owner owner, const ReadOptions& options);
AnyData mixture_normal_from_arrays(const std::vector<ArrayInput>& a, Owner owner, const ReadOptions& options);

}  // namespace calib::detail
