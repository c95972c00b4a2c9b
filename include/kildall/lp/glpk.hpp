#pragma once
/// \file
/// GLPK backend for kildall::lp models (GNU Linear Programming Kit 5.0:
/// primal/dual simplex and interior point for LPs, branch-and-cut with the
/// MIP presolver for MILPs; see the GLPK reference manual, "glpk.pdf").
/// Only code linking the `kildall::glpk` target (GPL) may include this header.
///
/// How the known GLPK pitfalls are handled:
/// - Errors: GLPK reports invalid input through `glp_error`, which aborts the
///   process. The backend validates everything first (rows are merged and
///   finite, names are never handed to GLPK, bounds are consistent), and
///   still runs every GLPK call under `glp_error_hook` + `longjmp`; after a
///   trapped error it calls `glp_free_env` (GLPK's documented recovery: the
///   environment is then unusable) and returns SolveStatus::error.
/// - Output: all terminal output goes through `glp_term_hook`; nothing is
///   printed unless `GlpkOptions::verbosity` asks for it.
/// - Threads: GLPK keeps global state, or thread-local state when built with
///   TLS (`glpk_thread_local()`; Debian's GLPK 5 is). Every GLPK call made
///   here holds `glpk_lock()`: a process-wide mutex in the first case, so
///   solves from several threads are serialized and safe; nothing in the
///   second, where solves on different threads run side by side. Code that
///   calls GLPK directly while kildall may be solving must hold
///   `glpk_lock()` too.
/// - `glp_intopt` without its presolver needs an optimal LP relaxation
///   (else GLP_EROOT): the backend runs `glp_simplex` first in that case.
/// - New GLPK columns are fixed at 0: every column's bounds are set.
/// - A MIP start can only be given through the branch-and-cut callback
///   (`glp_ios_heur_sol`, on the untransformed problem, so the MIP presolver
///   is off when a warm start is used; the LP relaxation is solved first).
/// - A time limit can end with no integer solution: SolveStatus::no_solution.

#include <glpk.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <csetjmp>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <kildall/lp/lexicographic.hpp>
#include <kildall/lp/model.hpp>
#include <kildall/lp/number_format.hpp>
#include <kildall/lp/solution.hpp>

namespace kildall::lp {

/// Algorithm for (relaxed) LPs.
enum class LpMethod : std::uint8_t {
  simplex,   ///< GLPK's primal simplex (exact vertex, duals)
  interior,  ///< GLPK's primal-dual interior point (LPs only; MIP relaxations use simplex)
};

/// How much GLPK may print (through `GlpkOptions::log`).
enum class Verbosity : std::uint8_t {
  quiet,   ///< nothing
  errors,  ///< errors and warnings only
  normal,  ///< GLPK's normal progress output
  all,     ///< everything GLPK prints
};

/// A branch-and-bound progress report (see GlpkOptions::progress).
struct MipProgress {
  double incumbent = Solution::nan;  ///< objective of the best integer point so far (NaN if none)
  double bound = Solution::nan;      ///< best bound of the open nodes (NaN if unknown)
  double gap = Solution::nan;        ///< relative gap between them (NaN if either is unknown)
  std::int64_t nodes = 0;            ///< nodes created so far
  std::int64_t open_nodes = 0;       ///< active (unexplored) nodes
  double elapsed_seconds = 0.0;      ///< since the solve started
};

/// Options of the GLPK backend.
struct GlpkOptions {
  LpMethod lp_method = LpMethod::simplex;  ///< algorithm for pure LPs
  /// Wall-clock limit of one GLPK solve (LP relaxation, branch-and-cut,
  /// polishing). Each level of a lexicographic model gets the full limit.
  double time_limit_seconds = inf;
  double mip_gap = 0.0;                    ///< stop when the relative gap is <= this (status feasible)
  double mip_gap_abs = 0.0;                ///< stop when |incumbent - bound| <= this (status feasible)
  bool presolve = true;                    ///< use GLPK's LP / MIP presolver
  /// Gomory, MIR, cover and clique cuts in branch-and-cut. Off by default
  /// (GLPK's default too): on a kildall test model GLPK's cuts gave points
  /// violating rows by 1e-5; `polish` repairs that, but cuts rarely pay off
  /// on the small models kildall builds.
  bool cuts = false;
  /// After branch-and-cut, fix the integer variables at their rounded values
  /// and re-solve the LP, so that the point is an exact simplex vertex that
  /// passes `check` with a tight tolerance.
  bool polish = true;
  Verbosity verbosity = Verbosity::quiet;  ///< how much GLPK output to pass to `log`
  /// Receives GLPK's output when `verbosity` is not quiet (default: stderr).
  std::function<void(std::string_view)> log{};
  /// Called during branch-and-bound at most every `progress_interval_seconds`
  /// and at each new incumbent, on the solving thread, while glpk_lock() is
  /// held: it must not start another GLPK solve. Exceptions it throws are
  /// swallowed (the message then says so).
  std::function<void(const MipProgress&)> progress{};
  double progress_interval_seconds = 1.0;  ///< minimum time between two progress reports
  /// Free this thread's GLPK environment after each solve (`glp_free_env`),
  /// so no GLPK memory outlives a solve. Turn off only if the same thread
  /// keeps its own GLPK objects alive across kildall solves.
  bool release_environment = true;
};

/// Whether GLPK keeps its state per thread: built with thread-local storage
/// (`glp_config("TLS")`, GLPK 5; Debian's is). Solves on different threads,
/// each with its own problem objects, are then independent.
[[nodiscard]] inline bool glpk_thread_local() noexcept {
#if GLP_MAJOR_VERSION >= 5
  static const bool thread_local_state = glp_config("TLS") != nullptr;
  return thread_local_state;
#else
  return false;
#endif
}

/// The lock every GLPK call made by kildall holds: a process-wide mutex when
/// GLPK's state is global, so that solves from several threads are
/// serialized; none (an empty lock: solves run side by side) when GLPK keeps
/// its state per thread (`glpk_thread_local()`).
[[nodiscard]] inline std::unique_lock<std::mutex> glpk_lock() {
  static std::mutex mutex;
  if (glpk_thread_local()) return {};
  return std::unique_lock<std::mutex>(mutex);
}

/// GLPK's version string, e.g. "5.0".
[[nodiscard]] inline std::string glpk_version() {
  auto lock = glpk_lock();
  return glp_version();
}

namespace glpk_detail {

/// Collects GLPK's terminal output; forwards it when asked.
struct TermCapture {
  std::string text;                                       ///< everything GLPK printed (last 64 KiB)
  const std::function<void(std::string_view)>* log = nullptr;  ///< where to forward (null: nowhere)
  bool to_stderr = false;                                 ///< forward to stderr when `log` is empty
};

inline int term_hook(void* info, const char* s) noexcept {
  auto* capture = static_cast<TermCapture*>(info);
  try {
    capture->text.append(s);
    if (capture->text.size() > 65536) capture->text.erase(0, capture->text.size() - 65536);
    if (capture->log != nullptr && *capture->log) {
      (*capture->log)(std::string_view(s));
    } else if (capture->to_stderr) {
      std::fputs(s, stderr);
    }
  } catch (...) {  // never let an exception cross GLPK's C frames
  }
  return 1;  // GLPK must not print by itself
}

struct Trap {
  std::jmp_buf buffer;
};

[[noreturn]] inline void error_hook(void* info) { std::longjmp(static_cast<Trap*>(info)->buffer, 1); }

/// Runs `body(context)` with GLPK's terminal output captured into `capture`
/// and GLPK's error path trapped. Returns false when GLPK raised an error: the
/// environment (and every GLPK object of this thread) has then been freed.
/// The caller must hold glpk_lock(). `body` must not own objects with
/// non-trivial destructors across GLPK calls (a trapped error skips them).
[[nodiscard]] inline bool guarded_call(void (*body)(void*), void* context, TermCapture& capture) {
  Trap trap;
  glp_term_hook(&term_hook, &capture);
  if (setjmp(trap.buffer) == 0) {
    glp_error_hook(&error_hook, &trap);
    body(context);
    glp_error_hook(nullptr, nullptr);
    glp_term_hook(nullptr, nullptr);
    return true;
  }
  glp_free_env();  // GLPK's documented recovery after glp_error; resets both hooks
  return false;
}

// Everything one solve needs, prepared before GLPK is entered (so the guarded
// region allocates nothing), and everything it produces.
struct Job {
  // input
  const GlpkOptions* options = nullptr;
  bool maximize = false;
  bool mip = false;
  int rows = 0;
  int cols = 0;
  std::vector<int> row_type, col_type;
  std::vector<double> row_lo, row_hi, col_lo, col_hi, cost;
  std::vector<char> col_integral;
  double cost0 = 0.0;
  std::vector<int> ia, ja;  // 1-based triplets
  std::vector<double> ar;
  std::vector<double> warm;  // 1-based; empty = none
  std::vector<int> start_col_stat, start_row_stat;  // 1-based GLPK statuses of a start basis; empty = none
  std::chrono::steady_clock::time_point start;
  // output
  int lp_ret = 0, lp_status = 0, mip_ret = 0, mip_status = 0, feas_ret = 0, feas_status = 0;
  bool ran_mip = false, lp_interior = false, used_feasibility_check = false;
  double objective = Solution::nan;
  std::vector<double> x, row_dual, col_dual;
  std::vector<int> col_stat, row_stat;  // 1-based final basis (sized before, filled for optimal simplex LPs)
  bool basis_filled = false;
  int start_ret = 0;                    // glp_simplex's code from the start basis, if it could not use it
  // branch-and-bound state
  double bound = Solution::nan, incumbent = Solution::nan;
  std::int64_t nodes = 0, open_nodes = 0;
  double last_report = -1e300;
  bool warm_given = false, warm_accepted = false, stopped_abs_gap = false;
  bool progress_failed = false;
  bool polished = false;
};

[[nodiscard]] inline double elapsed(const Job& job) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - job.start).count();
}

[[nodiscard]] inline int remaining_ms(const Job& job) {
  const double limit = job.options->time_limit_seconds;
  if (!(limit < 1e9)) return INT_MAX;
  const double left = std::max(0.0, limit - elapsed(job)) * 1000.0;
  return static_cast<int>(std::clamp(left, 1.0, static_cast<double>(INT_MAX)));
}

[[nodiscard]] inline int msg_level(const GlpkOptions& o) {
  switch (o.verbosity) {
    case Verbosity::quiet: return GLP_MSG_OFF;
    case Verbosity::errors: return GLP_MSG_ERR;
    case Verbosity::normal: return GLP_MSG_ON;
    case Verbosity::all: return GLP_MSG_ALL;
  }
  return GLP_MSG_OFF;
}

// Called outside any GLPK frame's state change: user code may allocate/throw.
inline void report_progress(Job& job) noexcept {
  try {
    MipProgress p;
    p.incumbent = job.incumbent;
    p.bound = job.bound;
    p.gap = relative_gap(job.incumbent, job.bound);
    p.nodes = job.nodes;
    p.open_nodes = job.open_nodes;
    p.elapsed_seconds = elapsed(job);
    job.options->progress(p);
  } catch (...) {
    job.progress_failed = true;
  }
}

inline void branch_callback(glp_tree* tree, void* info) {
  Job& job = *static_cast<Job*>(info);
  const int reason = glp_ios_reason(tree);
  if (reason == GLP_IHEUR && !job.warm.empty() && !job.warm_given) {
    job.warm_given = true;
    job.warm_accepted = glp_ios_heur_sol(tree, job.warm.data()) == 0;
  }
  if (reason != GLP_ISELECT && reason != GLP_IBINGO && reason != GLP_IHEUR) return;
  const int best = glp_ios_best_node(tree);
  if (best != 0) job.bound = glp_ios_node_bound(tree, best);
  glp_prob* prob = glp_ios_get_prob(tree);
  if (glp_mip_status(prob) == GLP_FEAS || glp_mip_status(prob) == GLP_OPT) job.incumbent = glp_mip_obj_val(prob);
  int active = 0, current = 0, total = 0;
  glp_ios_tree_size(tree, &active, &current, &total);
  job.nodes = total;
  job.open_nodes = active;
  const GlpkOptions& o = *job.options;
  if (o.mip_gap_abs > 0.0 && best != 0 && !std::isnan(job.incumbent) &&
      std::abs(job.incumbent - job.bound) <= o.mip_gap_abs) {
    job.stopped_abs_gap = true;
    glp_ios_terminate(tree);
  }
  if (o.progress) {
    const double now = elapsed(job);
    if (reason == GLP_IBINGO || now - job.last_report >= o.progress_interval_seconds) {
      job.last_report = now;
      report_progress(job);
    }
  }
}

inline void load(glp_prob* lp, Job& job) {
  glp_set_obj_dir(lp, job.maximize ? GLP_MAX : GLP_MIN);
  if (job.rows > 0) glp_add_rows(lp, job.rows);
  if (job.cols > 0) glp_add_cols(lp, job.cols);
  for (int j = 1; j <= job.cols; ++j) {
    glp_set_col_bnds(lp, j, job.col_type[j], job.col_lo[j], job.col_hi[j]);
    glp_set_obj_coef(lp, j, job.cost[j]);
    if (job.col_integral[j]) glp_set_col_kind(lp, j, GLP_IV);
  }
  glp_set_obj_coef(lp, 0, job.cost0);
  for (int i = 1; i <= job.rows; ++i) glp_set_row_bnds(lp, i, job.row_type[i], job.row_lo[i], job.row_hi[i]);
  const int nnz = static_cast<int>(job.ia.size()) - 1;
  if (nnz > 0) glp_load_matrix(lp, nnz, job.ia.data(), job.ja.data(), job.ar.data());
}

inline int run_simplex(glp_prob* lp, Job& job, bool presolve) {
  glp_smcp parm;
  glp_init_smcp(&parm);
  parm.msg_lev = msg_level(*job.options);
  parm.presolve = presolve ? GLP_ON : GLP_OFF;
  parm.tm_lim = remaining_ms(job);
  return glp_simplex(lp, &parm);
}

// LP relaxation status after simplex; retries without presolve when the
// presolver only says "no primal/dual feasible solution" without a basis.
inline void solve_relaxation(glp_prob* lp, Job& job, bool presolve) {
  job.lp_ret = run_simplex(lp, job, presolve);
  if (presolve && (job.lp_ret == GLP_ENOPFS || job.lp_ret == GLP_ENODFS)) job.lp_ret = run_simplex(lp, job, false);
  job.lp_status = glp_get_status(lp);
}

// Seconds the backend may spend deciding whether a MIP with an unbounded
// relaxation has an integer point (GLPK's search need not end on unbounded
// integer variables).
inline constexpr double feasibility_check_seconds = 10.0;

inline int run_intopt(glp_prob* lp, Job& job, bool presolve, bool with_callback, bool feasibility_check = false) {
  glp_iocp parm;
  glp_init_iocp(&parm);
  const GlpkOptions& o = *job.options;
  parm.msg_lev = msg_level(o);
  parm.presolve = presolve ? GLP_ON : GLP_OFF;
  parm.tm_lim = remaining_ms(job);
  if (feasibility_check) parm.tm_lim = std::min(parm.tm_lim, static_cast<int>(feasibility_check_seconds * 1000));
  parm.mip_gap = o.mip_gap;
  if (o.cuts) {
    parm.gmi_cuts = GLP_ON;
    parm.mir_cuts = GLP_ON;
    parm.cov_cuts = GLP_ON;
    parm.clq_cuts = GLP_ON;
  }
  if (with_callback) {
    parm.cb_func = &branch_callback;
    parm.cb_info = &job;
  }
  return glp_intopt(lp, &parm);
}

// Re-solves the LP with every integer column fixed at its rounded value, so
// the continuous part is an exact simplex vertex: branch-and-cut points can
// violate rows by ~1e-5 after cuts and integrality tolerances. Keeps the
// branch-and-cut point if the LP does not solve to optimality.
inline void polish(glp_prob* lp, Job& job) {
  for (int j = 1; j <= job.cols; ++j) {
    if (job.col_integral[j]) glp_set_col_bnds(lp, j, GLP_FX, job.x[j - 1], job.x[j - 1]);
  }
  glp_smcp parm;
  glp_init_smcp(&parm);
  parm.msg_lev = GLP_MSG_OFF;
  parm.presolve = GLP_ON;
  parm.tm_lim = std::max(remaining_ms(job), 1000);
  if (glp_simplex(lp, &parm) != 0 || glp_get_status(lp) != GLP_OPT) return;
  job.polished = true;
  job.objective = glp_get_obj_val(lp);
  for (int j = 1; j <= job.cols; ++j) {
    if (!job.col_integral[j]) job.x[j - 1] = glp_get_col_prim(lp, j);
  }
}

// The guarded body: every GLPK call of one solve.
inline void solve_body(void* context) {
  Job& job = *static_cast<Job*>(context);
  const GlpkOptions& o = *job.options;
  glp_prob* lp = glp_create_prob();
  load(lp, job);
  if (!job.mip) {
    if (o.lp_method == LpMethod::interior && job.rows > 0 && job.cols > 0) {
      glp_iptcp parm;
      glp_init_iptcp(&parm);
      parm.msg_lev = msg_level(o);
      job.lp_ret = glp_interior(lp, &parm);
      if (job.lp_ret == 0 && glp_ipt_status(lp) == GLP_OPT) {
        job.lp_interior = true;
        job.lp_status = GLP_OPT;
      }
    }
    if (!job.lp_interior && !job.start_col_stat.empty()) {
      // From the given basis: the dual simplex (the basis of an LP before rows
      // were added stays dual feasible), no presolver (it would drop the basis).
      for (int j = 1; j <= job.cols; ++j) glp_set_col_stat(lp, j, job.start_col_stat[static_cast<std::size_t>(j)]);
      for (int i = 1; i <= job.rows; ++i) glp_set_row_stat(lp, i, job.start_row_stat[static_cast<std::size_t>(i)]);
      glp_smcp parm;
      glp_init_smcp(&parm);
      parm.msg_lev = msg_level(o);
      parm.meth = GLP_DUALP;
      parm.presolve = GLP_OFF;
      parm.tm_lim = remaining_ms(job);
      job.lp_ret = glp_simplex(lp, &parm);
      if (job.lp_ret == GLP_EBADB || job.lp_ret == GLP_ESING || job.lp_ret == GLP_ECOND) {
        job.start_ret = job.lp_ret;  // unusable basis: from scratch
        glp_std_basis(lp);
        solve_relaxation(lp, job, o.presolve);
      } else {
        job.lp_status = glp_get_status(lp);
      }
    } else if (!job.lp_interior) {
      solve_relaxation(lp, job, o.presolve);
    }
    const bool have_point = job.lp_interior || job.lp_status == GLP_OPT || job.lp_status == GLP_FEAS;
    if (have_point) {
      job.objective = job.lp_interior ? glp_ipt_obj_val(lp) : glp_get_obj_val(lp);
      for (int j = 1; j <= job.cols; ++j) {
        job.x[j - 1] = job.lp_interior ? glp_ipt_col_prim(lp, j) : glp_get_col_prim(lp, j);
        job.col_dual[j - 1] = job.lp_interior ? glp_ipt_col_dual(lp, j) : glp_get_col_dual(lp, j);
      }
      for (int i = 1; i <= job.rows; ++i) {
        job.row_dual[i - 1] = job.lp_interior ? glp_ipt_row_dual(lp, i) : glp_get_row_dual(lp, i);
      }
    }
    if (!job.lp_interior && job.lp_status == GLP_OPT) {
      job.basis_filled = true;
      for (int j = 1; j <= job.cols; ++j) job.col_stat[static_cast<std::size_t>(j)] = glp_get_col_stat(lp, j);
      for (int i = 1; i <= job.rows; ++i) job.row_stat[static_cast<std::size_t>(i)] = glp_get_row_stat(lp, i);
    }
    glp_delete_prob(lp);
    return;
  }
  // MIP. Without the MIP presolver (or with a warm start, which needs the
  // untransformed problem) glp_intopt needs an optimal LP relaxation first.
  const bool mip_presolve = o.presolve && job.warm.empty();
  if (!mip_presolve) {
    solve_relaxation(lp, job, o.presolve);
    if (job.lp_status != GLP_OPT) {
      if (job.lp_status == GLP_UNBND) {
        // Unbounded relaxation: the MIP is unbounded iff it is feasible.
        job.used_feasibility_check = true;
        for (int j = 0; j <= job.cols; ++j) glp_set_obj_coef(lp, j, 0.0);
        job.feas_ret = run_intopt(lp, job, true, false, true);
        job.feas_status = glp_mip_status(lp);
      }
      glp_delete_prob(lp);
      return;
    }
  }
  job.ran_mip = true;
  job.mip_ret = run_intopt(lp, job, mip_presolve, true);
  job.mip_status = glp_mip_status(lp);
  if (job.mip_ret == GLP_ENODFS) {
    job.used_feasibility_check = true;
    for (int j = 0; j <= job.cols; ++j) glp_set_obj_coef(lp, j, 0.0);
    job.feas_ret = run_intopt(lp, job, true, false, true);
    job.feas_status = glp_mip_status(lp);
  } else if (job.mip_status == GLP_OPT || job.mip_status == GLP_FEAS) {
    job.objective = glp_mip_obj_val(lp);
    for (int j = 1; j <= job.cols; ++j) {
      job.x[j - 1] = glp_mip_col_val(lp, j);
      if (job.col_integral[j]) job.x[j - 1] = std::round(job.x[j - 1]);
    }
    if (o.polish) polish(lp, job);
  }
  glp_delete_prob(lp);
}

[[nodiscard]] inline int bound_type(double lo, double hi) {
  if (lo == -inf && hi == inf) return GLP_FR;
  if (hi == inf) return GLP_LO;
  if (lo == -inf) return GLP_UP;
  if (lo == hi) return GLP_FX;
  return GLP_DB;
}

// Largest violation of `x` against the model (bounds, integrality, rows), and what.
[[nodiscard]] inline std::pair<double, std::string> worst_violation(const Model& model, std::span<const double> x) {
  double worst = 0.0;
  std::string what;
  auto note = [&](double v, auto&& describe) {
    if (!(v <= worst)) {
      worst = std::isnan(v) ? inf : v;
      what = describe();
    }
  };
  for (std::size_t j = 0; j < model.num_vars(); ++j) {
    const VarInfo& v = model.vars()[j];
    const Var var(static_cast<std::uint32_t>(j));
    note(std::max(v.lower - x[j], x[j] - v.upper), [&] { return "bounds of " + model.display_name(var); });
    if (v.is_integral()) note(std::abs(x[j] - std::round(x[j])), [&] { return "integrality of " + model.display_name(var); });
  }
  for (std::size_t i = 0; i < model.num_row_slots(); ++i) {
    const Row& r = model.rows()[i];
    if (r.removed) continue;
    const double a = r.expr.evaluate(x);
    note(std::max(r.lower - a, a - r.upper),
         [&] { return "constraint " + model.display_name(ConstraintRef(static_cast<std::uint32_t>(i))); });
  }
  return {worst, what};
}

}  // namespace glpk_detail

/// Solves models with GLPK. Cheap to copy; `solve` is const and thread-safe
/// (GLPK calls hold glpk_lock()). Satisfies WarmStartBackend.
class GlpkSolver {
 public:
  /// A solver with the given options.
  explicit GlpkSolver(GlpkOptions options = {}) : options_(std::move(options)) {}

  /// The options (modifiable).
  [[nodiscard]] GlpkOptions& options() noexcept { return options_; }
  /// The options.
  [[nodiscard]] const GlpkOptions& options() const noexcept { return options_; }

  /// Solves the model (all lexicographic levels in order when it has several).
  [[nodiscard]] Solution solve(const Model& model) const { return solve(model, {}); }

  /// Solves the model starting from a feasible point `warm_start` (indexed
  /// like the variables; integer variables are rounded). The start is handed
  /// to GLPK's branch-and-cut as an incumbent; an empty span means none, and
  /// pure LPs ignore it. A start that violates the model by more than 1e-6 is
  /// ignored and the message says why.
  [[nodiscard]] Solution solve(const Model& model, std::span<const double> warm_start) const {
    if (std::string why = invalid_options(options_); !why.empty()) {
      Solution out;
      out.status = SolveStatus::error;
      out.message = "invalid GlpkOptions: " + why;
      return out;
    }
    if (model.objectives().size() > 1) {
      GlpkSolver single = *this;
      return solve_lexicographic(model, single, warm_start);
    }
    return solve_single(model, warm_start, nullptr);
  }

  /// Solves an LP from the basis `start`, typically the `Solution::basis` of
  /// an earlier solve of the same model before rows or variables were added
  /// (a warm start: GLPK's dual simplex without its presolver, which stays
  /// dual feasible from such a basis and needs few pivots). Rows and
  /// variables beyond `start`'s sizes start basic and at a bound; a status a
  /// bound does not allow is moved to one it does (GLPK's rule). A start GLPK
  /// cannot factorize (wrong number of basic statuses, singular) is dropped
  /// and the LP solved from scratch, as `solve` does; the message says so.
  /// MIPs, lexicographic models and `LpMethod::interior` ignore the start.
  [[nodiscard]] Solution solve_from(const Model& model, const Basis& start) const {
    // (Invalid options: `solve` reports them.)
    if (model.is_mip() || model.objectives().size() > 1 || start.empty() || !invalid_options(options_).empty()) return solve(model);
    return solve_single(model, {}, &start);
  }

 private:
  /// Why `o` cannot be used (empty when it can): a NaN or negative time limit
  /// or gap would otherwise reach GLPK as a meaningless or aborting parameter.
  [[nodiscard]] static std::string invalid_options(const GlpkOptions& o) {
    auto bad = [](double value) { return std::isnan(value) || value < 0.0; };
    if (bad(o.time_limit_seconds)) {
      return "time_limit_seconds is " + format_number(o.time_limit_seconds) + " (must be >= 0; infinity for no limit)";
    }
    if (bad(o.mip_gap)) return "mip_gap is " + format_number(o.mip_gap) + " (must be >= 0)";
    if (bad(o.mip_gap_abs)) return "mip_gap_abs is " + format_number(o.mip_gap_abs) + " (must be >= 0)";
    return {};
  }

  [[nodiscard]] static int glpk_status(BasisStatus status) noexcept {
    switch (status) {
      case BasisStatus::basic: return GLP_BS;
      case BasisStatus::at_lower: return GLP_NL;
      case BasisStatus::at_upper: return GLP_NU;
      case BasisStatus::free: return GLP_NF;
      case BasisStatus::fixed: return GLP_NS;
    }
    return GLP_BS;
  }
  [[nodiscard]] static BasisStatus basis_status(int status) noexcept {
    switch (status) {
      case GLP_NL: return BasisStatus::at_lower;
      case GLP_NU: return BasisStatus::at_upper;
      case GLP_NF: return BasisStatus::free;
      case GLP_NS: return BasisStatus::fixed;
      default: return BasisStatus::basic;
    }
  }

  [[nodiscard]] Solution solve_single(const Model& model, std::span<const double> warm_start, const Basis* start) const {
    using namespace glpk_detail;
    Solution out;
    const auto t0 = std::chrono::steady_clock::now();
    if (model.num_vars() > static_cast<std::size_t>(INT_MAX / 2) || model.num_row_slots() > static_cast<std::size_t>(INT_MAX / 2) ||
        model.num_nonzeros() > static_cast<std::size_t>(INT_MAX - 1)) {
      out.message = "model too large for GLPK (int indices)";
      return out;
    }
    Job job;
    job.options = &options_;
    job.start = t0;
    job.mip = model.is_mip();
    const Objective& obj = model.objective();
    job.maximize = obj.sense == Sense::maximize;
    // Columns.
    const int n = static_cast<int>(model.num_vars());
    job.cols = n;
    job.col_type.assign(n + 1, GLP_FR);
    job.col_lo.assign(n + 1, 0.0);
    job.col_hi.assign(n + 1, 0.0);
    job.col_integral.assign(n + 1, 0);
    job.cost.assign(n + 1, 0.0);
    for (int j = 1; j <= n; ++j) {
      const VarInfo& v = model.vars()[static_cast<std::size_t>(j - 1)];
      if (v.lower > v.upper) {
        out.status = SolveStatus::infeasible;
        out.message = "variable " + model.display_name(Var(static_cast<std::uint32_t>(j - 1))) + " has lower bound > upper bound";
        return out;
      }
      job.col_type[j] = bound_type(v.lower, v.upper);
      job.col_lo[j] = v.lower == -inf ? 0.0 : v.lower;
      job.col_hi[j] = v.upper == inf ? 0.0 : v.upper;
      job.col_integral[j] = v.is_integral() ? 1 : 0;
    }
    for (const Term& t : obj.expr.terms()) job.cost[t.var.index() + 1] += t.coefficient;
    job.cost0 = obj.expr.constant();
    // Rows (removed slots are skipped).
    std::vector<int> slot_of_row{0};
    job.row_type.push_back(0);
    job.row_lo.push_back(0.0);
    job.row_hi.push_back(0.0);
    job.ia.reserve(model.num_nonzeros() + 1);
    job.ja.reserve(model.num_nonzeros() + 1);
    job.ar.reserve(model.num_nonzeros() + 1);
    job.ia.push_back(0);
    job.ja.push_back(0);
    job.ar.push_back(0.0);
    for (std::size_t i = 0; i < model.num_row_slots(); ++i) {
      const Row& r = model.rows()[i];
      if (r.removed) continue;
      if (r.lower > r.upper) {
        out.status = SolveStatus::infeasible;
        out.message = "constraint " + model.display_name(ConstraintRef(static_cast<std::uint32_t>(i))) +
                      " has lower bound > upper bound";
        return out;
      }
      const int row = static_cast<int>(slot_of_row.size());
      slot_of_row.push_back(static_cast<int>(i));
      job.row_type.push_back(bound_type(r.lower, r.upper));
      job.row_lo.push_back(r.lower == -inf ? 0.0 : r.lower);
      job.row_hi.push_back(r.upper == inf ? 0.0 : r.upper);
      // Rows are normalized by Model::add: one entry per column, finite, nonzero.
      for (const Term& t : r.expr.terms()) {
        job.ia.push_back(row);
        job.ja.push_back(static_cast<int>(t.var.index()) + 1);
        job.ar.push_back(t.coefficient);
      }
    }
    job.rows = static_cast<int>(slot_of_row.size()) - 1;
    job.x.assign(static_cast<std::size_t>(n), Solution::nan);
    job.col_dual.assign(static_cast<std::size_t>(n), Solution::nan);
    job.row_dual.assign(static_cast<std::size_t>(job.rows), Solution::nan);
    if (!job.mip) {
      job.col_stat.assign(static_cast<std::size_t>(n) + 1, GLP_BS);
      job.row_stat.assign(static_cast<std::size_t>(job.rows) + 1, GLP_BS);
    }
    if (start != nullptr && !job.mip) {
      // Beyond the start: rows basic (their slack), variables nonbasic at a bound.
      job.start_col_stat.assign(static_cast<std::size_t>(n) + 1, GLP_NL);
      for (std::size_t j = 0; j < start->variables.size() && j < static_cast<std::size_t>(n); ++j)
        job.start_col_stat[j + 1] = glpk_status(start->variables[j]);
      job.start_row_stat.assign(static_cast<std::size_t>(job.rows) + 1, GLP_BS);
      for (int i = 1; i <= job.rows; ++i) {
        const auto slot = static_cast<std::size_t>(slot_of_row[static_cast<std::size_t>(i)]);
        if (slot < start->rows.size()) job.start_row_stat[static_cast<std::size_t>(i)] = glpk_status(start->rows[slot]);
      }
    }
    // Warm start: checked here, GLPK would take any integral point blindly.
    std::string warm_note;
    if (!warm_start.empty() && job.mip) {
      std::vector<double> start(warm_start.begin(), warm_start.end());
      if (start.size() != model.num_vars()) {
        warm_note = std::string("warm start ignored: ").append(std::to_string(start.size())) + " values for " +
                    std::to_string(model.num_vars()) + " variables";
      } else {
        for (std::size_t j = 0; j < start.size(); ++j)
          if (model.vars()[j].is_integral()) start[j] = std::round(start[j]);
        const auto [violation, what] = worst_violation(model, start);
        if (violation > 1e-6) {
          warm_note = "warm start ignored: it violates " + what + std::string(" by ").append(std::to_string(violation));
        } else {
          job.warm.assign(1, 0.0);
          job.warm.insert(job.warm.end(), start.begin(), start.end());
        }
      }
    }
    TermCapture capture;
    capture.log = options_.verbosity != Verbosity::quiet ? &options_.log : nullptr;
    capture.to_stderr = options_.verbosity != Verbosity::quiet;
    bool ok = false;
    {
      auto lock = glpk_lock();
      ok = guarded_call(&solve_body, &job, capture);
      if (ok && options_.release_environment) glp_free_env();
    }
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    out.nodes = job.nodes;
    if (!ok) {
      out.status = SolveStatus::error;
      out.message = "GLPK error: " + capture.text;
      return out;
    }
    fill(out, job, slot_of_row, model);
    if (job.start_ret != 0)
      warm_note = "start basis not usable (GLPK code " + std::to_string(job.start_ret) + "): solved from scratch";
    if (job.warm_given && !job.warm_accepted) warm_note = "warm start rejected by GLPK (not better than its incumbent)";
    if (out.has_solution() && job.mip && options_.polish && !job.polished) {
      warm_note += std::string(warm_note.empty() ? "" : "; ") + "polishing LP failed: point as found by branch-and-cut";
    }
    if (!warm_note.empty()) out.message += (out.message.empty() ? "" : "; ") + warm_note;
    if (job.progress_failed) out.message += (out.message.empty() ? "" : "; ") + std::string("progress callback threw");
    return out;
  }

  static void fill(Solution& out, const glpk_detail::Job& job, const std::vector<int>& slot_of_row, const Model& model) {
    auto set_point = [&] {
      out.values = job.x;
      out.objective = job.objective;
    };
    if (!job.mip) {
      switch (job.lp_status) {
        case GLP_OPT:
          out.status = SolveStatus::optimal;
          set_point();
          out.best_bound = out.objective;
          out.gap = 0.0;
          out.reduced_costs = job.col_dual;
          out.row_duals.assign(model.num_row_slots(), Solution::nan);
          for (int i = 1; i <= job.rows; ++i) out.row_duals[static_cast<std::size_t>(slot_of_row[static_cast<std::size_t>(i)])] = job.row_dual[static_cast<std::size_t>(i - 1)];
          if (job.basis_filled) {
            out.basis.variables.resize(static_cast<std::size_t>(job.cols));
            for (int j = 1; j <= job.cols; ++j) out.basis.variables[static_cast<std::size_t>(j - 1)] = basis_status(job.col_stat[static_cast<std::size_t>(j)]);
            out.basis.rows.assign(model.num_row_slots(), BasisStatus::basic);
            for (int i = 1; i <= job.rows; ++i)
              out.basis.rows[static_cast<std::size_t>(slot_of_row[static_cast<std::size_t>(i)])] = basis_status(job.row_stat[static_cast<std::size_t>(i)]);
          }
          return;
        case GLP_NOFEAS: out.status = SolveStatus::infeasible; out.message = "LP is infeasible"; return;
        case GLP_UNBND: out.status = SolveStatus::unbounded; out.message = "LP is unbounded"; return;
        case GLP_FEAS:
          out.status = SolveStatus::feasible;
          set_point();
          out.message = "simplex stopped (time limit) at a feasible, not proven optimal point";
          return;
        default:
          out.status = job.lp_ret == GLP_ETMLIM ? SolveStatus::no_solution : SolveStatus::error;
          out.message = job.lp_ret == GLP_ETMLIM ? "time limit reached before a feasible point was found"
                                                 : std::string("simplex failed (GLPK code ").append(std::to_string(job.lp_ret)) + ")";
          return;
      }
    }
    if (job.used_feasibility_check) {
      const bool feasible = job.feas_status == GLP_OPT || job.feas_status == GLP_FEAS;
      const bool decided = feasible || job.feas_ret == GLP_ENOPFS || job.feas_status == GLP_NOFEAS;
      out.status = feasible || !decided ? SolveStatus::unbounded : SolveStatus::infeasible;
      out.message = feasible  ? "MIP is unbounded (unbounded relaxation, feasible integer point exists)"
                    : decided ? "MIP is infeasible"
                              : "LP relaxation is unbounded and no integer point was found in the time allowed: "
                                "the MIP is unbounded or infeasible";
      return;
    }
    if (!job.ran_mip) {  // relaxation solved first and not optimal
      if (job.lp_status == GLP_NOFEAS) {
        out.status = SolveStatus::infeasible;
        out.message = "LP relaxation is infeasible";
      } else if (job.lp_ret == GLP_ETMLIM) {
        out.status = SolveStatus::no_solution;
        out.message = "time limit reached while solving the LP relaxation";
      } else {
        out.status = SolveStatus::error;
        out.message = std::string("LP relaxation failed (GLPK code ").append(std::to_string(job.lp_ret)) + ")";
      }
      return;
    }
    const bool has_point = job.mip_status == GLP_OPT || job.mip_status == GLP_FEAS;
    if (job.mip_ret == GLP_ENOPFS || job.mip_status == GLP_NOFEAS) {
      out.status = SolveStatus::infeasible;
      out.message = "MIP is infeasible";
      return;
    }
    if (has_point) {
      set_point();
      if (job.mip_status == GLP_OPT && job.mip_ret == 0) {
        out.status = SolveStatus::optimal;
        out.best_bound = out.objective;
        out.gap = 0.0;
        return;
      }
      out.status = SolveStatus::feasible;
      out.best_bound = job.bound;
      if (!std::isnan(out.best_bound)) {
        // The bound can never be worse than the incumbent.
        out.best_bound = job.maximize ? std::max(out.best_bound, out.objective) : std::min(out.best_bound, out.objective);
      }
      out.gap = relative_gap(out.objective, out.best_bound);
      out.message = job.mip_ret == GLP_ETMLIM  ? "time limit reached"
                    : job.stopped_abs_gap      ? "absolute MIP gap reached"
                    : job.mip_ret == GLP_EMIPGAP || job.mip_ret == 0 ? "relative MIP gap reached"
                                                                      : std::string("search stopped (GLPK code ").append(std::to_string(job.mip_ret)) + ")";
      return;
    }
    if (job.mip_ret == GLP_ETMLIM) {
      out.status = SolveStatus::no_solution;
      out.best_bound = job.bound;
      out.message = "time limit reached before an integer feasible point was found";
      return;
    }
    out.status = SolveStatus::error;
    out.message = std::string("branch-and-cut failed (GLPK code ").append(std::to_string(job.mip_ret)) + ")";
  }

  GlpkOptions options_;
};

/// Solves `model` with GLPK and the given options (see GlpkSolver).
[[nodiscard]] inline Solution solve_glpk(const Model& model, const GlpkOptions& options = {},
                                         std::span<const double> warm_start = {}) {
  return GlpkSolver(options).solve(model, warm_start);
}

}  // namespace kildall::lp
