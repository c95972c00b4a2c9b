#pragma once
/// \file
/// `apply_patterns_greedily`: rewrites an IR with a pattern set until no
/// pattern applies, no op folds and no op is trivially dead.
///
/// Method (the seed's "First Client: A Greedy Worklist Combiner" and MLIR's
/// `GreedyPatternRewriteDriver`, `applyPatternsAndFoldGreedily`): a run is a
/// sequence of sweeps. A sweep puts every op on a worklist in preorder and
/// pops from the back, so an op's users come before it (the seed's "generally
/// in postorder"; `TraversalOrder::top_down` reverses the seed, MLIR's
/// `useTopDownTraversal`). A popped op is
///   1. erased when trivially dead;
///   2. else folded, when the IR can fold (`FoldableIr`): replaced by existing
///      values and materialized constants, or changed in place;
///   3. else (or after an in-place fold) offered to the `PatternApplicator`,
///      which applies the best pattern that matches.
/// Every change goes through a `Rewriter` whose listener is the driver: a
/// created op is queued; before a value's uses are replaced its users are
/// queued; before an op is erased or changed in place, the defining op of
/// each operand it is the last user of is queued (it may be dead now), and
/// the op leaves the worklist (MLIR's heuristic: a value with at most one use
/// is queued, as zero-use ops may be erased and one-use values often enable
/// more rewrites). A sweep that changed something is followed by another;
/// the run has converged when a sweep changes nothing.
///
/// Two limits make every run end: `max_iterations` sweeps (MLIR's default
/// 10) and `max_rewrites` pattern applications and folds over the whole run
/// (MLIR's per-sweep `maxNumRewrites` is unlimited by default, so two
/// patterns that undo each other never end a sweep there; here the default
/// is 64 per op of the input, plus 1024). A run stopped by a limit reports
/// which patterns were still firing: those applied in the last sweep, or
/// among the last 64 changes when the rewrite limit stopped it.
///
/// After each sweep, an IR that models `RegionSimplifyingIr` simplifies its
/// control flow (MLIR's `simplifyRegions`, on by default as there:
/// `GreedyConfig::simplify_regions`); a change there also asks for another
/// sweep.
///
/// Not in this driver: MLIR's uniquing and hoisting of constants (an
/// adapter's `materialize_constant` may reuse constants it made) and
/// re-queuing the ancestors of a changed op (the adapter's ops are walked,
/// not nested).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include <kildall/rewrite/applicator.hpp>
#include <kildall/rewrite/concepts.hpp>
#include <kildall/rewrite/pattern_set.hpp>
#include <kildall/rewrite/rewriter.hpp>

namespace kildall::rewrite {

/// The order in which a sweep visits the ops.
enum class TraversalOrder : std::uint8_t {
  bottom_up,  ///< Seeded in preorder, popped from the back: users before their operands' definers (the seed's).
  top_down,   ///< Program order (MLIR's `useTopDownTraversal`).
};

/// Limits and choices of one greedy run.
struct GreedyConfig {
  /// The most sweeps over the IR (at least 1; MLIR's default is 10).
  std::size_t max_iterations = 10;
  /// The most pattern applications plus folds over the whole run (at least
  /// 1); nothing means 64 per op of the input plus 1024.
  std::optional<std::uint64_t> max_rewrites = std::nullopt;
  /// Fold ops (when the IR models `FoldableIr`) before trying patterns.
  bool fold = true;
  /// The visiting order of a sweep.
  TraversalOrder order = TraversalOrder::bottom_up;
  /// Simplify the control flow after each sweep, when the IR models `RegionSimplifyingIr`
  /// (MLIR's `enableRegionSimplification`).
  bool simplify_regions = true;
};

/// How a greedy run ended.
enum class RewriteStatus : std::uint8_t {
  converged,        ///< A sweep changed nothing: no pattern applies, nothing folds, nothing is dead.
  iteration_limit,  ///< `max_iterations` sweeps all changed something.
  rewrite_limit,    ///< `max_rewrites` pattern applications and folds were made.
};

/// How often one pattern applied.
struct PatternApplications {
  std::string name;         ///< The pattern's name.
  std::uint64_t count = 0;  ///< The times it applied.
};

/// What a greedy run did.
struct RewriteStatistics {
  std::vector<PatternApplications> applications;  ///< Per pattern, in pattern-set order.
  std::uint64_t folds = 0;        ///< Ops folded (replaced, or changed in place).
  std::uint64_t dead_erased = 0;  ///< Trivially dead ops the driver erased.
  std::uint64_t erased = 0;       ///< Every op erased: dead, folded away, or by a pattern.
  std::uint64_t created = 0;      ///< Ops created: by patterns and by materializing constants.
  std::uint64_t iterations = 0;   ///< Sweeps made.
  std::uint64_t region_simplifications = 0;  ///< Changes made by `simplify_regions` between sweeps.
  std::uint64_t visits = 0;       ///< Ops taken from the worklist.

  /// The times the pattern named `name` applied (0 for an unknown name).
  [[nodiscard]] std::uint64_t applications_of(std::string_view name) const {
    for (const PatternApplications& a : applications)
      if (a.name == name) return a.count;
    return 0;
  }
  /// Pattern applications in all.
  [[nodiscard]] std::uint64_t rewrites() const {
    std::uint64_t total = 0;
    for (const PatternApplications& a : applications) total += a.count;
    return total;
  }
  /// Whether the run changed the IR: a fold, an erasure, a created op, a pattern applied or a
  /// region simplification.
  [[nodiscard]] bool changed() const {
    return folds + erased + created + region_simplifications + rewrites() > 0;
  }
};

/// The outcome of a greedy run.
struct RewriteResult {
  RewriteStatus status = RewriteStatus::converged;  ///< How it ended.
  /// When a limit stopped the run: the patterns still applying (in pattern-set order).
  std::vector<std::string> still_firing;
  /// When a limit stopped the run: whether folding was still changing ops.
  bool folding_still_firing = false;
  RewriteStatistics statistics;  ///< What was done.

  /// True when the run reached a fixpoint.
  [[nodiscard]] bool converged() const { return status == RewriteStatus::converged; }
  /// One line saying how the run ended, naming what still fired if it did not converge.
  [[nodiscard]] std::string message() const {
    if (converged()) {
      return "converged after " + std::to_string(statistics.iterations) + " sweep(s)";
    }
    std::string text = status == RewriteStatus::iteration_limit
                           ? "did not converge within " + std::to_string(statistics.iterations) + " sweep(s)"
                           : "did not converge: stopped at the rewrite limit";
    text += "; still firing:";
    for (const std::string& name : still_firing) text += " " + name;
    if (folding_still_firing) text += " (folding)";
    if (still_firing.empty() && !folding_still_firing) text += " (only dead-op erasure or region simplification)";
    return text;
  }
};

namespace detail {

/// The driver's worklist: a stack of ops, each at most once, with O(1)
/// membership and removal (a removed op leaves a hole that pop skips). Ops are
/// found by their `op_index` when the IR has one, else by hashing.
template <WorklistIr Ir>
class Worklist {
 public:
  /// An empty worklist of ops of `ir` (whose `op_index` finds them, when it has one).
  explicit Worklist(const Ir& ir) : ir_(&ir) {}

  /// Pushes `op` unless it is already on the list.
  void push(const op_t<Ir>& op) {
    if (position(op) != none) return;
    set_position(op, items_.size());
    items_.emplace_back(op);
  }
  /// Takes the op at the back, skipping holes; nothing when empty.
  std::optional<op_t<Ir>> pop() {
    while (!items_.empty()) {
      std::optional<op_t<Ir>> op = std::move(items_.back());
      items_.pop_back();
      if (op.has_value()) {
        set_position(*op, none);
        return op;
      }
    }
    return std::nullopt;
  }
  /// Removes `op` if it is on the list.
  void remove(const op_t<Ir>& op) {
    const std::size_t at = position(op);
    if (at == none) return;
    items_[at].reset();
    set_position(op, none);
  }
  /// Reverses the order in which the ops will be popped.
  void reverse() {
    std::reverse(items_.begin(), items_.end());
    for (std::size_t i = 0; i < items_.size(); ++i)
      if (items_[i].has_value()) set_position(*items_[i], i);
  }
  /// Empties the list.
  void clear() {
    for (const auto& op : items_)
      if (op.has_value()) set_position(*op, none);
    items_.clear();
  }
  /// The number of entries, holes included.
  [[nodiscard]] std::size_t size() const { return items_.size(); }

 private:
  static constexpr std::size_t none = std::numeric_limits<std::size_t>::max();

  [[nodiscard]] std::size_t position(const op_t<Ir>& op) const {
    if constexpr (IndexedOps<Ir>) {
      const std::size_t i = static_cast<std::size_t>(ir_->op_index(op));
      return i < by_index_.size() ? by_index_[i] : none;
    } else {
      const auto it = by_hash_.find(op);
      return it == by_hash_.end() ? none : it->second;
    }
  }
  void set_position(const op_t<Ir>& op, std::size_t at) {
    if constexpr (IndexedOps<Ir>) {
      const std::size_t i = static_cast<std::size_t>(ir_->op_index(op));
      if (i >= by_index_.size()) {
        if (at == none) return;
        by_index_.resize(std::max(i + 1, by_index_.size() * 2), none);
      }
      by_index_[i] = at;
    } else {
      if (at == none) by_hash_.erase(op);
      else by_hash_[op] = at;
    }
  }

  const Ir* ir_;
  std::vector<std::optional<op_t<Ir>>> items_;
  std::vector<std::size_t> by_index_;  // IndexedOps: position by op index
  // Otherwise: position by op handle.
  std::conditional_t<IndexedOps<Ir>, char, std::unordered_map<op_t<Ir>, std::size_t>> by_hash_{};
};

/// The constant type of a foldable IR; a placeholder for another.
template <class Ir>
struct ConstantOf {
  using type = char;  ///< No constants.
};
/// The constant type of a foldable IR.
template <FoldableIr Ir>
struct ConstantOf<Ir> {
  using type = constant_t<Ir>;  ///< The IR's constants.
};

/// One greedy run: the worklist loop, and the listener of its rewriter.
template <WorklistIr Ir>
class GreedyDriver final : public RewriteListener<Ir> {
 public:
  /// A run over `ir` with `applicator`'s patterns, as `config` says.
  GreedyDriver(Ir& ir, const PatternApplicator<Ir>& applicator, const GreedyConfig& config)
      : ir_(ir), applicator_(applicator), config_(config), rewriter_(ir, this), worklist_(ir) {}

  /// Runs the sweeps to a fixpoint or a limit (once per driver).
  RewriteResult run() {
    if (config_.max_iterations == 0) {
      throw std::invalid_argument("kildall::rewrite::apply_patterns_greedily: max_iterations must be at least 1");
    }
    if (config_.max_rewrites == std::uint64_t{0}) {
      throw std::invalid_argument("kildall::rewrite::apply_patterns_greedily: max_rewrites must be at least 1");
    }
    const PatternSet<Ir>& patterns = applicator_.patterns();
    RewriteStatistics& stats = result_.statistics;
    for (std::size_t i = 0; i < patterns.size(); ++i)
      stats.applications.push_back({std::string(patterns[i].name()), 0});
    last_sweep_.assign(patterns.size(), 0);
    last_change_.assign(patterns.size(), 0);

    bool changed = true;
    bool hit_rewrite_limit = false;
    while (changed && !hit_rewrite_limit && stats.iterations < config_.max_iterations) {
      ++stats.iterations;
      seed();
      if (stats.iterations == 1) {
        limit_ = config_.max_rewrites.value_or(64 * static_cast<std::uint64_t>(worklist_.size()) + 1024);
      }
      changed = false;
      while (std::optional<op_t<Ir>> op = worklist_.pop()) {
        if (changes_ >= limit_) {
          hit_rewrite_limit = true;
          break;
        }
        ++stats.visits;
        if (visit(*op)) changed = true;
      }
      if constexpr (RegionSimplifyingIr<Ir>) {
        if (config_.simplify_regions && !hit_rewrite_limit) {
          if (const std::uint64_t n = ir_.simplify_regions()) {
            stats.region_simplifications += n;
            changed = true;
          }
        }
      }
    }
    if (hit_rewrite_limit) {
      result_.status = RewriteStatus::rewrite_limit;
      report_firing([this](std::size_t i) { return last_change_[i] != 0 && last_change_[i] + window > changes_; },
                    last_fold_change_ != 0 && last_fold_change_ + window > changes_);
    } else if (changed) {
      result_.status = RewriteStatus::iteration_limit;
      const std::uint64_t sweep = stats.iterations;
      report_firing([this, sweep](std::size_t i) { return last_sweep_[i] == sweep; }, last_fold_sweep_ == sweep);
    }
    return std::move(result_);
  }

  /// A created op is queued.
  void inserted(const op_t<Ir>& op) override {
    ++result_.statistics.created;
    worklist_.push(op);
  }
  /// Before an in-place change: the definers of the operands `op` is the last user of are queued.
  void modifying(const op_t<Ir>& op) override { queue_last_use_definers(op); }
  /// After an in-place change: the op is queued again.
  void modified(const op_t<Ir>& op) override { worklist_.push(op); }
  /// Before a value's uses are replaced: its users and its definer are queued.
  void replacing_uses(const value_t<Ir>& value) override {
    for (const auto& user : ir_.users(value)) worklist_.push(user);
    if (std::optional<op_t<Ir>> definer = ir_.defining_op(value)) worklist_.push(*definer);
  }
  /// Before an erasure: the definers of the operands `op` is the last user of are queued; `op` leaves the list.
  void erasing(const op_t<Ir>& op) override {
    ++result_.statistics.erased;
    queue_last_use_definers(op);
    worklist_.remove(op);
  }

 private:
  // Recent changes that count as "still firing" when the rewrite limit stops a run.
  static constexpr std::uint64_t window = 64;

  void seed() {
    worklist_.clear();
    ir_.for_each_op([this](const op_t<Ir>& op) { worklist_.push(op); });
    if (config_.order == TraversalOrder::top_down) worklist_.reverse();
  }

  // Erases, folds or rewrites `op`; true if the IR changed.
  bool visit(const op_t<Ir>& op) {
    if (ir_.is_trivially_dead(op)) {
      ++result_.statistics.dead_erased;
      erasing(op);
      ir_.erase(op);
      return true;
    }
    bool folded_in_place = false;
    if constexpr (FoldableIr<Ir>) {
      if (config_.fold) {
        const FoldOutcome outcome = fold(op);
        if (outcome != FoldOutcome::none) {
          ++result_.statistics.folds;
          last_fold_change_ = ++changes_;
          last_fold_sweep_ = result_.statistics.iterations;
          if (outcome == FoldOutcome::folded) return true;
          folded_in_place = true;
        }
      }
    }
    if (const std::optional<std::size_t> applied = applicator_.match_and_rewrite(op, rewriter_)) {
      ++result_.statistics.applications[*applied].count;
      last_change_[*applied] = ++changes_;
      last_sweep_[*applied] = result_.statistics.iterations;
      return true;
    }
    return folded_in_place;
  }

  // Folds `op` (MLIR's `OperationFolder::tryToFold`): replaces it by the
  // values and materialized constants its folder gives, or leaves it changed
  // in place. A constant that cannot be materialized cancels the fold.
  FoldOutcome fold(const op_t<Ir>& op)
    requires FoldableIr<Ir>
  {
    folded_.clear();
    const FoldOutcome outcome = ir_.fold(op, folded_);
    if (outcome != FoldOutcome::folded) return outcome;
    std::size_t results = 0;
    for (const auto& result : ir_.results(op)) {
      (void)result;
      ++results;
    }
    if (results != folded_.size()) {
      throw std::logic_error("kildall::rewrite: a fold gave " + std::to_string(folded_.size()) +
                             " results for an op of " + std::to_string(results));
    }
    replacements_.clear();
    made_.clear();
    std::size_t i = 0;
    for (const auto& result : ir_.results(op)) {
      const auto& f = folded_[i++];
      if (f.is_value()) {
        replacements_.push_back(std::get<0>(f.folded));
        continue;
      }
      std::optional<value_t<Ir>> constant = ir_.materialize_constant(std::get<1>(f.folded), result, op);
      if (!constant.has_value()) {
        for (const auto& made : made_) ir_.erase(made);  // not announced yet: unknown to the worklist
        return FoldOutcome::none;
      }
      std::optional<op_t<Ir>> definer = ir_.defining_op(*constant);
      if (!definer.has_value()) {
        throw std::logic_error("kildall::rewrite: materialize_constant returned a value no op defines");
      }
      made_.push_back(*definer);
      replacements_.push_back(*constant);
    }
    for (const auto& made : made_) rewriter_.inserted(made);
    rewriter_.replace_op(op, replacements_);
    return FoldOutcome::folded;
  }

  // Queues the defining op of each operand of `op` that has at most one use (by `op`).
  void queue_last_use_definers(const op_t<Ir>& op) {
    for (const auto& operand : ir_.operands(op)) {
      std::size_t uses = 0;
      for (const auto& user : ir_.users(operand)) {
        (void)user;
        if (++uses > 1) break;
      }
      if (uses > 1) continue;
      if (std::optional<op_t<Ir>> definer = ir_.defining_op(operand)) worklist_.push(*definer);
    }
  }

  template <class Firing>
  void report_firing(Firing firing, bool folding) {
    for (std::size_t i = 0; i < last_change_.size(); ++i)
      if (firing(i)) result_.still_firing.push_back(result_.statistics.applications[i].name);
    result_.folding_still_firing = folding;
  }

  Ir& ir_;
  const PatternApplicator<Ir>& applicator_;
  GreedyConfig config_;
  Rewriter<Ir> rewriter_;
  Worklist<Ir> worklist_;
  RewriteResult result_;
  std::uint64_t changes_ = 0;  // pattern applications and folds so far
  std::uint64_t limit_ = std::numeric_limits<std::uint64_t>::max();
  std::vector<std::uint64_t> last_sweep_;   // per pattern: the last sweep it applied in (0: never)
  std::vector<std::uint64_t> last_change_;  // per pattern: the number of its last application among the changes
  std::uint64_t last_fold_sweep_ = 0;
  std::uint64_t last_fold_change_ = 0;
  // Scratch of `fold`.
  std::vector<FoldedResult<value_t<Ir>, typename detail::ConstantOf<Ir>::type>> folded_;
  std::vector<value_t<Ir>> replacements_;
  std::vector<op_t<Ir>> made_;
};

}  // namespace detail

/// Applies `applicator`'s patterns (and folding, when `Ir` models
/// `FoldableIr` and `config.fold`) to `ir` greedily, to a fixpoint or a limit.
/// Throws `std::invalid_argument` for a limit of 0; exceptions of
/// patterns and of the adapter pass through (the IR is then as the last
/// change left it).
template <WorklistIr Ir>
[[nodiscard]] RewriteResult apply_patterns_greedily(Ir& ir, const PatternApplicator<Ir>& applicator,
                                                    const GreedyConfig& config = {}) {
  return detail::GreedyDriver<Ir>(ir, applicator, config).run();
}

/// Same, with every pattern of `patterns`.
template <WorklistIr Ir>
[[nodiscard]] RewriteResult apply_patterns_greedily(Ir& ir, const PatternSet<Ir>& patterns,
                                                    const GreedyConfig& config = {}) {
  const PatternApplicator<Ir> applicator(patterns);
  return apply_patterns_greedily(ir, applicator, config);
}

}  // namespace kildall::rewrite
