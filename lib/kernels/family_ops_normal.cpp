// The engine passes over the kernels of NormalData (family_ops.hpp), compiled in their own translation unit.
#include "kernels/family_ops.ipp"

template struct calib::detail::FamilyOps<calib::NormalData>;
