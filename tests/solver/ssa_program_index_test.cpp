// Tests SsaProgramIndex (a shape prepared once for many sparse solves); oracle: solve_sparse over the shape itself, state by state and visit by visit.
#include <kildall/solver/ssa_program_index.hpp>
#include <kildall/solver/sparse.hpp>
#include <kildall/solver/verify.hpp>

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <random>
#include <set>
#include <span>
#include <type_traits>
#include <vector>

#include "classic_analyses/constant_propagation.hpp"
#include "classic_analyses/ssa.hpp"

namespace {

using Shape = classic::SsaShape<classic::SsaCfg, classic::SsaCfgSlot>;
using Sccp = classic::ConstantPropagation<Shape>;

/// SCCP that also reads, for some op results, the first member of their
/// block (an `extra_operands` problem: the transfer ignores the extra state,
/// but the solver must order and re-queue by it, and not compute the value
/// before the extra operand is known).
struct SccpWithExtraOperands : Sccp {
  std::vector<std::vector<std::size_t>> extra;  // by value
  std::span<const std::size_t> extra_operands(std::size_t v) const { return extra[v]; }
};

SccpWithExtraOperands with_extra_operands(const Shape& shape, std::mt19937& rng, unsigned every) {
  SccpWithExtraOperands p{Sccp{&shape}, {}};
  const classic::SsaProgram& program = shape.program();
  p.extra.resize(program.values.size());
  for (const auto& block : program.blocks) {
    const auto& members = block.arguments.empty() ? block.values : block.arguments;
    if (members.empty() || every == 0) continue;
    for (const std::size_t v : block.values) {
      if (v != members.front() && rng() % every == 0) p.extra[v].push_back(members.front());
    }
  }
  return p;
}

/// The two results agree on every value's state and visits, every block, the status and the visit total.
template <class R>
void check_same(const R& via_index, const R& via_shape, const classic::SsaProgram& program) {
  REQUIRE(via_index.status() == via_shape.status());
  for (std::size_t v = 0; v < program.values.size(); ++v) {
    REQUIRE((via_index.lookup(v) == nullptr) == (via_shape.lookup(v) == nullptr));
    if (via_shape.lookup(v) != nullptr) CHECK(*via_index.lookup(v) == *via_shape.lookup(v));
    CHECK(via_index.visits(v) == via_shape.visits(v));
  }
  for (std::size_t b = 0; b < program.blocks.size(); ++b) CHECK(via_index.block_reached(b) == via_shape.block_reached(b));
  CHECK(via_index.statistics().visits == via_shape.statistics().visits);
  CHECK(via_index.roots() == via_shape.roots());
}

}  // namespace

TEST_CASE("one index serves SCCP in both orders, and problems with and without extra operands (300 seeds)") {
  std::size_t with_extras = 0;
  for (unsigned seed = 0; seed < 300; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed);
    const classic::SsaProgram program = classic::random_ssa_program(rng, 1 + rng() % 10);
    const auto cfg = classic::control_flow_graph(program);
    const auto shape = classic::ssa_shape(program, cfg);
    const kildall::SsaProgramIndex index(shape);
    REQUIRE(index.valid());
    CHECK(index.value_count() == program.values.size());
    CHECK(index.block_count() == program.blocks.size());
    CHECK(index.edge_count() == boost::num_edges(cfg));
    CHECK(index.order() == kildall::IterationOrder::weak_topological_order);

    const Sccp sccp{&shape};
    const auto via_index = kildall::solve_sparse(index, sccp);
    check_same(via_index, kildall::solve_sparse(shape, sccp), program);
    CHECK(kildall::verify_fixpoint(sccp, via_index).ok());
    CHECK(&via_index.program() == &shape);

    kildall::SolverOptions rpo;
    rpo.order = kildall::IterationOrder::reverse_postorder;
    check_same(kildall::solve_sparse(index, sccp, rpo), kildall::solve_sparse(shape, sccp, rpo), program);

    for (const unsigned every : {0U, 1U, 3U}) {
      const SccpWithExtraOperands extra = with_extra_operands(shape, rng, every);
      const auto layered = kildall::solve_sparse(index, extra);
      check_same(layered, kildall::solve_sparse(shape, extra), program);
      CHECK(kildall::verify_fixpoint(extra, layered).ok());
      for (const auto& e : extra.extra) with_extras += e.size();
    }
  }
  CHECK(with_extras > 1000);  // the extra-operand layer was exercised
}

TEST_CASE("an extra operand outside the numbering is invalid input over an index as over the shape") {
  std::mt19937 rng(3);
  const classic::SsaProgram program = classic::random_ssa_program(rng, 4);
  const auto cfg = classic::control_flow_graph(program);
  const auto shape = classic::ssa_shape(program, cfg);
  const kildall::SsaProgramIndex index(shape);
  REQUIRE(index.valid());  // the shape itself is fine: only the problem's extra operand is out of range
  SccpWithExtraOperands bad = with_extra_operands(shape, rng, 0);
  const std::size_t op_result = program.blocks[0].values.front();
  bad.extra[op_result].push_back(program.values.size() + 7);
  const auto via_index = kildall::solve_sparse(index, bad);
  const auto via_shape = kildall::solve_sparse(shape, bad);
  CHECK(via_index.status() == kildall::SolveStatus::invalid_input);
  CHECK(via_shape.status() == kildall::SolveStatus::invalid_input);
  CHECK(via_index.lookup(op_result) == nullptr);
  // The index is untouched: a good problem over it still solves.
  CHECK(kildall::solve_sparse(index, Sccp{&shape}).converged());
}

TEST_CASE("an operand outside the numbering, in operand spans the solver reads in place, is invalid input") {
  // The classic shape hands out its operands as spans of value indices: the solver keeps no
  // copy of them and would read them at every visit, so the derivation must refuse the shape.
  classic::SsaProgram program;
  program.blocks.resize(1);
  program.values.push_back({classic::Op::constant, 0, 3});
  program.values.push_back({classic::Op::add, 0, 0, 0, 9});  // rhs: no value 9
  program.blocks[0].values = {0, 1};
  const auto cfg = classic::control_flow_graph(program);
  const auto shape = classic::ssa_shape(program, cfg);
  static_assert(kildall::detail::SsaArrays<std::remove_cvref_t<decltype(shape)>>::shares_operand_rows);
  const classic::ConstantPropagation<decltype(shape)> sccp{&shape};
  const kildall::SsaProgramIndex index(shape);
  CHECK_FALSE(index.valid());
  for (const auto& r : {kildall::solve_sparse(index, sccp), kildall::solve_sparse(shape, sccp)}) {
    CHECK(r.status() == kildall::SolveStatus::invalid_input);
    CHECK(r.lookup(0) == nullptr);
    CHECK(r.lookup(1) == nullptr);
  }
}

TEST_CASE("an edge that passes more values than its target has arguments is invalid input") {
  // Block 0 branches to block 1, which has one argument, passing it two values (and, in the
  // second program, to block 2 correctly as well): the derivation refuses the shape.
  for (const bool with_good_edge : {false, true}) {
    CAPTURE(with_good_edge);
    classic::SsaProgram program;
    program.blocks.resize(3);
    program.values.push_back({classic::Op::constant, 0, 3});  // 0
    program.values.push_back({classic::Op::constant, 0, 4});  // 1
    program.values.push_back({classic::Op::argument, 1});     // 2
    program.values.push_back({classic::Op::argument, 2});     // 3
    program.blocks[0].values = {0, 1};
    program.blocks[1].arguments = {2};
    program.blocks[2].arguments = {3};
    if (with_good_edge) program.blocks[0].successors.push_back({2, {1}});
    program.blocks[0].successors.push_back({1, {0, 1}});
    if (with_good_edge) program.blocks[0].condition = 0;
    const auto cfg = classic::control_flow_graph(program);
    const auto shape = classic::ssa_shape(program, cfg);
    CHECK_FALSE(kildall::SsaProgramIndex(shape).valid());
    const auto r = kildall::solve_sparse(shape, Sccp{&shape});
    CHECK(r.status() == kildall::SolveStatus::invalid_input);
    CHECK(r.lookup(0) == nullptr);
  }
}

TEST_CASE("an index of an invalid shape is not valid, and a solve over it reports invalid input") {
  classic::SsaProgram program;
  program.blocks.resize(1);
  program.values.push_back({classic::Op::constant, 0, 3});
  program.blocks[0].values.push_back(0);
  const auto cfg = classic::control_flow_graph(program);
  const auto good = classic::ssa_shape(program, cfg);
  CHECK(kildall::SsaProgramIndex(good).valid());
  const auto bad_entry = classic::ssa_shape(program, cfg, /*entry=*/5);
  const kildall::SsaProgramIndex index(bad_entry);
  CHECK_FALSE(index.valid());
  const classic::ConstantPropagation<decltype(bad_entry)> sccp{&bad_entry};
  const auto r = kildall::solve_sparse(index, sccp);
  CHECK(r.status() == kildall::SolveStatus::invalid_input);
  CHECK(r.lookup(0) == nullptr);
}

TEST_CASE("a value placed twice is invalid input, whether the values before it sit at their own index or not") {
  // Three constants in one block, listed in these orders: the index keeps no table of positions
  // while each value sits at its own index, and must still notice the second placing.
  for (const std::vector<std::size_t>& order :
       {std::vector<std::size_t>{0, 1, 0}, std::vector<std::size_t>{1, 0, 1}, std::vector<std::size_t>{0, 2, 1, 2},
        std::vector<std::size_t>{0, 1, 2}, std::vector<std::size_t>{2, 0, 1}, std::vector<std::size_t>{0, 2, 1}}) {
    CAPTURE(order);
    classic::SsaProgram program;
    program.blocks.resize(1);
    for (std::int64_t c = 0; c < 3; ++c) program.values.push_back({classic::Op::constant, 0, 4 + c});
    program.blocks[0].values = order;
    const auto cfg = classic::control_flow_graph(program);
    const auto shape = classic::ssa_shape(program, cfg);
    const bool twice = std::set<std::size_t>(order.begin(), order.end()).size() != order.size();
    CHECK(kildall::SsaProgramIndex(shape).valid() == !twice);
    const auto r = kildall::solve_sparse(shape, Sccp{&shape});
    if (twice) {
      CHECK(r.status() == kildall::SolveStatus::invalid_input);
      continue;
    }
    REQUIRE(r.converged());
    for (std::size_t v = 0; v < 3; ++v) {  // each constant, wherever it is listed
      REQUIRE(r.lookup(v) != nullptr);
      CHECK(r.lookup(v)->if_constant() != nullptr);
      CHECK(*r.lookup(v)->if_constant() == 4 + static_cast<std::int64_t>(v));
    }
  }
}
