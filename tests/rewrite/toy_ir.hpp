#pragma once
// A toy expression IR for the rewrite tests and benchmark: one function of
// ops `arg`, `constant`, `add`, `mul`, `neg`, `ret` over 64-bit wrap-around
// integers, each op with one result (its value id is its op id) and at most
// two operands, with intrusive use lists (as MLIR keeps them), so that the
// driver's cost is measured and not the adapter's. `toy::Function` models
// `kildall::rewrite::FoldableIr` and `IndexedOps`; `add_toy_patterns` adds
// the identities; `evaluate` is the oracle; `random_function` the workload.

#include <kildall/rewrite/concepts.hpp>
#include <kildall/rewrite/pattern.hpp>
#include <kildall/rewrite/pattern_set.hpp>
#include <kildall/rewrite/rewriter.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <optional>
#include <random>
#include <span>
#include <stdexcept>
#include <vector>

namespace toy {

/// The op kinds.
enum class Kind : std::uint8_t { arg, constant, add, mul, neg, ret };

using OpId = std::uint32_t;   ///< An op; also the id of its one result.
using ValueId = std::uint32_t;  ///< A value: the result of op number ValueId.
inline constexpr std::uint32_t none = 0xFFFFFFFFu;

/// One op: kind, up to two operands, an immediate (constant value, or argument number).
struct Op {
  Kind kind = Kind::constant;
  std::uint8_t operand_count = 0;
  bool erased = false;
  std::array<ValueId, 2> operands{none, none};
  std::uint64_t imm = 0;
};

/// A function: ops in creation order; `ret` ops are its outputs, in order.
class Function {
 public:
  using op_type = OpId;
  using value_type = ValueId;
  using kind_type = Kind;
  using constant_type = std::uint64_t;

  /// The users of a value, walking its use list.
  class Users {
   public:
    class iterator {
     public:
      using iterator_concept = std::forward_iterator_tag;
      using iterator_category = std::forward_iterator_tag;
      using value_type = OpId;
      using difference_type = std::ptrdiff_t;
      iterator() = default;
      iterator(const Function* fn, std::uint32_t use) : fn_(fn), use_(use) {}
      OpId operator*() const { return use_ / 2; }
      iterator& operator++() {
        use_ = fn_->next_use_[use_];
        return *this;
      }
      iterator operator++(int) {
        iterator copy = *this;
        ++*this;
        return copy;
      }
      friend bool operator==(const iterator& a, const iterator& b) { return a.use_ == b.use_; }

     private:
      const Function* fn_ = nullptr;
      std::uint32_t use_ = none;
    };
    Users(const Function* fn, std::uint32_t first) : fn_(fn), first_(first) {}
    iterator begin() const { return {fn_, first_}; }
    iterator end() const { return {fn_, none}; }

   private:
    const Function* fn_;
    std::uint32_t first_;
  };

  /// Creates an op (appended; order does not matter to the toy's meaning).
  OpId create(Kind kind, std::initializer_list<ValueId> operands = {}, std::uint64_t imm = 0) {
    if (operands.size() > 2) throw std::invalid_argument("toy: at most two operands");
    const auto id = static_cast<OpId>(ops_.size());
    Op op;
    op.kind = kind;
    op.imm = imm;
    op.operand_count = static_cast<std::uint8_t>(operands.size());
    ops_.push_back(op);
    first_use_.push_back(none);
    next_use_.insert(next_use_.end(), {none, none});
    prev_use_.insert(prev_use_.end(), {none, none});
    std::uint32_t slot = 0;
    for (const ValueId v : operands) {
      if (v >= id || ops_[v].erased) throw std::invalid_argument("toy: operand is not a live value");
      ops_[id].operands[slot] = v;
      link(id * 2 + slot, v);
      ++slot;
    }
    return id;
  }

  /// Makes room for `more` ops, so that creating them does not reallocate (the benchmark's inputs).
  void reserve(std::size_t more) {
    ops_.reserve(ops_.size() + more);
    first_use_.reserve(first_use_.size() + more);
    next_use_.reserve(next_use_.size() + 2 * more);
    prev_use_.reserve(prev_use_.size() + 2 * more);
  }
  [[nodiscard]] const Op& op(OpId id) const { return ops_[id]; }
  [[nodiscard]] std::size_t op_count() const { return ops_.size(); }  // including erased
  [[nodiscard]] std::size_t live_op_count() const {
    std::size_t n = 0;
    for (const Op& o : ops_) n += o.erased ? 0 : 1;
    return n;
  }
  [[nodiscard]] bool is_constant(ValueId v, std::uint64_t c) const {
    return ops_[v].kind == Kind::constant && ops_[v].imm == c;
  }
  /// Swaps the two operands of `id` (for in-place rewrites).
  void swap_operands(OpId id) {
    Op& o = ops_[id];
    const ValueId a = o.operands[0], b = o.operands[1];
    unlink(id * 2);
    unlink(id * 2 + 1);
    o.operands = {b, a};
    link(id * 2, b);
    link(id * 2 + 1, a);
  }

  // --- kildall::rewrite::RewritableIr ---
  [[nodiscard]] Kind kind(OpId id) const { return ops_[id].kind; }
  [[nodiscard]] std::span<const ValueId> operands(OpId id) const {
    return {ops_[id].operands.data(), ops_[id].operand_count};
  }
  [[nodiscard]] std::array<ValueId, 1> results(OpId id) const { return {id}; }
  [[nodiscard]] std::optional<OpId> defining_op(ValueId v) const { return v; }
  [[nodiscard]] Users users(ValueId v) const { return {this, first_use_[v]}; }
  [[nodiscard]] bool is_trivially_dead(OpId id) const {
    return ops_[id].kind != Kind::ret && first_use_[id] == none;
  }
  template <class F>
  void for_each_op(F&& f) const {
    for (OpId id = 0; id < ops_.size(); ++id)
      if (!ops_[id].erased) f(id);
  }
  void replace_all_uses(ValueId from, ValueId to) {
    while (first_use_[from] != none) {
      const std::uint32_t use = first_use_[from];
      unlink(use);
      ops_[use / 2].operands[use % 2] = to;
      link(use, to);
    }
  }
  void erase(OpId id) {
    if (first_use_[id] != none) throw std::logic_error("toy: erasing an op whose result is used");
    Op& o = ops_[id];
    for (std::uint32_t slot = 0; slot < o.operand_count; ++slot) unlink(id * 2 + slot);
    o.erased = true;
  }
  [[nodiscard]] std::size_t op_index(OpId id) const { return id; }

  // --- kildall::rewrite::FoldableIr: constant folding of add, mul, neg ---
  kildall::rewrite::FoldOutcome fold(OpId id,
                                     std::vector<kildall::rewrite::FoldedResult<ValueId, std::uint64_t>>& results) {
    const Op& o = ops_[id];
    if (o.kind != Kind::add && o.kind != Kind::mul && o.kind != Kind::neg) return kildall::rewrite::FoldOutcome::none;
    for (const ValueId v : operands(id))
      if (ops_[v].kind != Kind::constant) return kildall::rewrite::FoldOutcome::none;
    const std::uint64_t a = ops_[o.operands[0]].imm;
    const std::uint64_t b = o.operand_count > 1 ? ops_[o.operands[1]].imm : 0;
    const std::uint64_t value = o.kind == Kind::add ? a + b : o.kind == Kind::mul ? a * b : 0 - a;
    results.push_back(kildall::rewrite::FoldedResult<ValueId, std::uint64_t>::constant(value));
    return kildall::rewrite::FoldOutcome::folded;
  }
  std::optional<ValueId> materialize_constant(std::uint64_t c, ValueId /*like*/, OpId /*before*/) {
    return create(Kind::constant, {}, c);
  }

 private:
  void link(std::uint32_t use, ValueId v) {
    prev_use_[use] = none;
    next_use_[use] = first_use_[v];
    if (first_use_[v] != none) prev_use_[first_use_[v]] = use;
    first_use_[v] = use;
  }
  void unlink(std::uint32_t use) {
    const ValueId v = ops_[use / 2].operands[use % 2];
    if (prev_use_[use] != none) next_use_[prev_use_[use]] = next_use_[use];
    else first_use_[v] = next_use_[use];
    if (next_use_[use] != none) prev_use_[next_use_[use]] = prev_use_[use];
    prev_use_[use] = next_use_[use] = none;
  }

  std::vector<Op> ops_;
  std::vector<std::uint32_t> first_use_;  // by value
  std::vector<std::uint32_t> next_use_;   // by use (op * 2 + operand slot)
  std::vector<std::uint32_t> prev_use_;
};

using Rewriter = kildall::rewrite::Rewriter<Function>;
using PatternSet = kildall::rewrite::PatternSet<Function>;

/// The toy's canonicalization patterns: x+0 -> x, x*1 -> x, x*0 -> 0 (a new
/// constant), neg(neg x) -> x, and constants to the right of add and mul (in place).
inline void add_toy_patterns(PatternSet& set) {
  using kildall::rewrite::Benefit;
  // Which operand of a commutative op is the constant `c`, if one is.
  const auto side_with = [](const Function& fn, OpId op, std::uint64_t c) -> std::optional<std::uint32_t> {
    for (std::uint32_t i = 0; i < 2; ++i)
      if (fn.is_constant(fn.op(op).operands[i], c)) return i;
    return std::nullopt;
  };
  set.add("add_zero", Kind::add, Benefit{2}, [side_with](OpId op, Rewriter& rw) {
    const auto zero = side_with(rw.ir(), op, 0);
    if (!zero) return false;
    rw.replace_op(op, rw.ir().op(op).operands[1 - *zero]);
    return true;
  });
  set.add("mul_one", Kind::mul, Benefit{2}, [side_with](OpId op, Rewriter& rw) {
    const auto one = side_with(rw.ir(), op, 1);
    if (!one) return false;
    rw.replace_op(op, rw.ir().op(op).operands[1 - *one]);
    return true;
  });
  set.add("mul_zero", Kind::mul, Benefit{2}, [side_with](OpId op, Rewriter& rw) {
    if (!side_with(rw.ir(), op, 0)) return false;
    const OpId zero = rw.create(Kind::constant, std::initializer_list<ValueId>{}, std::uint64_t{0});
    rw.replace_op(op, zero);
    return true;
  });
  set.add("neg_neg", Kind::neg, Benefit{2}, [](OpId op, Rewriter& rw) {
    const ValueId inner = rw.ir().op(op).operands[0];
    if (rw.ir().kind(inner) != Kind::neg) return false;
    rw.replace_op(op, rw.ir().op(inner).operands[0]);
    return true;
  });
  set.add("constant_right", kildall::rewrite::any_kind, Benefit{1}, [](OpId op, Rewriter& rw) {
    const Function& fn = rw.ir();
    const Op& o = fn.op(op);
    if ((o.kind != Kind::add && o.kind != Kind::mul) || fn.kind(o.operands[0]) != Kind::constant ||
        fn.kind(o.operands[1]) == Kind::constant)
      return false;
    rw.modify_in_place(op, [&rw, op] { rw.ir().swap_operands(op); });
    return true;
  });
}

/// The outputs (values of the `ret` ops' operands, in op order) of `fn` on `inputs` (by argument number).
[[nodiscard]] inline std::vector<std::uint64_t> evaluate(const Function& fn, const std::vector<std::uint64_t>& inputs) {
  std::vector<std::uint64_t> value(fn.op_count(), 0);
  std::vector<bool> done(fn.op_count(), false);
  std::vector<OpId> stack;
  std::vector<std::uint64_t> outputs;
  const auto compute = [&](OpId root) {
    stack.push_back(root);
    while (!stack.empty()) {
      const OpId id = stack.back();
      if (done[id]) {
        stack.pop_back();
        continue;
      }
      bool ready = true;
      for (const ValueId v : fn.operands(id))
        if (!done[v]) {
          stack.push_back(v);
          ready = false;
        }
      if (!ready) continue;
      stack.pop_back();
      const Op& o = fn.op(id);
      const std::uint64_t a = o.operand_count > 0 ? value[o.operands[0]] : 0;
      const std::uint64_t b = o.operand_count > 1 ? value[o.operands[1]] : 0;
      switch (o.kind) {
        case Kind::arg: value[id] = inputs.at(o.imm); break;
        case Kind::constant: value[id] = o.imm; break;
        case Kind::add: value[id] = a + b; break;
        case Kind::mul: value[id] = a * b; break;
        case Kind::neg: value[id] = 0 - a; break;
        case Kind::ret: value[id] = a; break;
      }
      done[id] = true;
    }
  };
  for (OpId id = 0; id < fn.op_count(); ++id)
    if (!fn.op(id).erased && fn.op(id).kind == Kind::ret) {
      compute(id);
      outputs.push_back(value[id]);
    }
  return outputs;
}

/// A random function of about `ops` ops over `arguments` arguments, rich in
/// the identities the toy patterns remove (constants 0 and 1, double
/// negations, constant subtrees); `outputs` `ret` ops at the end. Half of the
/// operands are the oldest values not used yet, so that few ops start dead.
template <class Rng>
[[nodiscard]] Function random_function(Rng& rng, std::size_t ops, std::uint32_t arguments = 3, std::size_t outputs = 2) {
  Function fn;
  std::vector<ValueId> values;
  std::vector<ValueId> unused;  // FIFO from `next_unused`
  std::size_t next_unused = 0;
  const auto made = [&](ValueId v) {
    values.push_back(v);
    unused.push_back(v);
  };
  for (std::uint32_t a = 0; a < arguments; ++a) made(fn.create(Kind::arg, {}, a));
  const auto pick = [&] {
    const std::size_t n = values.size();
    switch (std::uniform_int_distribution<int>(0, 3)(rng)) {
      case 0: return values[std::uniform_int_distribution<std::size_t>(0, n - 1)(rng)];
      case 1: {  // a recent value, so that chains form
        const std::size_t back = std::uniform_int_distribution<std::size_t>(0, std::min<std::size_t>(n - 1, 8))(rng);
        return values[n - 1 - back];
      }
      default:
        if (next_unused < unused.size()) return unused[next_unused++];
        return values[n - 1];
    }
  };
  while (fn.op_count() < ops) {
    switch (std::uniform_int_distribution<int>(0, 9)(rng)) {
      case 0:
      case 1: {
        const std::uint64_t constants[] = {0, 1, 2, 0xFFFFFFFFFFFFFFFFull, rng()};
        made(fn.create(Kind::constant, {}, constants[std::uniform_int_distribution<int>(0, 4)(rng)]));
        break;
      }
      case 2:
      case 3:
      case 4: made(fn.create(Kind::add, {pick(), pick()})); break;
      case 5:
      case 6:
      case 7: made(fn.create(Kind::mul, {pick(), pick()})); break;
      default: made(fn.create(Kind::neg, {pick()})); break;
    }
  }
  for (std::size_t r = 0; r < outputs; ++r) fn.create(Kind::ret, {pick()});
  return fn;
}

}  // namespace toy
