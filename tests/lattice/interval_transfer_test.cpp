// Tests of kildall/lattice/interval_transfer.hpp, in the style of LLVM's
// ConstantRange tests. The oracle is concrete execution: a plain 64-bit
// implementation of each MLIR `arith` operation at width w, written
// independently of the header (no __int128, no parts), applied to member
// pairs. Soundness: every concrete result is a member of the abstract result.
// Tightness: the abstract result equals the closure (least Interval) of the
// concrete results; measured exhaustively over every pair of non-empty
// 4-bit intervals and reported per operation.
#include <kildall/lattice/interval_transfer.hpp>
#include <kildall/lattice/laws.hpp>

#include "interval_oracle.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <iomanip>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

using kildall::CmpPredicate;
using kildall::Interval;

namespace {

using Bits = std::uint64_t;
using ConcreteResult = std::optional<Bits>;

using namespace kildall::test;  // interval_oracle.hpp

// ------------------------------------------------ concrete MLIR arith semantics
// std::nullopt marks undefined behaviour / poison, excluded from the semantics.
ConcreteResult c_add(unsigned w, Bits x, Bits y) { return (x + y) & mask_of(w); }
ConcreteResult c_sub(unsigned w, Bits x, Bits y) { return (x - y) & mask_of(w); }
ConcreteResult c_mul(unsigned w, Bits x, Bits y) { return (x * y) & mask_of(w); }
ConcreteResult c_and(unsigned, Bits x, Bits y) { return x & y; }
ConcreteResult c_or(unsigned, Bits x, Bits y) { return x | y; }
ConcreteResult c_xor(unsigned, Bits x, Bits y) { return x ^ y; }
ConcreteResult c_shl(unsigned w, Bits x, Bits y) {
  if (y >= w) return std::nullopt;
  return (x << y) & mask_of(w);
}
ConcreteResult c_shru(unsigned w, Bits x, Bits y) {
  if (y >= w) return std::nullopt;
  return x >> y;
}
ConcreteResult c_shrs(unsigned w, Bits x, Bits y) {
  if (y >= w) return std::nullopt;
  return bits_of(w, signed_of(w, x) >> y);
}
ConcreteResult c_divu(unsigned, Bits x, Bits y) {
  if (y == 0) return std::nullopt;
  return x / y;
}
ConcreteResult c_divs(unsigned w, Bits x, Bits y) {
  if (y == 0 || (signed_of(w, x) == smin_of(w) && signed_of(w, y) == -1)) return std::nullopt;
  return bits_of(w, signed_of(w, x) / signed_of(w, y));
}
ConcreteResult c_floordivs(unsigned w, Bits x, Bits y) {
  if (y == 0 || (signed_of(w, x) == smin_of(w) && signed_of(w, y) == -1)) return std::nullopt;
  const std::int64_t a = signed_of(w, x), b = signed_of(w, y);
  const std::int64_t q = a / b;
  return bits_of(w, (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q);
}
ConcreteResult c_ceildivs(unsigned w, Bits x, Bits y) {
  if (y == 0 || (signed_of(w, x) == smin_of(w) && signed_of(w, y) == -1)) return std::nullopt;
  const std::int64_t a = signed_of(w, x), b = signed_of(w, y);
  const std::int64_t q = a / b;
  return bits_of(w, (a % b != 0 && (a < 0) == (b < 0)) ? q + 1 : q);
}
ConcreteResult c_ceildivu(unsigned, Bits x, Bits y) {
  if (y == 0) return std::nullopt;
  return x / y + (x % y != 0 ? 1 : 0);
}
ConcreteResult c_remu(unsigned, Bits x, Bits y) {
  if (y == 0) return std::nullopt;
  return x % y;
}
ConcreteResult c_rems(unsigned w, Bits x, Bits y) {
  if (y == 0 || (signed_of(w, x) == smin_of(w) && signed_of(w, y) == -1)) return std::nullopt;
  return bits_of(w, signed_of(w, x) % signed_of(w, y));
}
ConcreteResult c_mins(unsigned w, Bits x, Bits y) { return signed_of(w, x) <= signed_of(w, y) ? x : y; }
ConcreteResult c_maxs(unsigned w, Bits x, Bits y) { return signed_of(w, x) >= signed_of(w, y) ? x : y; }
ConcreteResult c_minu(unsigned, Bits x, Bits y) { return std::min(x, y); }
ConcreteResult c_maxu(unsigned, Bits x, Bits y) { return std::max(x, y); }

struct BinaryOp {
  const char* name;
  Interval (*abstract)(const Interval&, const Interval&);
  ConcreteResult (*concrete)(unsigned, Bits, Bits);
  // Largest accepted share (%) of 4-bit operand pairs whose result is not the
  // closure of the concrete results; 0 for the operations documented exact.
  double max_non_tight_percent;
  // '+', '-' or '*': also compare with MLIR's per-view method (below).
  char per_view = 0;
};

// MLIR-style reference for add/sub/mul (InferIntRangeCommon): each view is
// computed from the same view of the operands by corner arithmetic, a view
// that can overflow becomes full, and the two views are intersected.
Interval per_view_reference(const Interval& a, const Interval& b, char op) {
  const unsigned w = a.width();
  const auto f = [op](std::int64_t p, std::int64_t q) { return op == '+' ? p + q : op == '-' ? p - q : p * q; };
  const auto u = [](Bits v) { return static_cast<std::int64_t>(v); };
  const std::array<std::int64_t, 4> uc = {f(u(a.umin()), u(b.umin())), f(u(a.umin()), u(b.umax())),
                                          f(u(a.umax()), u(b.umin())), f(u(a.umax()), u(b.umax()))};
  const std::array<std::int64_t, 4> sc = {f(a.smin(), b.smin()), f(a.smin(), b.smax()), f(a.smax(), b.smin()),
                                          f(a.smax(), b.smax())};
  const auto [ulo, uhi] = std::minmax_element(uc.begin(), uc.end());
  const auto [slo, shi] = std::minmax_element(sc.begin(), sc.end());
  const bool u_ok = *ulo >= 0 && *uhi <= static_cast<std::int64_t>(mask_of(w));
  const bool s_ok = *slo >= smin_of(w) && *shi <= smax_of(w);
  return Interval::from_bounds(w, u_ok ? static_cast<Bits>(*ulo) : 0, u_ok ? static_cast<Bits>(*uhi) : mask_of(w),
                               s_ok ? *slo : smin_of(w), s_ok ? *shi : smax_of(w));
}

// Thresholds: measured values (see docs/lattices.md, "Interval") rounded up.
const std::array<BinaryOp, 20> binary_ops = {{
    {"add", kildall::infer_add, c_add, 0.0, '+'},
    {"sub", kildall::infer_sub, c_sub, 0.0, '-'},
    {"mul", kildall::infer_mul, c_mul, 36.0, '*'},
    {"and", kildall::infer_and, c_and, 0.0},
    {"or", kildall::infer_or, c_or, 0.0},
    {"xor", kildall::infer_xor, c_xor, 0.0},
    {"shl", kildall::infer_shl, c_shl, 0.0},
    {"shrs", kildall::infer_shrs, c_shrs, 0.0},
    {"shru", kildall::infer_shru, c_shru, 0.0},
    {"divs", kildall::infer_divs, c_divs, 0.0},
    {"divu", kildall::infer_divu, c_divu, 0.0},
    {"floordivs", kildall::infer_floordivs, c_floordivs, 0.0},
    {"ceildivs", kildall::infer_ceildivs, c_ceildivs, 0.0},
    {"ceildivu", kildall::infer_ceildivu, c_ceildivu, 0.0},
    {"rems", kildall::infer_rems, c_rems, 2.5},
    {"remu", kildall::infer_remu, c_remu, 3.2},
    {"mins", kildall::infer_mins, c_mins, 0.0},
    {"maxs", kildall::infer_maxs, c_maxs, 0.0},
    {"minu", kildall::infer_minu, c_minu, 0.0},
    {"maxu", kildall::infer_maxu, c_maxu, 0.0},
}};

// ------------------------------------------------ sets of members (w <= 6)
// The same set computed from the two parts (w <= 6): the non-negative run
// [umin, smax] and the negative run [smin, umax], as interval_test.cpp checks.
Bits run_mask(Bits lo, Bits hi) { return (hi >= 63 ? ~Bits{0} : (Bits{2} << hi) - 1) & ~((Bits{1} << lo) - 1); }
Bits members_fast(const Interval& x) {
  Bits m = 0;
  if (x.is_empty()) return m;
  if (x.smax() >= 0) m |= run_mask(x.umin(), static_cast<Bits>(x.smax()));
  if (x.smin() < 0) m |= run_mask(bits_of(x.width(), x.smin()), x.umax());
  return m;
}

// `closure` with bit tricks (w <= 6): the least and greatest member of the
// whole set (unsigned view) and of its non-negative and negative halves.
Interval closure_fast(unsigned w, Bits set) {
  if (set == 0) return Interval::empty(w);
  const auto lowest = [](Bits m) { return static_cast<Bits>(__builtin_ctzll(m)); };
  const auto highest = [](Bits m) { return static_cast<Bits>(63 - __builtin_clzll(m)); };
  const Bits nonneg_values = (Bits{1} << (Bits{1} << (w - 1))) - 1;  // bits 0 .. 2^(w-1)-1
  const Bits nonneg = set & nonneg_values, neg = set & ~nonneg_values;
  return Interval::from_bounds(w, lowest(set), highest(set), neg ? signed_of(w, lowest(neg)) : signed_of(w, lowest(nonneg)),
                               nonneg ? signed_of(w, highest(nonneg)) : signed_of(w, highest(neg)));
}

// Every non-empty canonical interval of width w: the union of a run of
// non-negative values and a run of negative values, each possibly absent.
std::vector<Interval> all_nonempty(unsigned w) {
  const Bits h = Bits{1} << (w - 1);
  std::vector<Interval> nonneg{Interval::empty(w)}, neg{Interval::empty(w)};
  for (Bits lo = 0; lo < h; ++lo)
    for (Bits hi = lo; hi < h; ++hi) {
      nonneg.push_back(Interval::from_unsigned(w, lo, hi));
      neg.push_back(Interval::from_unsigned(w, lo + h, hi + h));
    }
  std::vector<Interval> out;
  for (const Interval& p : nonneg)
    for (const Interval& n : neg) {
      Interval x = p;
      (void)x.join(n);
      if (!x.is_empty()) out.push_back(x);
    }
  return out;
}

std::string percent(std::size_t part, std::size_t whole) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(3) << (whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole))
      << "%";
  return out.str();
}

struct Measurement {
  std::size_t pairs = 0, unsound = 0, non_tight = 0, non_tight_unsigned = 0, non_tight_signed = 0;
  std::size_t looser_than_per_view = 0, tighter_than_per_view = 0;
  std::string first_unsound, first_non_tight;
};

// Compares the abstract result with the concrete results of one operand pair.
void judge(Measurement& m, const Interval& a, const Interval& b, const Interval& abstract, Bits concrete_set,
           const Interval& tightest) {
  ++m.pairs;
  const Bits abstract_set = members_fast(abstract);
  if ((concrete_set & ~abstract_set) != 0) {
    if (m.unsound++ == 0) {
      std::ostringstream out;
      out << "a = " << a << ", b = " << b << ": result " << abstract << " misses a value of " << tightest;
      m.first_unsound = out.str();
    }
  }
  if (!(abstract == tightest)) {
    if (m.non_tight++ == 0) {
      std::ostringstream out;
      out << "a = " << a << ", b = " << b << ": result " << abstract << ", tightest " << tightest;
      m.first_non_tight = out.str();
    }
    const bool empty_mismatch = abstract.is_empty() != tightest.is_empty();
    if (empty_mismatch || abstract.umin() != tightest.umin() || abstract.umax() != tightest.umax())
      ++m.non_tight_unsigned;
    if (empty_mismatch || abstract.smin() != tightest.smin() || abstract.smax() != tightest.smax())
      ++m.non_tight_signed;
  }
}

// Every pair of non-empty intervals of width w (w <= 4) and every pair of members.
Measurement exhaustive(const BinaryOp& op, unsigned w, const std::vector<Interval>& all) {
  const std::size_t n = all.size();
  const Bits values = mask_of(w) + 1;
  std::vector<Bits> sets(n);
  std::vector<std::vector<Bits>> member_list(n);
  for (std::size_t i = 0; i < n; ++i) {
    sets[i] = members(all[i]);
    for (Bits v = 0; v < values; ++v)
      if ((sets[i] >> v) & 1) member_list[i].push_back(v);
  }
  // row[x * n + j]: the set of results of x op y over y in all[j].
  std::vector<Bits> row(values * n, 0);
  for (Bits x = 0; x < values; ++x)
    for (std::size_t j = 0; j < n; ++j)
      for (Bits y = 0; y < values; ++y)
        if ((sets[j] >> y) & 1)
          if (const ConcreteResult r = op.concrete(w, x, y)) row[x * n + j] |= Bits{1} << *r;
  Measurement m;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      Bits concrete = 0;
      for (const Bits x : member_list[i]) concrete |= row[x * n + j];
      const Interval tightest = closure_fast(w, concrete);
      const Interval abstract = op.abstract(all[i], all[j]);
      judge(m, all[i], all[j], abstract, concrete, tightest);
      if (op.per_view != 0) {
        const Interval reference = per_view_reference(all[i], all[j], op.per_view);
        if (!abstract.leq(reference)) ++m.looser_than_per_view;
        if (abstract.leq(reference) && !(abstract == reference)) ++m.tighter_than_per_view;
      }
    }
  return m;
}

// ------------------------------------------------ random intervals, any width
Bits interesting_operand_bits(unsigned w, std::mt19937_64& rng) {
  const Bits m = mask_of(w);
  const Bits h = Bits{1} << (w - 1);
  std::uniform_int_distribution<int> pick(0, 6);
  std::uniform_int_distribution<Bits> any(0, m);
  std::uniform_int_distribution<Bits> small(0, 3);
  switch (pick(rng)) {
    case 0: return small(rng) & m;
    case 1: return (h - 1 - small(rng)) & m;
    case 2: return (h + small(rng)) & m;
    case 3: return (m - small(rng)) & m;
    case 4: return any(rng) >> std::uniform_int_distribution<unsigned>(0, w - 1)(rng);  // small magnitudes
    default: return any(rng);
  }
}

Interval random_nonempty(unsigned w, std::mt19937_64& rng) {
  std::uniform_int_distribution<int> shape(0, 9);
  for (;;) {
    Bits a = interesting_operand_bits(w, rng), b = interesting_operand_bits(w, rng);
    if (a > b) std::swap(a, b);
    Interval x = Interval::empty(w);
    switch (shape(rng)) {
      case 0: x = Interval::constant(w, a); break;
      case 1: x = Interval::full(w); break;
      case 2: x = Interval::from_signed(w, std::min(signed_of(w, a), signed_of(w, b)), std::max(signed_of(w, a), signed_of(w, b))); break;
      case 3: {
        Bits c = interesting_operand_bits(w, rng), d = interesting_operand_bits(w, rng);
        if (c > d) std::swap(c, d);
        x = Interval::from_unsigned(w, a, b).nonnegative_part();
        (void)x.join(Interval::from_unsigned(w, c, d).negative_part());
        break;
      }
      default: x = Interval::from_unsigned(w, a, b); break;
    }
    if (!x.is_empty()) return x;
  }
}

// Members worth testing: the ends of both parts, and random members.
std::vector<Bits> sample_members(const Interval& x, std::mt19937_64& rng, int random_count) {
  std::vector<Bits> out;
  std::vector<std::pair<Bits, Bits>> parts;
  for (const Interval& p : {x.nonnegative_part(), x.negative_part()})
    if (!p.is_empty()) parts.emplace_back(p.umin(), p.umax());
  for (const auto& [lo, hi] : parts) {
    out.push_back(lo);
    out.push_back(hi);
  }
  for (int i = 0; i < random_count; ++i) {
    const auto& [lo, hi] = parts[std::uniform_int_distribution<std::size_t>(0, parts.size() - 1)(rng)];
    out.push_back(std::uniform_int_distribution<Bits>(lo, hi)(rng));
  }
  return out;
}

bool cmp_truth(CmpPredicate p, unsigned w, Bits x, Bits y) {
  switch (p) {
    case CmpPredicate::eq: return x == y;
    case CmpPredicate::ne: return x != y;
    case CmpPredicate::slt: return signed_of(w, x) < signed_of(w, y);
    case CmpPredicate::sle: return signed_of(w, x) <= signed_of(w, y);
    case CmpPredicate::sgt: return signed_of(w, x) > signed_of(w, y);
    case CmpPredicate::sge: return signed_of(w, x) >= signed_of(w, y);
    case CmpPredicate::ult: return x < y;
    case CmpPredicate::ule: return x <= y;
    case CmpPredicate::ugt: return x > y;
    case CmpPredicate::uge: return x >= y;
  }
  return false;
}

constexpr std::array<CmpPredicate, 10> all_predicates = {
    CmpPredicate::eq,  CmpPredicate::ne,  CmpPredicate::slt, CmpPredicate::sle, CmpPredicate::sgt,
    CmpPredicate::sge, CmpPredicate::ult, CmpPredicate::ule, CmpPredicate::ugt, CmpPredicate::uge};

}  // namespace

TEST_CASE("binary operations: sound and measured tightness, exhaustive over all pairs of 4-bit intervals") {
  const unsigned w = 4;
  const std::vector<Interval> all = all_nonempty(w);
  REQUIRE(all.size() == 37 * 37 - 1);
  for (Bits set = 0; set < (Bits{1} << 16); set += 7) REQUIRE(closure_fast(w, set) == closure(w, set));
  for (const BinaryOp& op : binary_ops) {
    const std::string name = op.name;
    CAPTURE(name);
    const Measurement m = exhaustive(op, w, all);
    MESSAGE(name << ": " << m.pairs << " pairs, non-tight " << percent(m.non_tight, m.pairs) << " (unsigned view "
                    << percent(m.non_tight_unsigned, m.pairs) << ", signed view "
                    << percent(m.non_tight_signed, m.pairs) << ")"
                    << (m.non_tight ? ", e.g. " + m.first_non_tight : std::string()));
    CHECK_MESSAGE(m.unsound == 0, m.first_unsound);
    CHECK(100.0 * static_cast<double>(m.non_tight) / static_cast<double>(m.pairs) <= op.max_non_tight_percent);
    if (op.per_view != 0) {
      MESSAGE(name << ": strictly tighter than MLIR's per-view method on "
                      << percent(m.tighter_than_per_view, m.pairs) << " of pairs");
      CHECK(m.looser_than_per_view == 0);  // never looser
    }
  }
}

TEST_CASE("binary operations: sound, and exact where documented, exhaustively at 1, 2 and 3 bits") {
  for (unsigned w = 1; w <= 3; ++w) {
    const std::vector<Interval> all = all_nonempty(w);
    for (const BinaryOp& op : binary_ops) {
      const std::string name = op.name;
      CAPTURE(w);
      CAPTURE(name);
      const Measurement m = exhaustive(op, w, all);
      CHECK_MESSAGE(m.unsound == 0, m.first_unsound);
      if (op.max_non_tight_percent == 0.0) CHECK_MESSAGE(m.non_tight == 0, m.first_non_tight);
    }
  }
}

TEST_CASE("binary operations: sound, and exact where documented, on random pairs of 5- and 6-bit intervals") {
  std::mt19937_64 rng(57);
  for (unsigned w = 5; w <= 6; ++w) {  // member sets are 64-bit masks
    for (const BinaryOp& op : binary_ops) {
      const std::string name = op.name;
      CAPTURE(w);
      CAPTURE(name);
      Measurement m;
      for (int pair = 0; pair < 60; ++pair) {
        const Interval a = random_nonempty(w, rng), b = random_nonempty(w, rng);
        const Bits sa = members(a), sb = members(b);
        IntervalHull concrete(w);
        Bits concrete_set = 0;
        for (Bits x = 0; x <= mask_of(w); ++x) {
          if (!((sa >> x) & 1)) continue;
          for (Bits y = 0; y <= mask_of(w); ++y) {
            if (!((sb >> y) & 1)) continue;
            if (const ConcreteResult r = op.concrete(w, x, y)) {
              concrete.add(*r);
              concrete_set |= Bits{1} << *r;
            }
          }
        }
        judge(m, a, b, op.abstract(a, b), concrete_set, concrete.interval());
      }
      CHECK_MESSAGE(m.unsound == 0, m.first_unsound);
      if (op.max_non_tight_percent == 0.0) CHECK_MESSAGE(m.non_tight == 0, m.first_non_tight);
    }
  }
}

TEST_CASE("binary operations: sound at every width 1..64 (random intervals, boundary and random members)") {
  std::mt19937_64 rng(64);
  for (unsigned w = 1; w <= 64; ++w) {
    for (int pair = 0; pair < 120; ++pair) {
      const Interval a = random_nonempty(w, rng), b = random_nonempty(w, rng);
      const std::vector<Bits> xs = sample_members(a, rng, 5), ys = sample_members(b, rng, 5);
      for (const BinaryOp& op : binary_ops) {
        const Interval result = op.abstract(a, b);
        for (const Bits x : xs)
          for (const Bits y : ys) {
            const ConcreteResult r = op.concrete(w, x, y);
            if (r && !result.contains(*r)) {
              FAIL_CHECK(std::string(op.name) << " at " << w << " bits: " << a << " op " << b << " = " << result << " misses "
                                 << x << " op " << y << " = " << *r);
            }
          }
      }
    }
  }
}

TEST_CASE("binary operations are monotone (law kit): exhaustive at 2 bits, randomized at 4, 8 and 64") {
  std::vector<Interval> all2 = all_nonempty(2);
  all2.push_back(Interval::empty(2));
  for (const BinaryOp& op : binary_ops) {
    const std::string name = op.name;
    CAPTURE(name);
    const auto report = kildall::laws::check_monotone_binary(all2, op.abstract);
    CHECK_MESSAGE(report.ok(), report.failures());
    for (const unsigned w : {4u, 8u, 64u}) {
      CAPTURE(w);
      kildall::laws::Options options;
      options.seed = w;
      options.samples = 1500;
      const auto gen = [w](std::mt19937_64& rng) { return random_nonempty(w, rng); };
      const auto random_report = kildall::laws::check_monotone_binary(gen, op.abstract, options);
      CHECK_MESSAGE(random_report.ok(), random_report.failures());
    }
  }
}

TEST_CASE("binary operations: empty operands give empty results; mixed widths throw") {
  for (const BinaryOp& op : binary_ops) {
    const std::string name = op.name;
    CAPTURE(name);
    for (const unsigned w : {1u, 4u, 64u}) {
      CHECK(op.abstract(Interval::empty(w), Interval::full(w)) == Interval::empty(w));
      CHECK(op.abstract(Interval::full(w), Interval::empty(w)) == Interval::empty(w));
    }
    CHECK_THROWS_AS((void)op.abstract(Interval::full(8), Interval::full(16)), std::invalid_argument);
  }
}

TEST_CASE("undefined behaviour and poison are excluded") {
  const Interval zero = Interval::constant(8, 0);
  for (const auto& f : {kildall::infer_divu, kildall::infer_divs, kildall::infer_remu, kildall::infer_rems}) {
    CHECK(f(Interval::full(8), zero).is_empty());
  }
  CHECK(kildall::infer_divs(Interval::constant(8, -128), Interval::constant(8, -1)).is_empty());
  CHECK(kildall::infer_rems(Interval::constant(8, -128), Interval::constant(8, -1)).is_empty());
  CHECK(kildall::infer_divs(Interval::from_signed(8, -128, -127), Interval::constant(8, -1)) ==
        Interval::constant(8, 127));
  for (const auto& f : {kildall::infer_shl, kildall::infer_shru, kildall::infer_shrs}) {
    CHECK(f(Interval::full(8), Interval::from_unsigned(8, 8, 255)).is_empty());
  }
  // Dividing by [0, 2] means dividing by 1 or 2.
  CHECK(kildall::infer_divu(Interval::constant(8, 100), Interval::from_unsigned(8, 0, 2)) ==
        Interval::from_unsigned(8, 50, 100));
}

TEST_CASE("examples from the noisy-arithmetic article and MLIR's per-view method") {
  // An i8 sign-extended to i32 and added to itself fits in 9 signed bits.
  const Interval x = kildall::infer_sext(Interval::full(8), 32);
  CHECK(kildall::infer_add(x, x) == Interval::from_signed(32, -128 * 2, 127 * 2));
  // Unsigned noise bounds multiply: [0, 12] * [0, 12] = [0, 144], no wrap at 32 bits.
  const Interval noise = Interval::from_unsigned(32, 0, 12);
  CHECK(kildall::infer_mul(noise, noise) == Interval::from_unsigned(32, 0, 144));
  // At 8 bits the same product wraps; the result stays sound.
  CHECK(kildall::infer_mul(Interval::from_unsigned(8, 0, 12), Interval::from_unsigned(8, 0, 12))
            .contains(static_cast<Bits>(144)));
}

TEST_CASE("trunc, sext and zext are exact (exhaustive from widths 1..5) and sound at 64 bits") {
  for (unsigned w = 1; w <= 5; ++w) {
    const std::vector<Interval> all = all_nonempty(w);
    for (unsigned nw = 1; nw <= 64; ++nw) {
      if (nw > 8 && nw != 32 && nw != 63 && nw != 64) continue;
      for (const Interval& x : all) {
        const Bits set = members(x);
        if (nw <= w) {
          IntervalHull h(nw);
          for (Bits v = 0; v <= mask_of(w); ++v)
            if ((set >> v) & 1) h.add(v & mask_of(nw));
          REQUIRE_MESSAGE(kildall::infer_trunc(x, nw) == h.interval(), x << " to " << nw);
        }
        if (nw >= w) {
          IntervalHull hs(nw), hz(nw);
          for (Bits v = 0; v <= mask_of(w); ++v) {
            if (!((set >> v) & 1)) continue;
            hs.add(bits_of(nw, signed_of(w, v)));
            hz.add(v);
          }
          REQUIRE_MESSAGE(kildall::infer_sext(x, nw) == hs.interval(), x << " to " << nw);
          REQUIRE_MESSAGE(kildall::infer_zext(x, nw) == hz.interval(), x << " to " << nw);
        }
      }
    }
  }
  std::mt19937_64 rng(99);
  for (unsigned w = 1; w <= 64; ++w) {
    for (int i = 0; i < 100; ++i) {
      const Interval x = random_nonempty(w, rng);
      const unsigned down = std::uniform_int_distribution<unsigned>(1, w)(rng);
      const unsigned up = std::uniform_int_distribution<unsigned>(w, 64)(rng);
      const Interval t = kildall::infer_trunc(x, down), s = kildall::infer_sext(x, up), z = kildall::infer_zext(x, up);
      for (const Bits v : sample_members(x, rng, 6)) {
        CHECK(t.contains(v & mask_of(down)));
        CHECK(s.contains(bits_of(up, signed_of(w, v))));
        CHECK(z.contains(v));
      }
    }
  }
  CHECK(kildall::infer_trunc(Interval::empty(8), 4) == Interval::empty(4));
  CHECK(kildall::infer_sext(Interval::empty(8), 16) == Interval::empty(16));
  CHECK_THROWS_AS((void)kildall::infer_trunc(Interval::full(8), 9), std::invalid_argument);
  CHECK_THROWS_AS((void)kildall::infer_trunc(Interval::full(8), 0), std::invalid_argument);
  CHECK_THROWS_AS((void)kildall::infer_sext(Interval::full(8), 4), std::invalid_argument);
  CHECK_THROWS_AS((void)kildall::infer_zext(Interval::full(8), 65), std::invalid_argument);
}

TEST_CASE("select joins the arms its condition allows (exhaustive, 3 bits)") {
  const std::vector<Interval> all = all_nonempty(3);
  for (const Interval& cond : {Interval::constant(1, 0), Interval::constant(1, 1), Interval::full(1)}) {
    for (const Interval& t : all)
      for (const Interval& f : all) {
        const Bits expected = (cond.contains(1) ? members(t) : 0) | (cond.contains(0) ? members(f) : 0);
        REQUIRE(kildall::infer_select(cond, t, f) == closure(3, expected));
      }
  }
  CHECK(kildall::infer_select(Interval::empty(1), Interval::full(3), Interval::full(3)).is_empty());
  CHECK_THROWS_AS((void)kildall::infer_select(Interval::full(2), Interval::full(3), Interval::full(3)),
                  std::invalid_argument);
  CHECK_THROWS_AS((void)kildall::infer_select(Interval::full(1), Interval::full(3), Interval::full(4)),
                  std::invalid_argument);
}

TEST_CASE("comparisons: every answer is the truth, and the truth is always found (exhaustive, 4 bits)") {
  const unsigned w = 4;
  const std::vector<Interval> all = all_nonempty(w);
  const std::size_t n = all.size();
  std::vector<Bits> sets(n);
  std::vector<std::vector<Bits>> member_list(n);
  for (std::size_t i = 0; i < n; ++i) {
    sets[i] = members(all[i]);
    for (Bits v = 0; v < 16; ++v)
      if ((sets[i] >> v) & 1) member_list[i].push_back(v);
  }
  for (const CmpPredicate p : all_predicates) {
    CAPTURE(static_cast<int>(p));
    // any_true[x * n + j]: x p y for some y in all[j]; all_true: for every y.
    std::vector<char> any_true(16 * n, 0), all_true(16 * n, 1);
    for (Bits x = 0; x < 16; ++x)
      for (std::size_t j = 0; j < n; ++j)
        for (Bits y = 0; y < 16; ++y)
          if ((sets[j] >> y) & 1) {
            const bool t = cmp_truth(p, w, x, y);
            any_true[x * n + j] = static_cast<char>(any_true[x * n + j] || t);
            all_true[x * n + j] = static_cast<char>(all_true[x * n + j] && t);
          }
    std::size_t wrong = 0, unknown_but_constant = 0;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        bool any = false, every = true;
        for (const Bits x : member_list[i]) {
          any = any || any_true[x * n + j];
          every = every && all_true[x * n + j];
        }
        const std::optional<bool> truth = every ? std::optional<bool>(true) : !any ? std::optional<bool>(false)
                                                                                  : std::nullopt;
        const std::optional<bool> answer = kildall::infer_cmp(p, all[i], all[j]);
        if (answer && answer != truth) ++wrong;
        if (!answer && truth) ++unknown_but_constant;
      }
    CHECK(wrong == 0);
    CHECK(unknown_but_constant == 0);
  }
  for (const CmpPredicate p : all_predicates) {  // the i1 form agrees with the optional<bool> form
    for (const Interval& a : all) {
      const Interval b = Interval::from_signed(w, -2, 3);
      const std::optional<bool> answer = kildall::infer_cmp(p, a, b);
      CHECK(kildall::infer_cmp_interval(p, a, b) ==
            (answer ? Interval::constant(1, *answer ? 1 : 0) : Interval::full(1)));
    }
  }
  CHECK(!kildall::infer_cmp(CmpPredicate::eq, Interval::empty(4), Interval::full(4)).has_value());
  CHECK(kildall::infer_cmp_interval(CmpPredicate::eq, Interval::empty(4), Interval::full(4)) == Interval::empty(1));
  CHECK_THROWS_AS((void)kildall::infer_cmp(CmpPredicate::eq, Interval::full(4), Interval::full(5)),
                  std::invalid_argument);
}

TEST_CASE("comparisons are sound at every width 1..64") {
  std::mt19937_64 rng(1064);
  for (unsigned w = 1; w <= 64; ++w) {
    for (int pair = 0; pair < 100; ++pair) {
      const Interval a = random_nonempty(w, rng), b = random_nonempty(w, rng);
      const std::vector<Bits> xs = sample_members(a, rng, 4), ys = sample_members(b, rng, 4);
      for (const CmpPredicate p : all_predicates) {
        const std::optional<bool> answer = kildall::infer_cmp(p, a, b);
        if (!answer) continue;
        for (const Bits x : xs)
          for (const Bits y : ys)
            if (cmp_truth(p, w, x, y) != *answer) FAIL_CHECK(a << " vs " << b << " predicate " << static_cast<int>(p));
      }
    }
  }
}

TEST_CASE("the example of docs/lattices.md, section Interval") {
  using kildall::Interval;
  const Interval noise = Interval::from_unsigned(8, 0, 12);
  CHECK(to_mlir_debug_string(noise) == "unsigned : [0, 12] signed : [0, 12]");
  const Interval product = kildall::infer_mul(noise, noise);
  CHECK(to_string(product) == "[-128, 127] u[0, 144]");  // unsigned [0, 144] crosses the sign boundary at 8 bits
  CHECK(kildall::infer_cmp(CmpPredicate::ult, product, Interval::constant(8, 145)) == std::optional<bool>(true));
  CHECK(!kildall::infer_cmp(CmpPredicate::slt, product, Interval::constant(8, 0)).has_value());
  CHECK(kildall::infer_divu(Interval::full(8), Interval::constant(8, 0)).is_empty());  // UB: no defined result
  Interval loop = Interval::constant(8, 0);
  (void)loop.widen(kildall::infer_add(loop, Interval::constant(8, 1)));  // i = i + 1 grew: jump to the limit
  CHECK(loop == Interval::from_signed(8, 0, 127));
}

TEST_CASE("infer_induction_variable contains every value a loop takes (exhaustive at 4 bits over signed intervals)") {
  // Oracle: run the loop `for (iv = lb; iv <s ub; iv += step)` (wrapping at 4 bits) for every
  // member triple of every triple of signed intervals of width 3 in a sample, and collect the
  // values inside the loop; each must lie in the inferred interval.
  constexpr unsigned w = 4;
  const auto to_signed = [](Bits bits) { return static_cast<std::int64_t>(bits << 60) >> 60; };
  std::vector<Interval> sample;
  for (std::int64_t lo = -8; lo < 8; lo += 3)
    for (std::int64_t hi = lo; hi < 8; hi += 2) sample.push_back(Interval::from_signed(w, lo, hi));
  std::size_t checked = 0, tight_bounds = 0;
  for (const Interval& lower : sample)
    for (const Interval& upper : sample)
      for (const Interval& step : sample) {
        const Interval iv = kildall::infer_induction_variable(lower, upper, step);
        for (std::int64_t lb = lower.smin(); lb <= lower.smax(); ++lb)
          for (std::int64_t ub = upper.smin(); ub <= upper.smax(); ++ub)
            for (std::int64_t st = step.smin(); st <= step.smax(); ++st) {
              Bits value = static_cast<Bits>(lb) & 15;
              for (int trip = 0; trip < 40 && to_signed(value) < ub; ++trip) {
                if (!iv.contains(value)) FAIL("iv " << to_signed(value) << " outside " << iv.smin() << ".." << iv.smax());
                ++checked;
                value = (value + static_cast<Bits>(st)) & 15;
              }
            }
        tight_bounds += iv.smax() == upper.smax() - 1 && upper.smax() > -8;
      }
  CHECK(checked > 100000);
  CHECK(tight_bounds > 0);
  // The usual loop: [0, 9] by 1 up to 10.
  const Interval counted = kildall::infer_induction_variable(Interval::constant(8, 0u), Interval::constant(8, 10u),
                                                             Interval::constant(8, 1u));
  CHECK(counted == Interval::from_signed(8, 0, 9));
}
