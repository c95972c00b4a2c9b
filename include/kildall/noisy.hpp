#pragma once
/// \file
/// Umbrella header of the noisy-arithmetic model (kildall's reference
/// instantiation): the model and its transfer functions, the `NoisyProgram`
/// concept, the noise analysis, verification, the greedy placement, the
/// rewrite, and the reference-IR dialect adapter. The optimal ILP placement
/// (`kildall/noisy/ilp_placement.hpp`) needs GLPK (GPL) and Eigen and is not
/// included here; neither is the kildall-opt plugin built on it.

#include <kildall/noisy/greedy.hpp>
#include <kildall/noisy/ir_dialect.hpp>
#include <kildall/noisy/noise_analysis.hpp>
#include <kildall/noisy/noise_model.hpp>
#include <kildall/noisy/placement.hpp>
#include <kildall/noisy/program_concept.hpp>
#include <kildall/noisy/rewrite.hpp>
#include <kildall/noisy/verify.hpp>
