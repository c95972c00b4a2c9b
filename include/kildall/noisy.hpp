#pragma once
/// \file
/// Umbrella header of the noisy-arithmetic model (kildall's reference
/// instantiation): the model and its transfer functions, the `NoisyProgram`
/// concept, the noise analysis, verification, the greedy placement, the
/// rewrite, the reference-IR dialect adapter, and the GLPK-free parts of the
/// optimizer at scale (cover cuts, local search). The optimal placements
/// (`kildall/noisy/ilp_placement.hpp`, the article's model, and
/// `kildall/noisy/lazy_placement.hpp`, lazy cover cuts at scale) need GLPK
/// (GPL) and are not included here; neither is the kildall-opt plugin.

#include <kildall/noisy/cover_cuts.hpp>
#include <kildall/noisy/greedy.hpp>
#include <kildall/noisy/ir_dialect.hpp>
#include <kildall/noisy/local_search.hpp>
#include <kildall/noisy/noise_analysis.hpp>
#include <kildall/noisy/noise_model.hpp>
#include <kildall/noisy/placement.hpp>
#include <kildall/noisy/program_concept.hpp>
#include <kildall/noisy/rewrite.hpp>
#include <kildall/noisy/verify.hpp>
