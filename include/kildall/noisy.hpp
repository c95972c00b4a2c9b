#pragma once
/// \file
/// Umbrella header of the noisy-arithmetic model (kildall's reference
/// instantiation): the model and its transfer functions, the `NoisyProgram`
/// concept, the noise analysis, verification, the greedy placement, the
/// rewrite, the reference-IR dialect adapter, and the GLPK-free parts of the
/// optimizer at scale (the compact program, cover cuts, the hitting-set
/// solver, local search). The one entry point of optimal placement
/// (`kildall/noisy/place_reduce_noise.hpp`, with its strategies
/// `ilp_placement.hpp` and `lazy_placement.hpp`) needs GLPK (GPL) and is not
/// included here; neither is the kildall-opt plugin.

#include <kildall/noisy/compact_program.hpp>
#include <kildall/noisy/cover_cuts.hpp>
#include <kildall/noisy/frontier_placement.hpp>
#include <kildall/noisy/greedy.hpp>
#include <kildall/noisy/hitting_set.hpp>
#include <kildall/noisy/ir_dialect.hpp>
#include <kildall/noisy/local_search.hpp>
#include <kildall/noisy/noise_analysis.hpp>
#include <kildall/noisy/noise_model.hpp>
#include <kildall/noisy/placement.hpp>
#include <kildall/noisy/program_concept.hpp>
#include <kildall/noisy/rewrite.hpp>
#include <kildall/noisy/verify.hpp>
