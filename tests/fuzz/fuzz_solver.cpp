// Fuzz target: the dense and sparse fixed-point solvers (kildall/solver/) on
// random graphs decoded from the bytes (self-loops, parallel edges, cycles
// with several entries, i.e. irreducible ones, unreachable vertices) with
// random monotone transfers:
//  - a finite lattice (8-bit sets; transfer = gen ∪ (in \ kill) plus
//    threshold rules "if in ⊇ T then add U", monotone but not distributive;
//    edges executable once the source holds a given bit): forward and
//    backward, both iteration orders, several roots. The result must be
//    converged, pass verify_fixpoint, and equal the least fixpoint computed
//    here by naive round-robin Kleene iteration; an incremental re-solve
//    after changing some transfers must equal a fresh solve;
//  - an infinite-height lattice (intervals; transfer = (in + c) ∩ clamp,
//    joined with a constant), which needs widening: converged and
//    verify_fixpoint, with and without narrowing;
//  - the sparse solver on the same graph as a def-use graph: converged and
//    verify_fixpoint.

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include <boost/graph/adjacency_list.hpp>

#include <kildall/lattice/change_result.hpp>
#include <kildall/lattice/interval.hpp>
#include <kildall/lattice/interval_transfer.hpp>
#include <kildall/solver/dense.hpp>
#include <kildall/solver/sparse.hpp>
#include <kildall/solver/verify.hpp>

#include "fuzz_input.hpp"

using namespace kildall;
using fuzz::FuzzInput;

namespace {

/// Per edge: the bit its source must hold for the edge to be executable (8 = always).
struct EdgeInfo {
  std::uint8_t needs = 8;
};
using FuzzGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS, boost::no_property, EdgeInfo>;
using Edge = boost::graph_traits<FuzzGraph>::edge_descriptor;

/// Subsets of {0..7}, ordered by inclusion.
struct Bits {
  std::uint8_t set = 0;
  [[nodiscard]] ChangeResult join(const Bits& o) {
    const std::uint8_t before = set;
    set = static_cast<std::uint8_t>(set | o.set);
    return change_if(set != before);
  }
  [[nodiscard]] bool leq(const Bits& o) const { return (set & ~o.set) == 0; }
  friend bool operator==(const Bits&, const Bits&) = default;
};

struct Rule {
  std::uint8_t when, add;
};
struct NodeTransfer {
  std::uint8_t gen = 0, kill = 0;
  std::vector<Rule> rules;
  [[nodiscard]] std::uint8_t apply(std::uint8_t in) const {
    std::uint8_t out = static_cast<std::uint8_t>(gen | (in & ~kill));
    for (const Rule& r : rules)
      if ((in & r.when) == r.when) out = static_cast<std::uint8_t>(out | r.add);
    return out;
  }
};

struct BitsProblem {
  using lattice_type = Bits;
  const FuzzGraph* g;
  const std::vector<NodeTransfer>* transfers;
  std::uint8_t boundary_bits;
  bool use_executability;
  [[nodiscard]] Bits boundary(std::size_t) const { return Bits{boundary_bits}; }
  [[nodiscard]] Bits transfer(std::size_t v, const Bits& in) const { return Bits{(*transfers)[v].apply(in.set)}; }
  [[nodiscard]] bool edge_executable(Edge e, const Bits& from) const {
    const std::uint8_t needs = (*g)[e].needs;
    return !use_executability || needs >= 8 || ((from.set >> needs) & 1) != 0;
  }
};

/// The least fixpoint by round-robin iteration: in/out per vertex, nullopt = unreached.
struct Naive {
  std::vector<bool> reached;
  std::vector<std::uint8_t> in, out;
};
Naive naive_fixpoint(const FuzzGraph& g, const BitsProblem& p, const std::vector<std::size_t>& roots, bool forward) {
  const std::size_t n = boost::num_vertices(g);
  Naive r{std::vector<bool>(n, false), std::vector<std::uint8_t>(n, 0), std::vector<std::uint8_t>(n, 0)};
  std::vector<bool> is_root(n, false);
  for (const std::size_t v : roots) is_root[v] = true;
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t v = 0; v < n; ++v) {
      bool reach = is_root[v];
      std::uint8_t in = is_root[v] ? p.boundary_bits : 0;
      const auto consider = [&](Edge e, std::size_t from) {
        if (!r.reached[from] || !p.edge_executable(e, Bits{r.out[from]})) return;
        reach = true;
        in = static_cast<std::uint8_t>(in | r.out[from]);
      };
      if (forward) {
        for (auto [it, end] = boost::in_edges(v, g); it != end; ++it) consider(*it, boost::source(*it, g));
      } else {
        for (auto [it, end] = boost::out_edges(v, g); it != end; ++it) consider(*it, boost::target(*it, g));
      }
      if (!reach) continue;
      const std::uint8_t out = p.transfer(v, Bits{in}).set;
      if (!r.reached[v] || r.in[v] != in || r.out[v] != out) {
        r.reached[v] = true;
        r.in[v] = in;
        r.out[v] = out;
        changed = true;
      }
    }
  }
  return r;
}

NodeTransfer random_transfer(FuzzInput& in) {
  NodeTransfer t;
  t.gen = in.byte() & in.byte();
  t.kill = in.byte() & in.byte();
  const std::size_t rules = in.below(3);
  for (std::size_t i = 0; i < rules; ++i) t.rules.push_back({in.byte(), static_cast<std::uint8_t>(in.byte() & in.byte())});
  return t;
}

std::string graph_text(const FuzzGraph& g) {
  std::ostringstream out;
  out << boost::num_vertices(g) << " vertices; edges:";
  for (auto [it, end] = boost::edges(g); it != end; ++it)
    out << " " << boost::source(*it, g) << "->" << boost::target(*it, g) << "[" << int(g[*it].needs) << "]";
  return out.str();
}

template <class Result>
void compare_with_naive(const FuzzGraph& g, const Result& r, const Naive& want, const char* what) {
  for (std::size_t v = 0; v < boost::num_vertices(g); ++v) {
    // The naive iteration's in/out are in the analysis direction: for a
    // backward result the join over successors is after(v), the transfer's result before(v).
    const bool forward = r.direction() == Direction::forward;
    const Bits* in = forward ? r.before(v) : r.after(v);
    const Bits* out = forward ? r.after(v) : r.before(v);
    const bool ok = want.reached[v] ? (in && out && in->set == want.in[v] && out->set == want.out[v]) : (!in && !out);
    fuzz::fuzz_check(ok, "dense result differs from the least fixpoint", [&] {
      std::ostringstream s;
      s << what << ": vertex " << v << " solver " << (out ? std::to_string(in->set) + "/" + std::to_string(out->set) : "unreached")
        << ", naive " << (want.reached[v] ? std::to_string(want.in[v]) + "/" + std::to_string(want.out[v]) : "unreached")
        << "\n" << graph_text(g);
      return s.str();
    });
  }
}

// Intervals with widening: out = ((in + step) ∩ clamp) ⊔ seed.
struct IntervalProblem {
  using lattice_type = Interval;
  unsigned width;
  std::vector<Interval> step, clamp, seed;
  [[nodiscard]] Interval boundary(std::size_t) const { return Interval::constant(width, 0); }
  [[nodiscard]] Interval transfer(std::size_t v, const Interval& in) const {
    Interval out = infer_add(in, step[v]);
    (void)out.meet(clamp[v]);
    (void)out.join(seed[v]);
    return out;
  }
};

Interval random_interval(FuzzInput& in, unsigned width) {
  const std::uint64_t mask = width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
  // One draw per statement: the operands of `&` and a call's arguments are evaluated in an
  // unspecified order (g++ and clang differ), and a corpus file must decode the same everywhere.
  const std::uint64_t raw = in.u64();
  const std::uint64_t a = raw & mask & (in.below(2) ? mask : 15);
  const std::uint64_t b = in.u64() & mask;
  switch (in.below(4)) {
    case 0: return Interval::full(width);
    case 1: return Interval::constant(width, a);
    default: return Interval::from_unsigned(width, std::min(a, b), std::max(a, b));
  }
}

// Sparse: a value's state is the union of its operands' plus its own rules.
struct SparseBits {
  using lattice_type = Bits;
  static constexpr bool visit_with_uninitialized_operands = true;
  const std::vector<NodeTransfer>* transfers;
  [[nodiscard]] Bits transfer(std::size_t v, OperandStates<Bits> operands) const {
    std::uint8_t in = 0;
    for (const Bits* s : operands)
      if (s) in = static_cast<std::uint8_t>(in | s->set);
    return Bits{(*transfers)[v].apply(in)};
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzInput in(data, size);
  const std::size_t n = 1 + in.below(24);
  FuzzGraph g(n);
  const std::uint8_t executability = in.byte();
  for (std::size_t i = 0; i + 1 < n; ++i)
    if (in.below(5) != 0) boost::add_edge(i, i + 1, EdgeInfo{static_cast<std::uint8_t>(in.below(4) == 0 ? in.below(8) : 8)}, g);
  const std::size_t extra = in.below(2 * n + 1);
  for (std::size_t i = 0; i < extra; ++i) {
    const std::size_t from = in.below(n);
    const std::size_t to = in.below(n);
    boost::add_edge(from, to, EdgeInfo{static_cast<std::uint8_t>(in.below(3) == 0 ? in.below(8) : 8)}, g);
  }
  std::vector<NodeTransfer> transfers(n);
  for (auto& t : transfers) t = random_transfer(in);
  std::vector<std::size_t> roots{0};
  if (in.below(4) == 0) roots.push_back(in.below(n));
  const BitsProblem problem{&g, &transfers, in.byte(), (executability & 1) != 0};

  for (const IterationOrder order : {IterationOrder::reverse_postorder, IterationOrder::weak_topological_order}) {
    SolverOptions options;
    options.order = order;
    const auto fwd = solve_forward(g, roots, problem, options);
    fuzz::fuzz_check(fwd.converged(), "dense forward did not converge", [&] { return graph_text(g); });
    const FixpointReport fr = verify_fixpoint(problem, fwd);
    fuzz::fuzz_check(fr.ok(), "dense forward result is not a post-fixpoint", [&] { return fr.message() + "\n" + graph_text(g); });
    compare_with_naive(g, fwd, naive_fixpoint(g, problem, roots, true), "forward");

    const std::vector<std::size_t> exits{n - 1};
    const auto bwd = solve_backward(g, exits, problem, options);
    fuzz::fuzz_check(bwd.converged(), "dense backward did not converge", [&] { return graph_text(g); });
    const FixpointReport br = verify_fixpoint(problem, bwd);
    fuzz::fuzz_check(br.ok(), "dense backward result is not a post-fixpoint", [&] { return br.message() + "\n" + graph_text(g); });
    compare_with_naive(g, bwd, naive_fixpoint(g, problem, exits, false), "backward");
  }

  // Incremental: change some transfers, re-solve from the old result.
  {
    const auto before = solve_forward(g, roots, problem);
    std::vector<NodeTransfer> changed_transfers = transfers;
    std::vector<std::size_t> changed;
    const std::size_t k = in.below(3) + 1;
    for (std::size_t i = 0; i < k; ++i) {
      const std::size_t v = in.below(n);
      changed_transfers[v] = random_transfer(in);
      changed.push_back(v);
    }
    const BitsProblem changed_problem{&g, &changed_transfers, problem.boundary_bits, problem.use_executability};
    const auto incremental = resolve_forward(g, roots, changed_problem, before, changed);
    fuzz::fuzz_check(incremental.converged(), "incremental re-solve did not converge", [&] { return graph_text(g); });
    compare_with_naive(g, incremental, naive_fixpoint(g, changed_problem, roots, true), "incremental forward");
  }

  // Infinite height: intervals, widening required.
  {
    static const unsigned widths[] = {4, 8, 16, 32, 64};
    IntervalProblem ip;
    ip.width = widths[in.below(std::size(widths))];
    for (std::size_t v = 0; v < n; ++v) {
      ip.step.push_back(random_interval(in, ip.width));
      ip.clamp.push_back(in.below(2) ? Interval::full(ip.width) : random_interval(in, ip.width));
      ip.seed.push_back(in.below(2) ? Interval::empty(ip.width) : random_interval(in, ip.width));
    }
    SolverOptions options;
    options.order = in.below(2) ? IterationOrder::reverse_postorder : IterationOrder::weak_topological_order;
    options.widening_delay = static_cast<std::uint32_t>(in.below(4));
    options.narrowing_passes = static_cast<std::uint32_t>(in.below(3));
    const auto r = solve_forward(g, roots, ip, options);
    fuzz::fuzz_check(r.converged(), "interval solve did not converge",
                     [&] { return r.outcome().message() + "\n" + graph_text(g); });
    const FixpointReport report = verify_fixpoint(ip, r);
    fuzz::fuzz_check(report.ok(), "interval result is not a post-fixpoint",
                     [&] { return report.message() + "\n" + graph_text(g); });
  }

  // Sparse, the graph as def-use edges.
  {
    const SparseBits sp{&transfers};
    const auto r = solve_sparse(g, sp);
    fuzz::fuzz_check(r.converged(), "sparse solve did not converge", [&] { return graph_text(g); });
    const FixpointReport report = verify_fixpoint(sp, r);
    fuzz::fuzz_check(report.ok(), "sparse result is not a post-fixpoint",
                     [&] { return report.message() + "\n" + graph_text(g); });
  }
  return 0;
}
