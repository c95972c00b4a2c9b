// Compiles and runs the C++ blocks of docs/graphs.md, as printed there, so the
// page cannot rot (tests/docs/check_doc_snippets.py checks they are verbatim).
#include <kildall/graph/concepts.hpp>
#include <kildall/graph/dominators.hpp>
#include <kildall/graph/reverse_postorder.hpp>
#include <kildall/graph/reversed.hpp>
#include <kildall/graph/scc.hpp>
#include <kildall/graph/ssa_program.hpp>
#include <kildall/graph/successor_list.hpp>
#include <kildall/graph/wto.hpp>

#include <doctest/doctest.h>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/graph_traits.hpp>
#include <boost/iterator/counting_iterator.hpp>
#include <boost/iterator/transform_iterator.hpp>

#include <concepts>
#include <cstddef>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

// --- docs/graphs.md: "Part 1, the compiler's code" ---------------------------
namespace mycc {
struct Instruction { std::string defines; std::vector<std::string> uses; std::string text; };
struct Block {
  std::string name;
  std::vector<Instruction> instructions;
  std::vector<std::size_t> successors;    // indices into Cfg::blocks
  std::vector<std::size_t> predecessors;  // filled by compute_predecessors()
};
struct Cfg { std::vector<Block> blocks; /* add_block, add_branch, compute_predecessors */ };
}

// --- docs/graphs.md: "Part 2, the adapter" -----------------------------------
namespace mycc {
struct CfgEdge { std::size_t from, to; };
struct EdgeFrom { std::size_t from; CfgEdge operator()(std::size_t to) const { return {from, to}; } };
struct EdgeTo   { std::size_t to;   CfgEdge operator()(std::size_t from) const { return {from, to}; } };

inline auto out_edges(std::size_t b, const Cfg& cfg) {
  const auto& succ = cfg.blocks[b].successors;
  return std::pair(boost::make_transform_iterator(succ.begin(), EdgeFrom{b}),
                   boost::make_transform_iterator(succ.end(), EdgeFrom{b}));
}
inline std::size_t target(const CfgEdge& e, const Cfg&) { return e.to; }
inline auto in_edges(std::size_t b, const Cfg& cfg) {
  const auto& pred = cfg.blocks[b].predecessors;
  return std::pair(boost::make_transform_iterator(pred.begin(), EdgeTo{b}),
                   boost::make_transform_iterator(pred.end(), EdgeTo{b}));
}
inline std::size_t source(const CfgEdge& e, const Cfg&) { return e.from; }
inline auto vertices(const Cfg& cfg) {
  return std::pair(boost::counting_iterator<std::size_t>(0),
                   boost::counting_iterator<std::size_t>(cfg.blocks.size()));
}
inline std::size_t num_vertices(const Cfg& cfg) { return cfg.blocks.size(); }
}  // namespace mycc

template <>
struct boost::graph_traits<mycc::Cfg> {
  using vertex_descriptor = std::size_t;
  using edge_descriptor = mycc::CfgEdge;
};
// --- end of the adapter --------------------------------------------------------

// "After the adapter, static_assert(kildall::AnalysisGraph<mycc::Cfg>) holds".
static_assert(kildall::AnalysisGraph<mycc::Cfg>);
static_assert(kildall::AnalysisGraph<kildall::Reversed<mycc::Cfg>>);

namespace {

using BoostCfg = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;
using EdgeList = std::vector<std::pair<std::size_t, std::size_t>>;

// The sample function of examples/custom_graph (entry head body spin exit dead),
// built with the documented Part 1 types only (it has no add_block helpers).
const std::vector<std::string> kNames{"entry", "head", "body", "spin", "exit", "dead"};
const EdgeList kEdges{{0, 1}, {1, 2}, {1, 4}, {2, 3}, {3, 3}, {3, 1}, {5, 4}};

mycc::Cfg sample() {
  mycc::Cfg cfg;
  for (const std::string& name : kNames) cfg.blocks.push_back(mycc::Block{name, {}, {}, {}});
  for (auto [from, to] : kEdges) cfg.blocks[from].successors.push_back(to);
  for (auto [from, to] : kEdges) cfg.blocks[to].predecessors.push_back(from);
  return cfg;
}

BoostCfg boost_sample() {
  BoostCfg g(kNames.size());
  for (auto [from, to] : kEdges) add_edge(from, to, g);
  return g;
}

std::string names(const std::vector<std::size_t>& blocks) {
  std::string out;
  for (std::size_t b : blocks) out += (out.empty() ? "" : " ") + kNames[b];
  return out;
}

}  // namespace

TEST_CASE("docs/graphs.md: the adapted CFG gives the documented orders") {
  const mycc::Cfg cfg = sample();
  // The printed output of examples/custom_graph, as shown on the page.
  CHECK(names(kildall::reverse_postorder(cfg, std::size_t{0})) == "entry head exit body spin");
  const std::size_t roots[] = {0};
  const auto scc = kildall::strongly_connected_components(cfg, roots);
  std::string components;
  for (std::size_t c = 0; c < scc.count(); ++c) {
    const auto members = scc.members(c);
    components += " {" + names({members.begin(), members.end()}) + "}";
  }
  CHECK(components == " {exit} {head body spin} {entry} {dead}");
  CHECK(kildall::has_self_loop(cfg, std::size_t{3}));
  CHECK_FALSE(kildall::has_self_loop(cfg, std::size_t{1}));
  CHECK(names(kildall::reverse_postorder(kildall::Reversed(cfg), std::size_t{4})) ==
        "exit dead head spin body entry");
}

TEST_CASE("docs/graphs.md: the adapter agrees with Boost's adjacency_list edge for edge") {
  // Oracle: the same CFG as a Boost.Graph, which models the concepts unchanged.
  const mycc::Cfg cfg = sample();
  const BoostCfg g = boost_sample();
  for (std::size_t v = 0; v < kNames.size(); ++v) {
    EdgeList mine, boosts;
    for (const auto& e : kildall::out_edge_range(cfg, v)) mine.emplace_back(source(e, cfg), target(e, cfg));
    for (const auto& e : kildall::out_edge_range(g, v)) boosts.emplace_back(source(e, g), target(e, g));
    CHECK(mine == boosts);
    mine.clear();
    boosts.clear();
    for (const auto& e : kildall::in_edge_range(cfg, v)) mine.emplace_back(source(e, cfg), target(e, cfg));
    for (const auto& e : kildall::in_edge_range(g, v)) boosts.emplace_back(source(e, g), target(e, g));
    CHECK(mine == boosts);
    CHECK(kildall::vertex_index(cfg, v) == v);  // integral descriptors are their own index
  }
  for (std::size_t root = 0; root < kNames.size(); ++root) {
    CHECK(kildall::reverse_postorder(cfg, root) == kildall::reverse_postorder(g, root));
    CHECK(kildall::reverse_postorder(kildall::Reversed(cfg), root) ==
          kildall::reverse_postorder(kildall::Reversed(g), root));
  }
}

TEST_CASE("docs/graphs.md: weak topological order") {
  // --- docs/graphs.md: "Weak topological order" (verbatim) ---
  // 0 -> 1 -> 2 -> 3 -> 4 -> 5, loops 3 -> 2 (inner) and 4 -> 1 (outer), 6 unreachable
  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;
  Graph g(7);
  const std::pair<std::size_t, std::size_t> edges[] = {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {3, 2}, {4, 1}, {6, 5}};
  for (auto [from, to] : edges) add_edge(from, to, g);
  const auto wto = kildall::weak_topological_order(g, std::size_t{0});
  const std::string text = wto.to_string([](auto v) { return std::to_string(v); });  // "0 (1 (2 3) 4) 5"
  const std::vector<std::size_t>& order = wto.order();  // 0 1 2 3 4 5: components contiguous, heads first
  const std::optional<std::size_t> at = wto.position(g, 3);  // 3; std::nullopt for the unreachable 6
  const bool widen_here = wto.is_head(g, 2);  // true: 2 heads a component (a widening point)
  const std::size_t end = wto.component_end(1);  // 5: one past the last position of the component headed at 1
  const std::optional<std::size_t> around = wto.enclosing_head(3);  // 2: the innermost head strictly around 3
  const std::size_t nesting = wto.depth(3);  // 2: loop-nesting depth
  // --- end of the snippet ---
  CHECK(text == "0 (1 (2 3) 4) 5");
  CHECK(order == std::vector<std::size_t>{0, 1, 2, 3, 4, 5});
  CHECK(at == std::optional<std::size_t>{3});
  CHECK(wto.position(g, 6) == std::nullopt);
  CHECK(widen_here);
  CHECK(wto.is_head(g, 1));
  for (std::size_t v : {0, 3, 4, 5}) CHECK_FALSE(wto.is_head(g, v));
  CHECK(end == 5);
  CHECK(wto.component_end(2) == 4);
  CHECK(around == std::optional<std::size_t>{2});
  CHECK(wto.enclosing_head(2) == std::optional<std::size_t>{1});
  CHECK(wto.enclosing_head(0) == std::nullopt);
  CHECK(nesting == 2);
  CHECK(wto.depth(0) == 0);
  CHECK(wto.depth(4) == 1);
}

// (Moved here from tests/graph/successor_list_test.cpp.)
TEST_CASE("docs/graphs.md: a successor list in one line") {
  // --- docs/graphs.md: "A successor list in one line" (verbatim) ---
  // 0: cond_br ^1, ^2    1: br ^3    2: br ^3    3: return
  std::vector<std::vector<int>> succ = {{1, 2}, {3}, {3}, {}};
  const kildall::SuccessorListGraph g = kildall::successor_list_graph(succ);
  static_assert(kildall::AnalysisGraph<kildall::SuccessorListGraph>);
  const std::vector<std::size_t> rpo = kildall::reverse_postorder(g, std::size_t{0});  // 0 2 1 3
  const kildall::SuccessorEdge taken = g.successors(0)[0];   // {0, 1, 0}: slot 0, the true successor
  const std::size_t joins = g.predecessors(3).size();        // 2: from 1 and from 2
  const auto h = kildall::successor_list_graph(4, [&](std::size_t v) { return succ[v]; });  // the same graph
  // --- end of the snippet ---
  CHECK(rpo == std::vector<std::size_t>{0, 2, 1, 3});
  CHECK(taken == kildall::SuccessorEdge{0, 1, 0});
  CHECK(joins == 2);
  CHECK(h == g);
  // "{1, 1} gives two parallel edges, slots 0 and 1".
  const auto parallel = kildall::successor_list_graph(std::vector<std::vector<int>>{{1, 1}, {}});
  REQUIRE(parallel.successors(0).size() == 2);
  CHECK(parallel.successors(0)[1] == kildall::SuccessorEdge{0, 1, 1});
  CHECK(parallel.predecessors(1).size() == 2);
  // Vertices are their own index; the free functions are found by ADL.
  CHECK(kildall::vertex_index(g, std::size_t{2}) == 2);
  CHECK(out_degree(std::size_t{0}, g) == 2);
  CHECK(in_degree(std::size_t{3}, g) == 2);
  succ[2] = {7};
  CHECK_THROWS_WITH_AS((void)kildall::successor_list_graph(succ),
                       "kildall::successor_list_graph: successor 7 of vertex 2 (slot 0) is out of range: the graph "
                       "has 4 vertices",
                       std::out_of_range);
}

TEST_CASE("docs/graphs.md: dominators") {
  const mycc::Cfg cfg = sample();  // entry head body spin exit dead
  const auto tree = kildall::dominator_tree(cfg, std::size_t{0});
  CHECK(tree.immediate_dominator(0) == std::nullopt);  // the entry
  CHECK(tree.immediate_dominator(5) == std::nullopt);  // unreachable
  CHECK_FALSE(tree.is_reachable(5));
  CHECK(tree.immediate_dominator(1) == std::optional<std::size_t>{0});
  CHECK(tree.immediate_dominator(3) == std::optional<std::size_t>{2});
  CHECK(tree.immediate_dominator(4) == std::optional<std::size_t>{1});
  CHECK(tree.dominates(1, 3));
  CHECK(tree.dominates(3, 3));
  CHECK_FALSE(tree.strictly_dominates(3, 3));
  CHECK_FALSE(tree.dominates(2, 4));
  CHECK(tree.depth(3) == 3);
  CHECK(names(tree.reverse_postorder()) == names(kildall::reverse_postorder(cfg, std::size_t{0})));
  // Post-dominators: the dominators of the reversed graph from the exit.
  const auto post = kildall::dominator_tree(kildall::Reversed(cfg), std::size_t{4});
  CHECK(post.immediate_dominator(0) == std::optional<std::size_t>{1});
  CHECK(post.dominates(1, 3));
}

// --- docs/graphs.md: "SSA programs: the SsaProgram shape" ---------------------
namespace ssa_shape {
using Cfg = kildall::SuccessorListGraph;
using Block = std::size_t;
using Edge = kildall::SuccessorEdge;
using Values = std::vector<std::size_t>;  // "range": anything iterable

struct Minimal {  // an integer value_type is its own index
  using value_type = std::size_t;
  const Cfg& cfg() const;
  Block entries() const;
  std::size_t value_count() const;
  Values block_arguments(Block b) const;
  std::span<const std::size_t> block_values(Block b) const;
  Values operands(std::size_t v) const;
  Values forwarded_operands(Edge e) const;
};
static_assert(kildall::SsaProgram<Minimal> && !kildall::SsaProgramWithBranchOperands<Minimal>);
static_assert(std::same_as<kildall::ssa_value_t<Minimal>, std::size_t>);
static_assert(std::same_as<kildall::ssa_cfg_t<Minimal>, Cfg>);

struct WithBranches : Minimal {  // optional: what a terminator branches on
  Values branch_operands(Block b) const;
};
static_assert(kildall::SsaProgramWithBranchOperands<WithBranches>);

struct Handle {  // a non-integer value handle
  const void* p;
};
struct ByHandle {
  using value_type = Handle;
  const Cfg& cfg() const;
  std::vector<Block> entries() const;  // a range of entry blocks
  std::size_t value_count() const;
  std::size_t value_index(Handle v) const;  // needed: Handle is not an integer
  std::vector<Handle> block_arguments(Block b) const;
  std::vector<Handle> block_values(Block b) const;
  std::vector<Handle> operands(Handle v) const;
  std::vector<Handle> forwarded_operands(Edge e) const;
};
static_assert(kildall::SsaProgram<ByHandle>);

struct NoForwarded {  // forwarded_operands is required
  using value_type = std::size_t;
  const Cfg& cfg() const;
  Block entries() const;
  std::size_t value_count() const;
  Values block_arguments(Block b) const;
  Values block_values(Block b) const;
  Values operands(std::size_t v) const;
};
static_assert(!kildall::SsaProgram<NoForwarded>);
}  // namespace ssa_shape

TEST_CASE("docs/graphs.md: value_index of an SsaProgram") {
  struct Tiny {
    using value_type = std::size_t;
    kildall::SuccessorListGraph g = kildall::successor_list_graph(std::vector<std::vector<int>>{{}});
    std::vector<std::size_t> none;
    const kildall::SuccessorListGraph& cfg() const { return g; }
    std::size_t entries() const { return 0; }
    std::size_t value_count() const { return 3; }
    const std::vector<std::size_t>& block_arguments(std::size_t) const { return none; }
    const std::vector<std::size_t>& block_values(std::size_t) const { return none; }
    const std::vector<std::size_t>& operands(std::size_t) const { return none; }
    const std::vector<std::size_t>& forwarded_operands(const kildall::SuccessorEdge&) const { return none; }
  };
  static_assert(kildall::SsaProgram<Tiny>);
  const Tiny tiny;
  CHECK(kildall::value_index(tiny, std::size_t{2}) == 2);  // an integer is its own index
}
