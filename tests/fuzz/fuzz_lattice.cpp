// Fuzz target: the lattice library (kildall/lattice/*) against the law kit
// (kildall/lattice/laws.hpp). The bytes choose a lattice and a sequence of
// operations (fresh elements, join, meet, widen, narrow) that builds a pool
// of up to 7 elements; the kit then checks every law on every pair and triple
// of the pool (exhaustive mode). For intervals it also checks that each
// reusable transfer function (kildall/lattice/interval_transfer.hpp) is
// monotone on the pool and sound for concrete members of its operands, with
// the reference IR's arithmetic (kildall/ir/arith.hpp) as the concrete
// semantics.

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include <kildall/ir/arith.hpp>
#include <kildall/ir/builtin_ops.hpp>
#include <kildall/lattice/bitset.hpp>
#include <kildall/lattice/flat.hpp>
#include <kildall/lattice/interval.hpp>
#include <kildall/lattice/interval_transfer.hpp>
#include <kildall/lattice/laws.hpp>
#include <kildall/lattice/lifted.hpp>
#include <kildall/lattice/map.hpp>
#include <kildall/lattice/powerset.hpp>
#include <kildall/lattice/product.hpp>

#include "fuzz_input.hpp"

using namespace kildall;
using fuzz::FuzzInput;

namespace {

constexpr std::size_t max_pool = 7;

using FlatInt = Flat<std::int64_t>;
using MapOfFlat = MapLattice<int, FlatInt>;
using FlatBits = ReducedProduct<NoReduction, FlatInt, Bitset>;
using LiftedFlat = Lifted<FlatInt>;

// Fresh elements of each lattice, from the bytes.
Interval fresh_interval(FuzzInput& in, unsigned width) {
  const std::uint64_t mask = ir::width_mask(width);
  const auto bits = [&] {
    switch (in.below(5)) {
      case 0: return std::uint64_t{0};
      case 1: return mask;
      case 2: return std::uint64_t{1} << (width - 1);
      case 3: return in.below(8) & mask;
      default: return in.u64() & mask;
    }
  };
  const std::uint64_t a = bits(), b = bits();
  const auto to_signed = [&](std::uint64_t x) { return ir::sign_extend(x, width); };
  switch (in.below(6)) {
    case 0: return Interval::empty(width);
    case 1: return Interval::full(width);
    case 2: return Interval::constant(width, a);
    case 3: return Interval::from_unsigned(width, std::min(a, b), std::max(a, b));
    case 4: return Interval::from_signed(width, std::min(to_signed(a), to_signed(b)), std::max(to_signed(a), to_signed(b)));
    default: {
      const std::uint64_t c = bits(), d = bits();
      return Interval::from_bounds(width, std::min(a, b), std::max(a, b), std::min(to_signed(c), to_signed(d)),
                                   std::max(to_signed(c), to_signed(d)));
    }
  }
}
FlatInt fresh_flat(FuzzInput& in) {
  switch (in.below(4)) {
    case 0: return FlatInt::bottom();
    case 1: return FlatInt::top();
    default: return FlatInt::of(static_cast<std::int64_t>(in.below(4)) - 1);
  }
}
Bitset fresh_bitset(FuzzInput& in) {
  Bitset b(in.below(3) == 0 ? 0 : in.below(140));
  const std::size_t n = in.below(6);
  for (std::size_t i = 0; i < n; ++i) b.set(in.below(140));
  return b;
}
MayPowerset<int> fresh_powerset(FuzzInput& in) {
  if (in.below(8) == 0) return MayPowerset<int>::top();
  MayPowerset<int> s;
  const std::size_t n = in.below(5);
  for (std::size_t i = 0; i < n; ++i) s.insert(static_cast<int>(in.below(6)));
  return s;
}
MustPowerset<int> fresh_must(FuzzInput& in) {
  if (in.below(8) == 0) return MustPowerset<int>::bottom();
  MustPowerset<int> s = MustPowerset<int>::empty();
  const std::size_t n = in.below(5);
  std::vector<int> items;
  for (std::size_t i = 0; i < n; ++i) items.push_back(static_cast<int>(in.below(6)));
  return MustPowerset<int>(items.begin(), items.end());
}
MapOfFlat fresh_map(FuzzInput& in) {
  MapOfFlat m = in.below(8) == 0 ? MapOfFlat::top() : MapOfFlat::bottom();
  const std::size_t n = in.below(4);
  for (std::size_t i = 0; i < n; ++i) m.set(static_cast<int>(in.below(4)), fresh_flat(in));
  return m;
}
FlatBits fresh_product(FuzzInput& in) { return FlatBits(fresh_flat(in), fresh_bitset(in)); }
LiftedFlat fresh_lifted(FuzzInput& in) {
  switch (in.below(4)) {
    case 0: return LiftedFlat::bottom();
    case 1: return LiftedFlat::top();
    default: return LiftedFlat::of(fresh_flat(in));
  }
}

// A pool of elements: fresh ones and the results of lattice operations on earlier ones.
template <class L, class Fresh>
std::vector<L> build_pool(FuzzInput& in, Fresh fresh) {
  std::vector<L> pool;
  const std::size_t size = 2 + in.below(max_pool - 1);
  while (pool.size() < size) {
    const unsigned op = pool.empty() ? 0u : static_cast<unsigned>(in.below(5));
    if (op == 0) {
      pool.push_back(fresh(in));
      continue;
    }
    L a = pool[in.below(pool.size())];
    const L& b = pool[in.below(pool.size())];
    if (op == 1) {
      (void)a.join(b);
    } else if (op == 2) {
      if constexpr (MeetSemiLattice<L>) (void)a.meet(b);
    } else if (op == 3) {
      if constexpr (WidenableLattice<L>) (void)a.widen(b);
    } else {
      if constexpr (NarrowableLattice<L>) {
        if (b.leq(a)) (void)a.narrow(b);
      }
    }
    pool.push_back(std::move(a));
  }
  return pool;
}

template <class L>
std::string describe(const std::vector<L>& pool) {
  std::ostringstream out;
  out << "pool:";
  for (const L& x : pool) {
    if constexpr (laws::detail::Streamable<L>) out << "\n  " << x;
  }
  return out.str();
}

template <class L, class Fresh>
void check_lattice(FuzzInput& in, const char* name, Fresh fresh) {
  const std::vector<L> pool = build_pool<L>(in, fresh);
  laws::Options options;
  options.seed = in.u64();
  options.chains = 4;
  options.chain_length = 24;
  const laws::Report report = laws::check_all_laws(pool, options);
  fuzz::fuzz_check(report.ok(), "lattice law violated",
                   [&] { return std::string(name) + ": " + report.failures() + "\n" + describe(pool); });
}

// Concrete members of a non-empty interval (its ends and a few more).
std::vector<std::uint64_t> members(const Interval& x, FuzzInput& in) {
  std::vector<std::uint64_t> out;
  const unsigned w = x.width();
  const std::uint64_t mask = ir::width_mask(w);
  const std::uint64_t candidates[] = {x.umin(), x.umax(), static_cast<std::uint64_t>(x.smin()) & mask,
                                      static_cast<std::uint64_t>(x.smax()) & mask,
                                      x.umin() + (x.umax() - x.umin()) / 2, (x.umin() + in.u64() % 64) & mask,
                                      (static_cast<std::uint64_t>(x.smin()) + in.below(16)) & mask};
  for (const std::uint64_t c : candidates)
    if (x.contains(c)) out.push_back(c);
  return out;
}

void check_interval_transfers(FuzzInput& in, unsigned width) {
  const std::vector<Interval> pool = build_pool<Interval>(in, [&](FuzzInput& i) { return fresh_interval(i, width); });
  const ir::BinaryArithRecord& t = ir::binary_arith_ops[in.below(ir::binary_arith_ops.size())];  // the IR's table
  const std::string name(t.name);
  // Monotone on the pool.
  const laws::Report report = laws::check_monotone_binary(pool, t.infer_ranges);
  fuzz::fuzz_check(report.ok(), "interval transfer not monotone",
                   [&] { return name + ": " + report.failures() + "\n" + describe(pool); });
  // Sound for members.
  for (const Interval& a : pool) {
    if (a.is_empty()) continue;
    for (const Interval& b : pool) {
      if (b.is_empty()) continue;
      const Interval r = t.infer_ranges(a, b);
      for (const std::uint64_t x : members(a, in))
        for (const std::uint64_t y : members(b, in)) {
          const ir::ArithResult c = ir::evaluate_binary(ir::code_of(t.code), width, x, y);
          if (!c.defined()) continue;
          fuzz::fuzz_check(r.contains(c.value), "interval transfer unsound", [&] {
            std::ostringstream out;
            out << name << " i" << width << ": " << a << " op " << b << " = " << r << ", but " << x << " op " << y
                << " = " << c.value;
            return out.str();
          });
        }
    }
  }
  // Casts and comparisons.
  static const unsigned widths[] = {1, 2, 3, 4, 5, 8, 16, 32, 64};
  const unsigned to = widths[in.below(std::size(widths))];
  for (const Interval& a : pool) {
    if (a.is_empty()) continue;
    for (const std::uint64_t x : members(a, in)) {
      if (to < width) {
        const Interval r = infer_trunc(a, to);
        const std::uint64_t c = ir::evaluate_cast(ir::code_of(ir::BuiltinOp::trunci), width, to, x);
        fuzz::fuzz_check(r.contains(c), "infer_trunc unsound", [&] {
          std::ostringstream out;
          out << a << " to i" << to << " = " << r << " misses " << c;
          return out.str();
        });
      } else if (to > width) {
        for (const ir::BuiltinOp op : {ir::BuiltinOp::extsi, ir::BuiltinOp::extui}) {
          const Interval r = op == ir::BuiltinOp::extsi ? infer_sext(a, to) : infer_zext(a, to);
          const std::uint64_t c = ir::evaluate_cast(ir::code_of(op), width, to, x);
          fuzz::fuzz_check(r.contains(c), "infer_sext/zext unsound", [&] {
            std::ostringstream out;
            out << (op == ir::BuiltinOp::extsi ? "sext " : "zext ") << a << " to i" << to << " = " << r << " misses " << c;
            return out.str();
          });
        }
      }
    }
    for (const Interval& b : pool) {
      if (b.is_empty()) continue;
      const auto pred = static_cast<CmpPredicate>(in.below(10));
      const std::optional<bool> decided = infer_cmp(static_cast<CmpPredicate>(pred), a, b);
      if (!decided) continue;
      for (const std::uint64_t x : members(a, in))
        for (const std::uint64_t y : members(b, in))
          fuzz::fuzz_check(ir::evaluate_compare(pred, x, y, width) == *decided, "infer_cmp unsound", [&] {
            std::ostringstream out;
            out << ir::predicate_name(pred) << " " << a << ", " << b << " decided " << *decided << " but " << x
                << ", " << y << " disagree";
            return out.str();
          });
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzInput in(data, size);
  static const unsigned widths[] = {1, 2, 3, 4, 5, 8, 16, 32, 64};
  switch (in.below(9)) {
    case 0:
    case 1: {
      const unsigned w = widths[in.below(std::size(widths))];
      check_lattice<Interval>(in, "Interval", [w](FuzzInput& i) { return fresh_interval(i, w); });
      break;
    }
    case 2: check_interval_transfers(in, widths[in.below(std::size(widths))]); break;
    case 3: check_lattice<FlatInt>(in, "Flat<int64>", fresh_flat); break;
    case 4: check_lattice<Bitset>(in, "Bitset", fresh_bitset); break;
    case 5:
      if (in.below(2)) check_lattice<MayPowerset<int>>(in, "MayPowerset<int>", fresh_powerset);
      else check_lattice<MustPowerset<int>>(in, "MustPowerset<int>", fresh_must);
      break;
    case 6: check_lattice<MapOfFlat>(in, "MapLattice<int, Flat>", fresh_map); break;
    case 7: check_lattice<FlatBits>(in, "ReducedProduct<Flat, Bitset>", fresh_product); break;
    default: check_lattice<LiftedFlat>(in, "Lifted<Flat>", fresh_lifted); break;
  }
  return 0;
}
