#pragma once
/// \file
/// Umbrella header of kildall's LP/MILP model builder (standard library
/// only). The GLPK backend (kildall/lp/glpk.hpp, target kildall::glpk) and the
/// Eigen export and check (kildall/lp/eigen.hpp, target kildall::eigen) are
/// separate on purpose and are not included here.

#include <kildall/lp/constraint.hpp>
#include <kildall/lp/error.hpp>
#include <kildall/lp/expression.hpp>
#include <kildall/lp/lexicographic.hpp>
#include <kildall/lp/linearize.hpp>
#include <kildall/lp/lp_format.hpp>
#include <kildall/lp/model.hpp>
#include <kildall/lp/mps_format.hpp>
#include <kildall/lp/names.hpp>
#include <kildall/lp/number_format.hpp>
#include <kildall/lp/print.hpp>
#include <kildall/lp/solution.hpp>
#include <kildall/lp/variable.hpp>
