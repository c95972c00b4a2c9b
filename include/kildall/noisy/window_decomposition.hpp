#pragma once
/// \file
/// Windows of consecutive ops for `reduce_noise` placement on wide acyclic
/// programs (the lazy strategy's last phase, `lazy_placement.hpp`): a
/// certified lower bound by decomposition and a better placement by large
/// neighbourhood search, both by solving small programs built from windows
/// of the program (consecutive ops of a topological order) exactly.
///
/// **The bound** (`WindowBound`): split the order into consecutive pieces.
/// Each piece becomes a program of its own: its ops, every value from
/// outside it at the least noise any placement gives it
/// (`least_possible_noise`: free, as if reduced at no cost), and a copy of
/// every checked op after the piece that reads one of its values, as a check
/// only (its noise must stay within the maximum; nobody reads it). Any legal
/// placement restricted to the piece's ops is legal for the piece's program
/// (the rules are monotone and every value there is at most its noise in the
/// placed program), so the piece's optimum is at most what the placement
/// spends on the piece's ops, and the sum of the pieces' optima (or of
/// proven lower bounds of them) is a lower bound of the program's optimum.
/// Pieces are solved exactly by the caller's solver (the lazy strategy
/// itself), then merged pairwise while time remains (a merged piece's bound
/// is at least the sum of its halves'). The bound of a relaxation by
/// decomposition (cf. Geoffrion 1974, "Lagrangean relaxation for integer
/// programming", without multipliers); the readers' checks carry what the
/// next piece needs of a piece's values back into it (a product needs both
/// operands near `initial`), which a plain split at the boundary loses.
///
/// **The pooled cuts** (`WindowBound::cuts`): a cover cut of a piece's
/// program whose ops are all the piece's own holds for the whole program
/// (by the same restriction), so the cuts found by the pieces' solves, of
/// the base decomposition and of decompositions shifted by 1/2, 1/4, 3/4,
/// ... of a piece (`collect_shifted`: each boundary falls inside pieces of
/// the others), can be pooled into one hitting-set relaxation that couples
/// neighbouring pieces (the lazy strategy bounds it by its LP relaxation,
/// `hitting_set_lp.hpp`; cf. the overlapping subproblems of Lagrangian
/// decomposition, Guignard and Kim 1987, which here share their cuts
/// instead of being priced).
///
/// **The placement** (`improve_by_windows`): large neighbourhood search
/// (Shaw 1998, "Using constraint programming and local search methods to
/// solve vehicle routing problems"): for a window of the order, hold the
/// placement outside it, give the window's program each value from before
/// it at its noise under the placement (a reduction of that input stands for
/// reducing the value), cap each of its values read after it (ops that are
/// legal only while it stays within the cap, below) at the most the rest of
/// the placement tolerates of that value alone (`noise_allowances`: a
/// backward pass like the required times of static timing analysis), solve
/// exactly, and keep the result when it needs fewer reductions and the whole
/// program, evaluated again, is legal. Values raised together can exceed what
/// each alone may (both operands of a product); such a window is solved again
/// with its values capped at their present noise, which the rest always
/// tolerates. Windows slide by half their size between passes.
/// The solver gets the window's present placement to start from (a solve
/// that cannot beat it ends once its bound meets it), and a window whose
/// program and placement are those of a window solved before without gain
/// (a fingerprint of both) is not solved again.
///
/// A value of noise `l` is an encode followed by `l - initial` adds of fresh
/// encodes (noise `initial + k` after `k` adds), or from `2 x initial` on the
/// product of an encode and a value of `l - initial`; reducing one of its
/// ops lowers it to at most what a reduction of the value would. A cap `c`
/// on a value `v` is `v` times a value of `maximum - c` (legal iff `v` is at
/// most `c`), or `maximum - c` adds after `v` when `maximum - c < initial`.

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <set>
#include <unordered_set>
#include <utility>
#include <vector>

#include <kildall/noisy/compact_program.hpp>
#include <kildall/noisy/local_search.hpp>
#include <kildall/noisy/noise_model.hpp>

namespace kildall::noisy {

/// What a window's solver returns for the window's program.
struct WindowSolution {
  std::vector<bool> reduced;  ///< A legal placement of the window's program (per vertex), empty if none.
  double bound = 0.0;         ///< A proven lower bound of the window program's fewest reductions.
  bool optimal = false;       ///< `reduced` is proven to have the fewest.
  /// Cover cuts of the window's program (vertex lists): every legal placement
  /// of it reduces an op of each (may be empty; the bound pools them).
  std::vector<std::vector<std::uint32_t>> cuts;
};

/// Solves a window's program (the fewest reductions) by the given time;
/// the third argument is a legal placement of the window's program to start
/// from (per vertex: the neighbourhood search's present placement, so a solve
/// that cannot beat it may stop as soon as its bound meets it), or empty (the
/// bound's pieces).
using WindowSolver = std::function<WindowSolution(const CompactNoisyProgram&, std::chrono::steady_clock::time_point,
                                                  const std::vector<bool>&)>;

/// Options of the window methods.
struct WindowOptions {
  /// Reducible (add/sub/mul) ops per window (per piece before merging).
  std::size_t ops = 150;
  /// Time limit of one window solve, seconds (a merged piece of k windows: k times this).
  double window_seconds = 1.0;
  /// Stop at this point in time.
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
  /// `improve_by_windows` only: asked before each window with the reduction
  /// count of the placement so far; true ends the search (the lazy strategy:
  /// a bound found on another thread meets that count). Empty: never.
  std::function<bool(std::size_t)> stop;
};

/// The order the windows follow: vertex order if it is topological, else the
/// program's topological order (empty: the program has a cycle).
[[nodiscard]] inline std::vector<std::uint32_t> window_order(const CompactNoisyProgram& program) {
  if (!program.acyclic()) return {};
  std::vector<std::uint32_t> order(program.size());
  bool vertex_order = true;
  for (std::uint32_t v = 0; v < program.size() && vertex_order; ++v) {
    order[v] = v;
    for (const std::uint32_t o : program.operands(v)) vertex_order = vertex_order && o < v;
  }
  return vertex_order ? order : program.topological;
}

namespace detail {

// Builds a window's program; `stands_for[v]` is the vertex of the whole
// program whose reduction a reduction of `v` means (none: `npos`).
class WindowProgramBuilder {
 public:
  static constexpr std::uint32_t npos = std::numeric_limits<std::uint32_t>::max();
  explicit WindowProgramBuilder(const NoiseParameters& parameters) : parameters_(parameters) {}
  std::uint32_t op(NoisyOp kind, std::vector<std::uint32_t> operands, std::uint32_t stands_for) {
    kinds_.push_back(kind);
    operands_.push_back(std::move(operands));
    stands_for_.push_back(stands_for);
    return static_cast<std::uint32_t>(kinds_.size() - 1);
  }
  // A value of noise `level` (>= initial): a product of an encode and a value
  // of `level - initial` from 2 x initial on, else a chain of adds; its
  // reducible ops stand for `stands_for`.
  std::uint32_t level(std::uint64_t level, std::uint32_t stands_for) {
    const std::uint64_t initial = parameters_.initial;
    if (initial > 0 && level >= 2 * initial)
      return op(NoisyOp::mul, {op(NoisyOp::encode, {}, npos), this->level(level - initial, stands_for)}, stands_for);
    std::uint32_t v = op(NoisyOp::encode, {}, npos);
    for (std::uint64_t l = initial; l < level; ++l) v = op(NoisyOp::add, {v, op(NoisyOp::encode, {}, npos)}, stands_for);
    return v;
  }
  // Ops that are legal only while `v`'s noise is at most `cap` (initial <= cap
  // < maximum): a product with a value of `maximum - cap` when that is at
  // least `initial`, else a chain of `maximum - cap` adds; they stand for `stands_for`.
  void cap(std::uint32_t v, std::uint64_t cap, std::uint32_t stands_for) {
    const std::uint64_t rest = parameters_.maximum - cap;
    if (rest >= parameters_.initial) {
      (void)op(NoisyOp::mul, {v, level(rest, stands_for)}, stands_for);
      return;
    }
    for (std::uint64_t k = 0; k < rest; ++k) v = op(NoisyOp::add, {v, op(NoisyOp::encode, {}, npos)}, stands_for);
  }
  [[nodiscard]] CompactNoisyProgram take() { return make_compact_program(std::move(kinds_), operands_); }
  [[nodiscard]] const std::vector<std::uint32_t>& stands_for() const noexcept { return stands_for_; }

 private:
  NoiseParameters parameters_;
  std::vector<NoisyOp> kinds_;
  std::vector<std::vector<std::uint32_t>> operands_;
  std::vector<std::uint32_t> stands_for_;
};

// Readers whose noise depends on the operand (decode and the like do not count).
inline bool noisy_reader(const CompactNoisyProgram& p, std::uint32_t reader) { return depends_on_operands(p.kind[reader]); }

// Splits `order` into windows of `ops` reducible ops, the first boundary
// `offset` reducible ops in (0: `ops` in): the windows' first positions.
inline std::vector<std::uint32_t> window_starts(const CompactNoisyProgram& p, const std::vector<std::uint32_t>& order,
                                                std::size_t ops, std::size_t offset) {
  std::vector<std::uint32_t> starts{0};
  ops = std::max<std::size_t>(ops, 1);
  std::size_t j = 0;  // reducible ops before position k
  for (std::uint32_t k = 0; k < order.size(); ++k) {
    if (!is_reducible(p.kind[order[k]])) continue;
    if (j > 0 && j >= offset && (j - offset) % ops == 0) starts.push_back(k);
    ++j;
  }
  return starts;
}

// The largest noise operand `index` of an op of `kind` may have, the other
// operands at `operands`, with the op's own noise at most `cap`; at least
// `operands[index]`, which the caller knows to fit. By bisection on
// `fold_noise` (monotone in every operand).
inline std::uint64_t largest_operand_noise(NoisyOp kind, std::vector<std::uint64_t>& operands, std::size_t index,
                                           std::uint64_t cap, const NoiseParameters& parameters) {
  const std::uint64_t present = operands[index];
  std::uint64_t lo = present, hi = cap + 1;  // fits at lo; not at hi (a rule never lowers the noise)
  while (hi - lo > 1) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    operands[index] = mid;
    if (fold_noise(kind, operands, parameters) <= cap) lo = mid;
    else hi = mid;
  }
  operands[index] = present;
  return lo;
}

// The largest noise each value may have with the rest of the placement
// `reduced` held and every other value at its present noise `noise`, counting
// only its readers at positions `from` and after of `order`
// (`noise_saturation`: none of them limits it). A backward pass, like the
// required times of static timing analysis: a checked op's own noise may
// reach `maximum`, and an op not reduced may not exceed what its own value is
// allowed. Raising two values at once may break what each alone may (both
// operands of a product): callers check the whole program again.
inline std::vector<std::uint64_t> noise_allowances(const CompactNoisyProgram& p, const std::vector<std::uint32_t>& order,
                                                   std::uint32_t from, const std::vector<bool>& reduced,
                                                   const PlacedNoise& noise, const NoiseParameters& parameters) {
  std::vector<std::uint64_t> allowed(p.size(), noise_saturation);
  std::vector<std::uint64_t> in;
  for (std::size_t k = order.size(); k-- > from;) {
    const std::uint32_t r = order[k];
    if (!depends_on_operands(p.kind[r])) continue;
    std::uint64_t cap = is_checked(p.kind[r]) ? parameters.maximum : noise_saturation;
    if (!(is_reducible(p.kind[r]) && reduced[r])) cap = std::min(cap, allowed[r]);
    if (cap >= noise_saturation) continue;
    const auto operands = p.operands(r);
    in.clear();
    for (const std::uint32_t o : operands) in.push_back(noise.value[o]);
    for (std::size_t i = 0; i < in.size(); ++i)
      allowed[operands[i]] = std::min(allowed[operands[i]], largest_operand_noise(p.kind[r], in, i, cap, parameters));
  }
  return allowed;
}

// What one window's solve did to the placement.
enum class WindowAttempt : std::uint8_t { no_gain, improved, illegal };

// A 64-bit fingerprint of a window's program and a placement of it (FNV-1a
// over its kinds, operands and the placement).
inline std::uint64_t window_fingerprint(const CompactNoisyProgram& p, const std::vector<bool>& placed) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  const auto mix = [&h](std::uint64_t x) {
    for (int i = 0; i < 8; ++i, x >>= 8) h = (h ^ (x & 0xffu)) * 0x100000001b3ull;
  };
  mix(p.size());
  for (std::uint32_t v = 0; v < p.size(); ++v) {
    mix(static_cast<std::uint64_t>(p.kind[v]) << 1 | (v < placed.size() && placed[v] ? 1u : 0u));
    for (const std::uint32_t o : p.operands(v)) mix(o);
    mix(0xffffffffull);
  }
  return h;
}

}  // namespace detail

/// The certified lower bound by decomposition into windows (see the file
/// comment): `improve` solves the pieces, then merges neighbours while time
/// remains; `bound()` is valid at any time.
class WindowBound {
 public:
  /// For the acyclic `program`, with `least` the least noise any placement
  /// gives each value (indexed by vertex; `noise_lower_bounds`).
  WindowBound(const CompactNoisyProgram& program, std::vector<std::uint64_t> least, const NoiseParameters& parameters,
              const WindowOptions& options)
      : p_(program), least_(std::move(least)), parameters_(parameters), options_(options), order_(window_order(program)) {
    position_.assign(p_.size(), 0);
    for (std::uint32_t k = 0; k < order_.size(); ++k) position_[order_[k]] = k;
    if (order_.empty()) return;
    const std::vector<std::uint32_t> starts = detail::window_starts(p_, order_, options_.ops, 0);
    for (std::size_t w = 0; w < starts.size(); ++w) {
      const std::uint32_t end = w + 1 < starts.size() ? starts[w + 1] : static_cast<std::uint32_t>(order_.size());
      pieces_.push_back(Piece{starts[w], end, 1, 0.0, false, false});
    }
  }

  /// Solves the pieces not solved yet (no merging) until `options.deadline`
  /// or `until`; true when all of them are solved.
  bool solve_pieces(const WindowSolver& solve, std::chrono::steady_clock::time_point until) {
    const auto stop = std::min(until, options_.deadline);
    for (Piece& piece : pieces_) {
      if (piece.solved) continue;
      if (std::chrono::steady_clock::now() >= stop) return false;
      solve_piece(piece, solve, stop);
    }
    return true;
  }

  /// Solves the pieces of the first `decompositions` shifted decompositions
  /// (by 1/2, 1/4, 3/4, 1/8, 3/8, ... of a piece: boundaries inside the other
  /// decompositions' pieces) for their cuts only (`cuts()`), until
  /// `options.deadline` or `until`. Returns true when all of them are solved.
  bool collect_shifted(const WindowSolver& solve, std::chrono::steady_clock::time_point until, std::size_t decompositions = 1) {
    const auto stop = std::min(until, options_.deadline);
    while (shifted_.size() < decompositions) {
      // The k-th shift (k = 1, 2, ...): (2j + 1) / 2^(m + 1) of a piece, for k = 2^m + j.
      const std::size_t k = shifted_.size() + 1;
      std::size_t m = 0;
      while ((std::size_t{2} << m) <= k) ++m;
      const std::size_t j = k - (std::size_t{1} << m);
      const std::size_t offset = std::max<std::size_t>(options_.ops * (2 * j + 1) / (std::size_t{2} << m), 1);
      const std::vector<std::uint32_t> starts = detail::window_starts(p_, order_, options_.ops, offset);
      std::vector<Piece> pieces;
      for (std::size_t w = 1; w < starts.size(); ++w) {
        const std::uint32_t end = w + 1 < starts.size() ? starts[w + 1] : static_cast<std::uint32_t>(order_.size());
        pieces.push_back(Piece{starts[w], end, 1, 0.0, false, false});
      }
      shifted_.push_back(std::move(pieces));
    }
    for (std::size_t d = 0; d < decompositions; ++d)
      for (Piece& piece : shifted_[d]) {
        if (piece.solved) continue;
        if (std::chrono::steady_clock::now() >= stop) return false;
        solve_piece(piece, solve, stop);
      }
    return true;
  }

  /// The cover cuts found by the pieces' solves (both decompositions,
  /// merged pieces too), over the whole program's vertices: a piece's cut
  /// whose ops are all the piece's own. Each holds for every legal placement
  /// of the program (a legal placement restricted to a piece is legal for
  /// the piece's program, see the file comment), so the minimum hitting set
  /// of all of them is a lower bound of the program's optimum that couples
  /// neighbouring pieces.
  [[nodiscard]] const std::vector<std::vector<std::uint32_t>>& cuts() const noexcept { return pool_; }

  /// The pieces' placements side by side (per vertex of the program; empty
  /// before any piece is solved; the last piece solved over a vertex wins):
  /// each piece's own is legal for its program, so the whole is legal but
  /// near the boundaries, a start for `repair_placement`.
  [[nodiscard]] const std::vector<bool>& placement() const noexcept { return placement_; }

  /// Solves the pieces not solved yet, then merges neighbouring pieces (the
  /// pair of the fewest base windows first) and solves the merged ones until
  /// `options.deadline` or `until`, whichever comes first. Returns true if
  /// the bound went up.
  bool improve(const WindowSolver& solve, std::chrono::steady_clock::time_point until) {
    const auto stop = std::min(until, options_.deadline);
    const double before = bound();
    if (!solve_pieces(solve, stop)) return bound() > before;
    // Merge the neighbouring pair of the fewest windows (the leftmost of those), one at a time.
    while (pieces_.size() > 1 && std::chrono::steady_clock::now() < stop) {
      std::size_t at = 0;
      for (std::size_t i = 1; i + 1 < pieces_.size(); ++i)
        if (pieces_[i].windows + pieces_[i + 1].windows < pieces_[at].windows + pieces_[at + 1].windows) at = i;
      Piece both{pieces_[at].first, pieces_[at + 1].last, pieces_[at].windows + pieces_[at + 1].windows,
                 pieces_[at].bound + pieces_[at + 1].bound, false, false};
      solve_piece(both, solve, stop);
      if (!both.solved) break;
      ++merges_;
      pieces_[at] = both;
      pieces_.erase(pieces_.begin() + static_cast<std::ptrdiff_t>(at) + 1);
    }
    return bound() > before;
  }

  /// The certified lower bound: the sum of the pieces' bounds.
  [[nodiscard]] double bound() const noexcept {
    double sum = 0.0;
    for (const Piece& piece : pieces_) sum += piece.bound;
    return sum;
  }
  /// Pieces of the present decomposition.
  [[nodiscard]] std::size_t pieces() const noexcept { return pieces_.size(); }
  /// Pieces solved to optimality.
  [[nodiscard]] std::size_t proven_pieces() const noexcept {
    return static_cast<std::size_t>(std::count_if(pieces_.begin(), pieces_.end(), [](const Piece& p) { return p.optimal; }));
  }
  /// Merges so far.
  [[nodiscard]] std::size_t merges() const noexcept { return merges_; }

  /// The program of the piece of positions [first, last) of the order (see
  /// the file comment; its optimum is at most what any legal placement
  /// spends on the piece's ops); nullopt when a value from outside has a
  /// least noise below both `initial` and `input` (no op of the model has
  /// that noise, and a noisier stand-in would not be a relaxation).
  /// `stands_for` (optional): per vertex of the piece's program, the vertex
  /// of the whole program it copies (a piece op), or `npos` (a stand-in).
  [[nodiscard]] std::optional<CompactNoisyProgram> piece_program(std::uint32_t first, std::uint32_t last,
                                                                 std::vector<std::uint32_t>* stands_for = nullptr) const {
    bool representable = true;
    detail::WindowProgramBuilder b(parameters_);
    constexpr std::uint32_t npos = detail::WindowProgramBuilder::npos;
    std::vector<std::uint32_t> id(p_.size(), npos);       // vertex of the piece -> its op
    std::vector<std::uint32_t> outside(p_.size(), npos);  // vertex outside -> its value at its least noise
    const auto operand = [&](std::uint32_t o) {
      if (position_[o] >= first && position_[o] < last) return id[o];
      if (outside[o] != npos) return outside[o];
      std::uint32_t v = 0;
      if (!depends_on_operands(p_.kind[o])) v = b.op(p_.kind[o], {}, npos);  // a constant: itself
      else if (least_[o] >= parameters_.initial) v = b.level(least_[o], npos);
      else if (least_[o] >= parameters_.input) v = b.op(NoisyOp::input, {}, npos);  // at most its least noise
      else representable = false;
      return outside[o] = v;
    };
    const auto copy = [&](std::uint32_t v, std::uint32_t stands_for) {
      std::vector<std::uint32_t> ops;
      for (const std::uint32_t o : p_.operands(v)) ops.push_back(operand(o));
      return b.op(p_.kind[v], std::move(ops), stands_for);
    };
    for (std::uint32_t k = first; k < last; ++k) id[order_[k]] = copy(order_[k], order_[k]);
    // The checked readers after the piece of its values, checks only (nobody reads them).
    std::vector<bool> added(p_.size(), false);
    for (std::uint32_t k = first; k < last; ++k)
      for (const std::uint32_t r : p_.users(order_[k])) {
        if (position_[r] < last || added[r] || !is_checked(p_.kind[r])) continue;
        added[r] = true;
        (void)copy(r, npos);
      }
    if (!representable) return std::nullopt;
    if (stands_for != nullptr) *stands_for = b.stands_for();
    return b.take();
  }

 private:
  struct Piece {
    std::uint32_t first, last;  // positions
    std::uint32_t windows;      // base windows merged into it
    double bound;
    bool optimal;
    bool solved;
  };

  void solve_piece(Piece& piece, const WindowSolver& solve, std::chrono::steady_clock::time_point stop) {
    const double seconds = options_.window_seconds * static_cast<double>(piece.windows);
    const auto now = std::chrono::steady_clock::now();
    const auto until = std::min(stop, now + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                std::chrono::duration<double>(seconds)));
    if (until <= now) return;
    std::vector<std::uint32_t> stands_for;
    const std::optional<CompactNoisyProgram> program = piece_program(piece.first, piece.last, &stands_for);
    piece.solved = true;
    if (!program) return;  // no bound from this piece (but that of its halves)
    const WindowSolution s = solve(*program, until, {});
    piece.bound = std::max(piece.bound, s.bound);
    piece.optimal = s.optimal;
    if (s.reduced.size() == stands_for.size()) {
      if (placement_.empty()) placement_.assign(p_.size(), false);
      for (std::uint32_t k = piece.first; k < piece.last; ++k) placement_[order_[k]] = false;
      for (std::size_t v = 0; v < stands_for.size(); ++v)
        if (s.reduced[v] && stands_for[v] != detail::WindowProgramBuilder::npos) placement_[stands_for[v]] = true;
    }
    for (const std::vector<std::uint32_t>& cut : s.cuts) {
      std::vector<std::uint32_t> mapped;
      for (const std::uint32_t v : cut)
        if (v < stands_for.size() && stands_for[v] != detail::WindowProgramBuilder::npos) mapped.push_back(stands_for[v]);
      if (mapped.size() != cut.size() || mapped.empty()) continue;  // a stand-in in the cut: not the program's
      std::sort(mapped.begin(), mapped.end());
      mapped.erase(std::unique(mapped.begin(), mapped.end()), mapped.end());
      if (known_.insert(mapped).second) pool_.push_back(std::move(mapped));
    }
  }

  const CompactNoisyProgram& p_;
  std::vector<std::uint64_t> least_;
  NoiseParameters parameters_;
  WindowOptions options_;
  std::vector<std::uint32_t> order_;
  std::vector<std::uint32_t> position_;
  std::vector<Piece> pieces_;
  std::vector<std::vector<Piece>> shifted_;  // the shifted decompositions (cuts only)
  std::vector<std::vector<std::uint32_t>> pool_;
  std::vector<bool> placement_;
  std::set<std::vector<std::uint32_t>> known_;
  std::size_t merges_ = 0;
};

/// Statistics of `improve_by_windows`.
struct WindowSearchStatistics {
  std::size_t windows = 0;   ///< Window programs solved.
  std::size_t improved = 0;  ///< Windows whose solution was kept.
  std::size_t passes = 0;    ///< Passes over the program.
  std::size_t skipped = 0;   ///< Windows not solved again: the same program and placement as one solved without gain.
  /// Windows whose gain, with their values read after them capped at what the
  /// rest tolerates of each alone, made the whole program illegal (solved again
  /// with those values capped at their present noise).
  std::size_t rejected = 0;
};

/// Large neighbourhood search over windows (see the file comment): a legal
/// placement `reduced` of the acyclic `program` (per vertex) with at most as
/// many reductions, legal (checked by `evaluate_placement`). Stops at
/// `options.deadline`, when `options.stop` says so, or after two passes
/// without improvement.
[[nodiscard]] inline std::vector<bool> improve_by_windows(const CompactNoisyProgram& program, std::vector<bool> reduced,
                                                          const NoiseParameters& parameters, const WindowOptions& options,
                                                          const WindowSolver& solve, WindowSearchStatistics* statistics = nullptr) {
  const std::vector<std::uint32_t> order = window_order(program);
  if (order.empty()) return reduced;
  const std::size_t n = program.size();
  std::vector<std::uint32_t> position(n, 0), last_reader(n, 0);
  for (std::uint32_t k = 0; k < order.size(); ++k) position[order[k]] = k;
  for (std::uint32_t v = 0; v < n; ++v)
    for (const std::uint32_t r : program.users(v))
      if (detail::noisy_reader(program, r)) last_reader[v] = std::max(last_reader[v], position[r]);
  const auto count = [](const std::vector<bool>& mask) { return static_cast<std::size_t>(std::count(mask.begin(), mask.end(), true)); };
  constexpr std::uint32_t npos = detail::WindowProgramBuilder::npos;
  WindowSearchStatistics local;
  WindowSearchStatistics& stats = statistics ? *statistics : local;
  std::size_t idle_passes = 0;
  std::vector<std::uint32_t> id(n, npos), outside(n, npos);
  std::unordered_set<std::uint64_t> tried;  // fingerprints of windows solved without gain
  for (std::size_t pass = 0; idle_passes < 2; ++pass) {
    const std::size_t offset = pass % 2 == 0 ? 0 : std::max<std::size_t>(options.ops / 2, 1);
    const std::vector<std::uint32_t> starts = detail::window_starts(program, order, options.ops, offset);
    bool improved = false;
    for (std::size_t w = 0; w < starts.size(); ++w) {
      const auto now = std::chrono::steady_clock::now();
      if (now >= options.deadline || (options.stop && options.stop(count(reduced)))) return reduced;
      const std::uint32_t first = starts[w];
      const std::uint32_t last = w + 1 < starts.size() ? starts[w + 1] : static_cast<std::uint32_t>(order.size());
      const PlacedNoise noise = evaluate_placement(program, reduced, parameters);
      // The noise each value read after the window may reach (the caps): what
      // the rest of the placement, held, tolerates of it alone (`allowed`), or
      // its present noise (`allowed` empty: the fallback when raising several
      // at once made the whole program illegal).
      const auto attempt = [&](const std::vector<std::uint64_t>& allowed) -> detail::WindowAttempt {
        detail::WindowProgramBuilder b(parameters);
        std::size_t present = 0;
        std::vector<std::uint32_t> touched;
        const auto input = [&](std::uint32_t o) {
          if (outside[o] != npos) return outside[o];
          touched.push_back(o);
          std::uint32_t v = 0;
          if (!depends_on_operands(program.kind[o])) v = b.op(program.kind[o], {}, npos);
          else v = b.level(std::max<std::uint64_t>(noise.value[o], parameters.initial), is_reducible(program.kind[o]) ? o : npos);
          return outside[o] = v;
        };
        for (std::uint32_t k = first; k < last; ++k) {
          const std::uint32_t v = order[k];
          std::vector<std::uint32_t> ops;
          for (const std::uint32_t o : program.operands(v)) ops.push_back(position[o] >= first ? id[o] : input(o));
          id[v] = b.op(program.kind[v], std::move(ops), v);
          touched.push_back(v);
          present += is_reducible(program.kind[v]) && reduced[v] ? 1 : 0;
        }
        for (std::uint32_t k = first; k < last; ++k) {
          const std::uint32_t v = order[k];
          if (last_reader[v] < last || !depends_on_operands(program.kind[v])) continue;
          // (A cap at the maximum or above is left to the value's own check; an
          // unchecked value keeps its present noise as the cap then.)
          std::uint64_t cap = noise.value[v];
          if (!allowed.empty() && (allowed[v] < parameters.maximum || is_checked(program.kind[v]))) cap = std::max(cap, allowed[v]);
          if (cap >= parameters.initial && cap < parameters.maximum) b.cap(id[v], cap, is_reducible(program.kind[v]) ? v : npos);
        }
        const std::vector<std::uint32_t> stands_for = b.stands_for();
        const CompactNoisyProgram sub = b.take();
        // The present placement in the window's program (legal there: every
        // input at its present noise, every cap at least at it).
        std::vector<bool> start(sub.size(), false);
        for (std::uint32_t k = first; k < last; ++k) start[id[order[k]]] = reduced[order[k]] && is_reducible(program.kind[order[k]]);
        for (const std::uint32_t v : touched) id[v] = outside[v] = npos;
        if (present == 0) return detail::WindowAttempt::no_gain;
        // The same window program with the same placement as a window solved
        // before without gain (nothing changed around it since): skipped.
        const std::uint64_t key = detail::window_fingerprint(sub, start);
        if (tried.count(key) != 0) {
          ++stats.skipped;
          return detail::WindowAttempt::no_gain;
        }
        const auto until = std::min(options.deadline, now + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                             std::chrono::duration<double>(options.window_seconds)));
        const WindowSolution s = solve(sub, until, start);
        ++stats.windows;
        if (s.reduced.size() != sub.size() || count(s.reduced) >= present) {
          tried.insert(key);
          return detail::WindowAttempt::no_gain;
        }
        std::vector<bool> candidate = reduced;
        for (std::uint32_t k = first; k < last; ++k) candidate[order[k]] = false;
        for (std::uint32_t v = 0; v < sub.size(); ++v)
          if (s.reduced[v] && is_reducible(sub.kind[v])) {
            if (stands_for[v] == npos) return detail::WindowAttempt::no_gain;
            candidate[stands_for[v]] = true;
          }
        if (count(candidate) >= count(reduced)) return detail::WindowAttempt::no_gain;
        if (!is_legal_placement(program, evaluate_placement(program, candidate, parameters), parameters)) {
          tried.insert(key);
          return detail::WindowAttempt::illegal;
        }
        reduced = std::move(candidate);
        return detail::WindowAttempt::improved;
      };
      detail::WindowAttempt result = attempt(detail::noise_allowances(program, order, last, reduced, noise, parameters));
      if (result == detail::WindowAttempt::illegal) {
        ++stats.rejected;
        result = attempt({});
      }
      if (result == detail::WindowAttempt::improved) {
        ++stats.improved;
        improved = true;
      }
    }
    ++stats.passes;
    idle_passes = improved ? 0 : idle_passes + 1;
  }
  return reduced;
}

}  // namespace kildall::noisy
