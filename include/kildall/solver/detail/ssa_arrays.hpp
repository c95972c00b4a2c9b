#pragma once
/// \file
/// Internal: the compact index arrays the sparse solver derives from an
/// `SsaProgram` shape (each value's block and argument position, its
/// operands, its dependents, the CFG's edges, each block's branch operands,
/// what each in-edge passes to each argument). Derived once per shape by
/// `SsaProgramIndex`, or by a solve that was handed the shape itself.
///
/// A shape that hands out each value's operands as a `std::span` of values that are their own
/// index (as an IR's operand array is; `shares_operand_rows`) is not copied: the solver reads
/// the operands from the shape at each visit, when the transfer reads the op anyway, and
/// derives only what the shape does not hold (blocks, edges, what each edge passes to which
/// argument).

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <type_traits>
#include <vector>

#include <kildall/graph/concepts.hpp>
#include <kildall/graph/index_iterator.hpp>
#include <kildall/graph/ssa_program.hpp>
#include <kildall/solver/detail/csr_graph.hpp>
#include <kildall/solver/detail/iteration_plan.hpp>
#include <kildall/solver/detail/member_rows.hpp>
#include <kildall/solver/detail/sparse_rows.hpp>
#include <kildall/support/large_array_allocator.hpp>

namespace kildall::detail {

/// No extra operands (the callable `SsaArrays::derive` takes from a problem without them).
struct NoExtraOperands {
  template <class V, class Add>
  bool operator()(const V&, Add&&) const noexcept {
    return true;
  }
};

/// What the solves over an `SsaArrays` read beyond the shape's own arrays: the dependents (a
/// worklist), `forwarded_to` (a sweep), or both.
enum class DependentsNeed : std::uint8_t {
  worklist,  ///< A solve that cannot sweep: the dependents only.
  sweep,     ///< A solve that may sweep: `forwarded_to`, and the dependents only when the
             ///< numbering is not forward (the sweep then cannot serve).
  any,       ///< A prepared index, for solves of either kind: both.
};

/// The index arrays of one shape. Values and blocks are numbered by the
/// shape's own indices; edges by source block (each block's out-edges in a
/// row, in the order the CFG gives them); members (a block's arguments, then
/// its op results) by block.
template <SsaProgram Prog>
struct SsaArrays {
  using Value = ssa_value_t<Prog>;
  using Cfg = ssa_cfg_t<Prog>;
  using Block = vertex_t<Cfg>;
  using Edge = edge_t<Cfg>;
  static constexpr std::uint32_t none = no_position;
  /// Whether a value is its own index (no handle table kept).
  static constexpr bool identity_values =
      std::is_integral_v<Value> && !requires(const Prog& s, const Value& v) { s.value_index(v); };
  /// Whether the operands are read from the shape (a `std::span` of values that are their own
  /// index) instead of copied into `member_operands` (see the file comment).
  static constexpr bool shares_operand_rows = identity_values && requires(const Prog& s, const Value& v) {
    { s.operands(v) } -> std::same_as<std::span<const Value>>;
  };

  bool valid = false;  // false: the shape names a value or block outside its own numbering
  std::size_t value_count = 0;
  std::size_t block_count = 0;
  std::vector<Block> roots;                          // the shape's entries, as given
  std::vector<std::optional<Value>> value_handles;  // unless values are their own index
  std::vector<std::optional<Block>> block_handles;  // empty when every block is its own index
  LargeArray<std::uint32_t> block_of;           // by value: block index, or none
  FlagArray is_argument;                   // by value: a block argument (else an op result, or unplaced)
  /// By value: its position among the blocks' members, or none; left empty while
  /// `members_are_values()` (read it through `member_of`).
  LargeArray<std::uint32_t> member_position;
  /// By member position: the shape's operands of each op result (none for an argument); left
  /// empty when the shape's own rows are read (`shares_operand_rows`).
  CsrGraph member_operands;
  /// By value: the extra operands of op results (a problem's `extra_operands`), after the shape's.
  SparseRows extra_operands;
  CsrGraph dependents;                     // by value: values computed from it
  /// By block: its arguments, then its op results (value indices); no list while
  /// `members_are_values()`.
  MemberRows block_members;
  CsrGraph branch_operands;                // by block: what its terminator branches on
  /// By value: the blocks whose terminator branches on it (few values are branch operands).
  SparseRows branch_uses;
  /// By value: the arguments it is forwarded to over some edge, what a sweeping solve follows
  /// instead of `dependents` (derived unless `DependentsNeed::worklist`).
  CsrGraph forwarded_to;
  /// Whether every op result's operands (extra ones included) have lower indices than the
  /// result itself: then a sweep in index order reads every operand's state before its user.
  bool operands_forward = true;
  /// Whether each block's members (arguments, then op results) have increasing indices: then
  /// a block whose first member lies ahead of a sweep lies ahead of it whole (found unless
  /// `DependentsNeed::worklist`).
  bool members_in_order = true;
  /// Whether `dependents` was derived (always, unless `derive` was told it may be skipped).
  bool has_dependents = false;
  FlagArray is_entry;
  std::vector<std::uint32_t> entry_indices;
  LargeArray<Edge> edges;
  LargeArray<std::uint32_t> edge_target, edge_source;         // by edge (numbered by source block)
  /// By block (and one past the last): its first out-edge's number. A block's out-edges are
  /// numbered in a row (`out_edges_of`).
  LargeArray<std::uint32_t> out_begin;
  /// By block (and one past the last): the rank of its first argument among all blocks'
  /// arguments (a block's arguments are its first members).
  LargeArray<std::uint32_t> first_argument;
  /// By argument rank (and one past the last): its first incoming pair (`incoming_of`).
  LargeArray<std::uint32_t> incoming_begin;
  LargeArray<std::uint32_t> incoming_edge, incoming_value;  // what each in-edge passes to the argument
  LargeArray<std::uint32_t> incoming_argument;              // by incoming pair: the argument (value index)

  /// Whether each value's position among the members is its own index: the values are numbered
  /// block by block, each block's arguments then its op results, as an IR numbered in program
  /// order has them. `member_position` and the list of members are then not kept.
  [[nodiscard]] bool members_are_values() const noexcept { return block_members.identity(); }

  /// The position among the blocks' members of placed value `vi`.
  [[nodiscard]] std::uint32_t member_of(std::size_t vi) const {
    return members_are_values() ? static_cast<std::uint32_t>(vi) : member_position[vi];
  }

  /// The value handle with index `vi`.
  [[nodiscard]] Value value_at(std::size_t vi) const {
    if constexpr (identity_values) {
      return static_cast<Value>(vi);
    } else {
      return *value_handles[vi];
    }
  }

  /// The block handle with index `bi`.
  [[nodiscard]] Block block_at(std::size_t bi) const {
    if constexpr (std::is_integral_v<Block>) {
      if (block_handles.empty()) return static_cast<Block>(bi);
    }
    return *block_handles[bi];
  }

  /// The incoming pairs (indices into `incoming_edge`, `incoming_value`) of argument `vi` of
  /// block `bi`: what each in-edge passes to it.
  [[nodiscard, gnu::always_inline]] IteratorRange<IndexIterator<std::uint32_t>> incoming_of(std::size_t vi,
                                                                                           std::size_t bi) const {
    const std::uint32_t rank = first_argument[bi] + (member_of(vi) - block_members.row_begin(bi));
    return {IndexIterator<std::uint32_t>(incoming_begin[rank]), IndexIterator<std::uint32_t>(incoming_begin[rank + 1])};
  }

  /// The numbers of block `bi`'s out-edges.
  [[nodiscard]] IteratorRange<IndexIterator<std::uint32_t>> out_edges_of(std::size_t bi) const {
    return {IndexIterator<std::uint32_t>(out_begin[bi]), IndexIterator<std::uint32_t>(out_begin[bi + 1])};
  }

  /// The (value, block) pairs of the terminators that branch on value `vi` (`target`: the
  /// block), by block.
  [[nodiscard, gnu::always_inline]] std::span<const SparseRows::Entry> branch_users(std::size_t vi) const {
    return branch_uses.of(vi);
  }

  /// The operands the shape names of op result `vi`, as integral value indices: a span of the
  /// shape's own (`shares_operand_rows`) or of `member_operands`.
  [[nodiscard, gnu::always_inline]] auto shape_operands(const Prog& prog, std::size_t vi) const {
    if constexpr (shares_operand_rows) {
      return prog.operands(static_cast<Value>(vi));
    } else {
      return member_operands.targets(member_of(vi));
    }
  }

  /// Calls `f(x)` for the index `x` of every operand of op result `vi`: the shape's, then
  /// those of `extras` (a problem's extra operands).
  template <class F>
  void for_each_operand(const Prog& prog, const SparseRows& extras, std::size_t vi, F&& f) const {
    for (const auto& x : shape_operands(prog, vi)) f(static_cast<std::uint32_t>(x));
    for (const auto& e : extras.of(vi)) f(e.target);
  }

  /// Derives every array from `prog`; `extra(v, add)` may `add` more operands
  /// of op result `v` (a problem's `extra_operands`; `add` returns false for
  /// a value outside the numbering, and so must `extra` then). Returns (and
  /// leaves in `valid`) false when the shape names a value or block outside
  /// its own numbering, places a value twice, or passes more values over an
  /// edge than the target has arguments.
  /// `need` says what the solves read beyond the shape (see `DependentsNeed`); a sweep that
  /// gives up adds the dependents later (`derive_dependents`).
  template <class Extra>
  bool derive(const Prog& prog, Extra&& extra, DependentsNeed need) {
    valid = derive_arrays(prog, extra, need);
    return valid;
  }

  /// Derives `dependents` when `derive` skipped them (a sweep that gave up, see `SparseEngine`).
  void derive_dependents(const Prog& prog) {
    if (has_dependents) return;
    build_dependents(prog, extra_operands, dependents);
    has_dependents = true;
  }

  /// The extra operands of each op result (a problem's, over arrays derived without them) into
  /// `extras`, and the dependents of the shape's operands and those into `dependents_out`.
  /// Returns false (an extra operand outside the numbering) or sets `any` when some op result
  /// had extra operands at all, and `forward` when the union is a forward numbering (see
  /// `operands_forward`).
  template <class Extra>
  bool with_extra_operands(const Prog& prog, Extra&& extra, SparseRows& extras, CsrGraph& dependents_out,
                           bool& any, bool& forward) const {
    const std::size_t n = value_count;
    extras.reset(n);
    any = false;
    forward = operands_forward;
    std::uint32_t v = 0;
    auto add = [&](const Value& x) {
      const std::size_t xi = kildall::value_index(prog, x);
      if (xi >= n) return false;
      extras.add(v, static_cast<std::uint32_t>(xi));
      any = true;
      forward = forward && xi < v;
      return true;
    };
    for (const std::uint32_t member : block_members.all()) {
      v = member;
      if (!is_argument[v] && !extra(value_at(v), add)) return false;
    }
    extras.finish();
    if (any) build_dependents(prog, extras, dependents_out);
    return true;
  }

  /// The dependents of every value given each op result's operands (the shape's, then
  /// `extras`'): an op result depends on its operands, an argument on what is forwarded to it.
  void build_dependents(const Prog& prog, const SparseRows& extras, CsrGraph& out) const {
    const auto members = block_members.all();
    const auto count_sources = [&](auto&& count) {  // every operand, then every forwarded value
      for (const std::uint32_t v : members) {
        if (!is_argument[v]) for_each_operand(prog, extras, v, count);
      }
      for (const std::uint32_t x : incoming_value) count(x);
    };
    out.assign_counted(value_count, count_sources, [&](auto&& emit) {
      // (the incoming pairs come by argument, in member order: a cursor follows them)
      std::size_t j = 0;
      for (const std::uint32_t v : members) {
        if (!is_argument[v]) {
          for_each_operand(prog, extras, v, [&](std::uint32_t x) { emit(x, v); });
        } else {
          for (; j < incoming_argument.size() && incoming_argument[j] == v; ++j) emit(incoming_value[j], v);
        }
      }
    });
  }

  /// Bytes held by the arrays.
  [[nodiscard]] std::size_t bytes() const noexcept {
    return dependents.bytes() + member_operands.bytes() + extra_operands.bytes() + block_members.bytes() +
           branch_operands.bytes() + branch_uses.bytes() + forwarded_to.bytes() +
           is_entry.capacity() +
           is_argument.capacity() + (block_of.capacity() + member_position.capacity() + edge_target.capacity() +
            edge_source.capacity() + out_begin.capacity() + first_argument.capacity() + incoming_begin.capacity() + incoming_edge.capacity() +
            incoming_value.capacity() + incoming_argument.capacity() + entry_indices.capacity()) *
               sizeof(std::uint32_t) +
           value_handles.capacity() * sizeof(std::optional<Value>) +
           block_handles.capacity() * sizeof(std::optional<Block>) + edges.capacity() * sizeof(Edge) +
           roots.capacity() * sizeof(Block);
  }

 private:
  /// What each edge forwards and each block's number of arguments, while the arrays are derived.
  struct EdgeWalk {
    LargeArray<std::uint32_t> forwarded_begin;  // by edge: its first forwarded value (one past the last edge too)
    LargeArray<std::uint32_t> forwarded;        // forwarded value indices, by edge
    LargeArray<std::uint32_t> arguments;        // by block: how many arguments it has
  };

  // The phases of `derive_arrays`, each its own function: one function of all of them was too
  // large for the compiler to inline the small calls of its loops (each `push` was a call).

  /// Block handles (unless blocks are their own index), entries and the per-value arrays.
  bool number_blocks(const Prog& prog) {
    const auto& cfg = prog.cfg();
    const std::size_t nb = block_count;
    // Blocks that are their own index (as in most IRs' CFG views) keep no handle table.
    bool identity_blocks = std::is_integral_v<Block>;
    for (const auto& b : vertex_range(cfg)) {
      const std::size_t bi = vertex_index(cfg, b);
      if (bi >= nb) return false;
      if constexpr (std::is_integral_v<Block>) {
        if constexpr (std::is_signed_v<Block>) identity_blocks = identity_blocks && b >= 0;
        identity_blocks = identity_blocks && static_cast<std::size_t>(b) == bi;
      }
    }
    block_handles.clear();
    if (!identity_blocks) {
      block_handles.assign(nb, std::nullopt);
      for (const auto& b : vertex_range(cfg)) block_handles[vertex_index(cfg, b)].emplace(b);
    }
    is_entry.assign(nb, false);
    entry_indices.clear();
    roots.clear();
    auto add_entry = [&](const Block& b) {
      const std::size_t bi = vertex_index(cfg, b);
      if (bi >= nb) return false;
      roots.push_back(b);
      if (!is_entry[bi]) entry_indices.push_back(static_cast<std::uint32_t>(bi));
      is_entry[bi] = true;
      return true;
    };
    const auto& entries = prog.entries();
    if constexpr (std::convertible_to<decltype(entries), Block>) {
      if (!add_entry(static_cast<Block>(entries))) return false;
    } else {
      for (const auto& b : entries) {
        if (!add_entry(static_cast<Block>(b))) return false;
      }
    }
    const std::size_t n = value_count;
    if constexpr (!identity_values) value_handles.assign(n, std::nullopt);
    block_of.assign(n, none);
    is_argument.assign(n, false);
    member_position.clear();
    return true;
  }

  /// Each block's members (its arguments, then its op results) and branch operands, in block
  /// order; every op result's operands, in member order (only checked when the shape's own rows
  /// are read), and its extra operands; each block's out-edges and what they forward.
  template <class Extra>
  bool walk_blocks(const Prog& prog, Extra& extra, EdgeWalk& w) {
    const auto& cfg = prog.cfg();
    const std::size_t n = value_count;
    const std::size_t nb = block_count;
    block_members.start_rows(nb);
    branch_operands.start_rows(nb, nb);
    // Edges are numbered in source order, as walked (each block's out-edges in a row), into
    // arrays written by index (a `push_back` was an out-of-line call here): of the CFG's size
    // when it tells its number of edges (Boost's `num_edges`), else grown as needed.
    std::size_t edge_room = 2 * nb;
    if constexpr (requires { num_edges(cfg); }) edge_room = static_cast<std::size_t>(num_edges(cfg));
    out_begin.assign(nb + 1, 0);
    edges.clear();
    edges.reserve(edge_room);
    edge_target.assign(edge_room, 0);
    edge_source.assign(edge_room, 0);
    w.forwarded_begin.assign(edge_room + 1, 0);
    w.forwarded.reserve(edge_room);
    w.arguments.assign(nb, 0);
    std::size_t k = 0;  // the next edge's number
    member_operands = CsrGraph{};
    if constexpr (!shares_operand_rows) member_operands.start_rows(n, 2 * n);
    extra_operands.reset(n);
    std::size_t user = 0;  // the op result whose operands are being read
    bool forward = true;
    // The index of operand `x` of `user` (at least n: outside the numbering).
    auto operand_index = [&](const Value& x) {
      const std::size_t xi = kildall::value_index(prog, x);
      forward = forward && xi < user;
      return xi;
    };
    auto add_extra = [&](const Value& x) {
      const std::size_t xi = operand_index(x);
      if (xi >= n) return false;
      extra_operands.add(static_cast<std::uint32_t>(user), static_cast<std::uint32_t>(xi));
      return true;
    };
    for (std::size_t bi = 0; bi < nb; ++bi) {
      const Block b = block_at(bi);
      for (const auto& a : prog.block_arguments(b)) {
        if (!place(prog, a, bi, true)) return false;
        if constexpr (!shares_operand_rows) member_operands.end_row();
        ++w.arguments[bi];
      }
      const auto values = prog.block_values(b);
      for (auto it = std::ranges::begin(values), end = std::ranges::end(values); it != end; ++it) {
        const auto& v = *it;
        user = kildall::value_index(prog, v);
        if (user < n && user == block_members.pushed() && members_are_values()) [[likely]] {
          // (`place`'s common case: the next member at its own index; the flag it would clear is clear)
          if constexpr (!identity_values) value_handles[user].emplace(v);
          block_of[user] = static_cast<std::uint32_t>(bi);
          block_members.push(static_cast<std::uint32_t>(user));
        } else if (!place(prog, v, bi, false)) {
          return false;
        }
        for (const auto& x : operands_at(prog, it, v)) {
          const std::size_t xi = kildall::value_index(prog, x);
          if (xi >= user) [[unlikely]] {  // (an operand below its user is inside the numbering)
            if (xi >= n) return false;
            forward = false;
          }
          if constexpr (!shares_operand_rows) member_operands.push(static_cast<std::uint32_t>(xi));
        }
        if (!extra(v, add_extra)) return false;
        if constexpr (!shares_operand_rows) member_operands.end_row();
      }
      block_members.end_row();
      if constexpr (SsaProgramWithBranchOperands<Prog>) {
        for (const auto& x : prog.branch_operands(b)) {
          const std::size_t xi = kildall::value_index(prog, x);
          if (xi >= n) return false;
          branch_operands.push(static_cast<std::uint32_t>(xi));
        }
      }
      branch_operands.end_row();
      for (const auto& e : out_edge_range(cfg, b)) {
        const std::size_t ti = vertex_index(cfg, target(e, cfg));
        if (ti >= nb) return false;
        if (k == edge_target.size()) [[unlikely]] {  // (a CFG that does not tell its number of edges)
          const std::size_t room = std::max<std::size_t>(16, 2 * k);
          edge_target.resize(room);
          edge_source.resize(room);
          w.forwarded_begin.resize(room + 1);
        }
        edges.push_back(e);
        edge_target[k] = static_cast<std::uint32_t>(ti);
        edge_source[k] = static_cast<std::uint32_t>(bi);
        for (const auto& x : prog.forwarded_operands(e)) {
          const std::size_t xi = kildall::value_index(prog, x);
          if (xi >= n) return false;
          w.forwarded.push_back(static_cast<std::uint32_t>(xi));
        }
        w.forwarded_begin[++k] = static_cast<std::uint32_t>(w.forwarded.size());
      }
      out_begin[bi + 1] = static_cast<std::uint32_t>(k);
    }
    edge_target.resize(k);
    edge_source.resize(k);
    w.forwarded_begin.resize(k + 1);
    extra_operands.finish();
    operands_forward = forward;
    return true;
  }

  /// The operands of value `v`, at which `it` (an iterator of `block_values`) stands: the
  /// iterator's own `operands()` when it has them (it may read them from the op it is at,
  /// where `prog.operands(v)` finds the op again), else the shape's.
  template <class It>
  [[nodiscard, gnu::always_inline]] static decltype(auto) operands_at(const Prog& prog, const It& it, const Value& v) {
    if constexpr (requires { it.operands(); }) {
      return it.operands();
    } else {
      return prog.operands(v);
    }
  }

  /// Places value `v` as the next member of block `bi`; false when it is outside the numbering
  /// or placed already.
  bool place(const Prog& prog, const Value& v, std::size_t bi, bool argument) {
    const std::size_t vi = kildall::value_index(prog, v);
    if (vi >= value_count) return false;
    const std::size_t m = block_members.pushed();
    // While every value placed so far sits at its own index, a value placed twice would be one
    // below `m`, so no table is needed to notice it.
    if (!members_are_values() || vi != m) {
      if (members_are_values()) {  // the first value out of place: the positions so far, written out
        member_position.assign(value_count, none);
        for (std::size_t i = 0; i < m; ++i) member_position[i] = static_cast<std::uint32_t>(i);
      }
      if (member_position[vi] != none) return false;
      member_position[vi] = static_cast<std::uint32_t>(m);
    }
    if constexpr (!identity_values) value_handles[vi].emplace(v);
    block_of[vi] = static_cast<std::uint32_t>(bi);
    is_argument[vi] = argument;
    block_members.push(static_cast<std::uint32_t>(vi));
    return true;
  }

  /// The branch uses and what each in-edge passes to each argument; false when an edge passes
  /// more values than its target has arguments.
  bool finish_edges(const EdgeWalk& w) {
    const std::size_t n = value_count;
    const std::size_t nb = block_count;
    // (A branch's condition is mostly computed in its own block: the pairs come in value order.)
    branch_uses.reset(n, branch_operands.pushed());
    for (std::size_t b = 0; b < nb; ++b) {
      for (const std::uint32_t x : branch_operands.targets(b)) branch_uses.add(x, static_cast<std::uint32_t>(b));
    }
    branch_uses.finish();
    // For each argument, what each in-edge passes to it: the in-edges of each block that pass
    // anything, in source order (a counting sort of those edges by target).
    const auto& arguments = w.arguments;
    const std::size_t edge_count = edges.size();
    const auto forwarded_count = [&](std::size_t k) { return w.forwarded_begin[k + 1] - w.forwarded_begin[k]; };
    LargeArray<std::uint32_t> first_in(nb + 1, 0);  // by target: its first in-edge in `in_edges`
    for (std::size_t k = 0; k < edge_count; ++k) {
      const std::uint32_t count = forwarded_count(k);
      if (count > arguments[edge_target[k]]) return false;  // more values than arguments
      if (count != 0) ++first_in[edge_target[k] + 1];
    }
    for (std::size_t ti = 0; ti < nb; ++ti) first_in[ti + 1] += first_in[ti];
    LargeArray<std::uint32_t> in_edges(first_in[nb], 0);  // the edge numbers, by target
    {
      LargeArray<std::uint32_t> slot(first_in.begin(), first_in.end() - 1);
      for (std::size_t k = 0; k < edge_count; ++k) {
        if (forwarded_count(k) != 0) in_edges[slot[edge_target[k]]++] = static_cast<std::uint32_t>(k);
      }
    }
    first_argument.resize(nb + 1);
    first_argument[0] = 0;
    for (std::size_t ti = 0; ti < nb; ++ti) first_argument[ti + 1] = first_argument[ti] + arguments[ti];
    incoming_begin.resize(first_argument[nb] + 1);
    incoming_begin[0] = 0;
    incoming_edge.resize(w.forwarded.size());
    incoming_value.resize(w.forwarded.size());
    incoming_argument.resize(w.forwarded.size());
    std::size_t incoming = 0;
    std::size_t rank = 0;  // the argument's among all blocks' arguments
    for (std::size_t ti = 0; ti < nb; ++ti) {
      auto member = block_members.row(ti).begin();  // (its arguments first)
      for (std::size_t i = 0; i < arguments[ti]; ++i, ++member) {
        for (std::uint32_t j = first_in[ti]; j < first_in[ti + 1]; ++j) {
          const std::uint32_t k = in_edges[j];
          if (i < forwarded_count(k)) {
            incoming_edge[incoming] = k;
            incoming_value[incoming] = w.forwarded[w.forwarded_begin[k] + i];
            incoming_argument[incoming] = *member;
            ++incoming;
          }
        }
        incoming_begin[++rank] = static_cast<std::uint32_t>(incoming);
      }
    }
    incoming_edge.resize(incoming);
    incoming_value.resize(incoming);
    incoming_argument.resize(incoming);
    return true;
  }

  /// The arguments each forwarded value reaches, from the incoming pairs (which come by
  /// argument: each row lists its arguments in order).
  void build_forwarded_to() {
    forwarded_to.assign_counted(
        value_count, [&](auto&& count) { for (const std::uint32_t x : incoming_value) count(x); },
        [&](auto&& emit) {
          for (std::size_t j = 0; j < incoming_value.size(); ++j) emit(incoming_value[j], incoming_argument[j]);
        });
  }

  template <class Extra>
  bool derive_arrays(const Prog& prog, Extra& extra, DependentsNeed need) {
    value_count = static_cast<std::size_t>(prog.value_count());
    block_count = vertex_count(prog.cfg());
    has_dependents = false;
    dependents = CsrGraph{};
    forwarded_to = CsrGraph{};
    if (!number_blocks(prog)) return false;
    EdgeWalk w;
    if (!walk_blocks(prog, extra, w) || !finish_edges(w)) return false;
    members_in_order = false;
    if (need != DependentsNeed::worklist) {
      build_forwarded_to();
      members_in_order = true;
      if (!members_are_values()) {  // (values at their own member positions are in order)
        for (std::size_t b = 0; b < block_count && members_in_order; ++b) {
          std::uint32_t previous = 0;
          bool first = true;
          for (const std::uint32_t v : block_members.row(b)) {
            members_in_order = members_in_order && (first || previous < v);
            previous = v;
            first = false;
          }
        }
      }
    }
    if (need != DependentsNeed::sweep || !operands_forward) derive_dependents(prog);
    return true;
  }
};

}  // namespace kildall::detail
