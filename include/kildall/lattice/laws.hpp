#pragma once
/// \file
/// The lattice law kit: property checks for the algebraic laws that the
/// lattice concepts (`kildall/lattice/concepts.hpp`) cannot express in types.
///
/// Method: property-based testing in the style of QuickCheck (Claessen &
/// Hughes, ICFP 2000), with two modes over the same laws:
///  - randomized: a user generator `L gen(std::mt19937_64&)`, a seed and a
///    number of samples. Pairs and triples are drawn both independently and
///    constructed to be ordered (`a ⊑ a ⊔ x`), so laws with a premise such as
///    transitivity or monotonicity are actually exercised;
///  - exhaustive: a `std::vector<L>` holding every element of a small domain;
///    every pair and triple is checked.
///
/// The kit does not depend on any test framework; each check returns a
/// `laws::Report` whose `ok()` and `failures()` plug into any of them:
///
///     auto report = kildall::laws::check_all_laws(gen, {.seed = 1, .samples = 500});
///     CHECK_MESSAGE(report.ok(), report.failures());
///
/// Every law stops at its first counterexample, which is described with the
/// user printer from `Hooks::print`, else `operator<<` when the type has one.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <kildall/lattice/change_result.hpp>
#include <kildall/lattice/concepts.hpp>

namespace kildall::laws {

/// The names under which laws appear in a `Report` (use them with
/// `Report::held` / `Report::find`).
namespace law {
inline constexpr std::string_view join_idempotent = "join idempotent";                 ///< a ⊔ a = a (also with `a.join(a)` on one object)
inline constexpr std::string_view join_commutative = "join commutative";               ///< a ⊔ b = b ⊔ a
inline constexpr std::string_view join_associative = "join associative";               ///< (a ⊔ b) ⊔ c = a ⊔ (b ⊔ c)
inline constexpr std::string_view join_reports_change = "join reports change";         ///< result is `changed` iff the value moved
inline constexpr std::string_view leq_reflexive = "leq reflexive";                     ///< a ⊑ a
inline constexpr std::string_view leq_antisymmetric = "leq antisymmetric";             ///< a ⊑ b ∧ b ⊑ a ⇒ a = b
inline constexpr std::string_view leq_transitive = "leq transitive";                   ///< a ⊑ b ∧ b ⊑ c ⇒ a ⊑ c
inline constexpr std::string_view leq_agrees_with_join = "leq agrees with join";       ///< a ⊑ b ⇔ a ⊔ b = b
inline constexpr std::string_view join_upper_bound = "join upper bound";               ///< a ⊑ a ⊔ b, b ⊑ a ⊔ b
inline constexpr std::string_view join_least = "join least upper bound";               ///< a ⊑ c ∧ b ⊑ c ⇒ a ⊔ b ⊑ c
inline constexpr std::string_view bottom_identity = "bottom is identity of join";      ///< ⊥ ⊔ a = a, ⊥ ⊑ a
inline constexpr std::string_view top_absorbs = "top absorbs join";                    ///< ⊤ ⊔ a = ⊤, a ⊑ ⊤
inline constexpr std::string_view meet_idempotent = "meet idempotent";                 ///< a ⊓ a = a (also with `a.meet(a)` on one object)
inline constexpr std::string_view meet_commutative = "meet commutative";               ///< a ⊓ b = b ⊓ a
inline constexpr std::string_view meet_associative = "meet associative";               ///< (a ⊓ b) ⊓ c = a ⊓ (b ⊓ c)
inline constexpr std::string_view meet_reports_change = "meet reports change";         ///< result is `changed` iff the value moved
inline constexpr std::string_view meet_lower_bound = "meet lower bound";               ///< a ⊓ b ⊑ a, a ⊓ b ⊑ b
inline constexpr std::string_view meet_greatest = "meet greatest lower bound";         ///< c ⊑ a ∧ c ⊑ b ⇒ c ⊑ a ⊓ b
inline constexpr std::string_view meet_bounds = "meet with bottom and top";            ///< ⊥ ⊓ a = ⊥, ⊤ ⊓ a = a
inline constexpr std::string_view absorption = "absorption";                           ///< a ⊔ (a ⊓ b) = a, a ⊓ (a ⊔ b) = a
inline constexpr std::string_view widen_upper_bound = "widen upper bound";             ///< a ⊑ a ∇ b, b ⊑ a ∇ b
inline constexpr std::string_view widen_reports_change = "widen reports change";       ///< result is `changed` iff the value moved
inline constexpr std::string_view widen_stabilizes = "widening chain stabilizes";      ///< x_{k+1} = x_k ∇ y_{k+1} is eventually stationary
inline constexpr std::string_view narrow_between = "narrow stays between";             ///< b ⊑ a ⇒ b ⊑ a Δ b ⊑ a
inline constexpr std::string_view narrow_reports_change = "narrow reports change";     ///< result is `changed` iff the value moved
inline constexpr std::string_view monotone = "transfer monotone";                      ///< a ⊑ b ⇒ f(a) ⊑ f(b)
inline constexpr std::string_view monotone_binary = "binary transfer monotone";        ///< a ⊑ b ∧ c ⊑ d ⇒ f(a, c) ⊑ f(b, d)
}  // namespace law

/// How many cases to try and how to bound widening chains.
struct Options {
  std::uint64_t seed = 1;           ///< Seed of the `std::mt19937_64` that draws cases (both modes use it for chains).
  std::size_t samples = 200;        ///< Randomized mode: cases drawn per law.
  std::size_t chains = 16;          ///< Widening: number of random increasing chains.
  std::size_t chain_length = 128;   ///< Widening: elements per increasing chain.
  std::size_t widening_bound = 32;  ///< Widening: a chain may change at most this often.
};

/// Optional per-type customisation of a check.
template <class L>
struct Hooks {
  /// Describes a value in a counterexample. When empty, `operator<<` is used
  /// if `L` has one, else a placeholder.
  std::function<std::string(const L&)> print;
  /// Widening: the next element of an increasing chain after `previous`
  /// (joined with `previous` by the kit, so it need not be above it). When
  /// empty, the kit joins `previous` with a fresh sample. Supply one for
  /// infinite-height lattices whose samples are bounded, e.g. an interval
  /// whose bounds grow by one each step, so a widening that merely joins is
  /// caught.
  std::function<L(const L& previous, std::mt19937_64& rng)> ascend;
};

/// The outcome of checking one law.
struct LawOutcome {
  std::string law;             ///< The law's name (one of `laws::law`).
  bool held = true;            ///< False when a counterexample was found.
  std::size_t cases = 0;       ///< Cases checked (those whose premise held).
  std::string counterexample;  ///< Empty when the law held.
};

/// The outcomes of a set of law checks.
class Report {
 public:
  /// True when every law held.
  [[nodiscard]] bool ok() const noexcept {
    for (const auto& o : outcomes_)
      if (!o.held) return false;
    return true;
  }
  /// Every outcome, in the order the laws were checked.
  [[nodiscard]] const std::vector<LawOutcome>& outcomes() const noexcept { return outcomes_; }
  /// The outcome of `name`, or null when that law was not checked.
  [[nodiscard]] const LawOutcome* find(std::string_view name) const noexcept {
    for (const auto& o : outcomes_)
      if (o.law == name) return &o;
    return nullptr;
  }
  /// True when `name` was checked and held.
  [[nodiscard]] bool held(std::string_view name) const noexcept {
    const LawOutcome* o = find(name);
    return o != nullptr && o->held;
  }
  /// True when `name` was checked and a counterexample was found.
  [[nodiscard]] bool failed(std::string_view name) const noexcept {
    const LawOutcome* o = find(name);
    return o != nullptr && !o->held;
  }
  /// True when `name` was checked.
  [[nodiscard]] bool checked(std::string_view name) const noexcept { return find(name) != nullptr; }
  /// Total number of cases checked over all laws.
  [[nodiscard]] std::size_t cases() const noexcept {
    std::size_t n = 0;
    for (const auto& o : outcomes_) n += o.cases;
    return n;
  }
  /// One line per failed law with its counterexample; empty when `ok()`.
  [[nodiscard]] std::string failures() const {
    std::string text;
    for (const auto& o : outcomes_) {
      if (o.held) continue;
      text += "law '" + o.law + "' failed: " + o.counterexample + "\n";
    }
    return text;
  }
  /// One line per law: name, held/FAILED, number of cases.
  [[nodiscard]] std::string summary() const {
    std::string text;
    for (const auto& o : outcomes_)
      text += o.law + ": " + (o.held ? "held" : "FAILED") + " (" + std::to_string(o.cases) + " cases)\n";
    return text;
  }
  /// Appends one outcome.
  void add(LawOutcome outcome) { outcomes_.push_back(std::move(outcome)); }
  /// Appends every outcome of `other`.
  void merge(const Report& other) { outcomes_.insert(outcomes_.end(), other.outcomes_.begin(), other.outcomes_.end()); }
  /// Prints `summary()` followed by `failures()`.
  friend std::ostream& operator<<(std::ostream& os, const Report& r) { return os << r.summary() << r.failures(); }

 private:
  std::vector<LawOutcome> outcomes_;
};

/// A randomized-mode generator: `gen(rng)` returns a lattice value.
template <class G>
concept Generator = std::invocable<G&, std::mt19937_64&> &&
                    JoinSemiLattice<std::remove_cvref_t<std::invoke_result_t<G&, std::mt19937_64&>>>;

/// The lattice type a generator produces.
template <Generator G>
using generated_t = std::remove_cvref_t<std::invoke_result_t<G&, std::mt19937_64&>>;

namespace detail {

template <class T>
concept Streamable = requires(std::ostream& os, const T& t) { os << t; };

template <class T>
concept HasLeq = requires(const T& a, const T& b) {
  { a.leq(b) } -> std::convertible_to<bool>;
};

/// `operator<<` when available, else a placeholder.
template <class T>
[[nodiscard]] std::string describe_default(const T& value) {
  if constexpr (Streamable<T>) {
    std::ostringstream os;
    os << value;
    return os.str();
  } else {
    return "<value without operator<<>";
  }
}

enum class Outcome { pass, skip, fail };

/// What one case of a law found.
struct Verdict {
  Outcome outcome = Outcome::pass;
  std::string message;
};
[[nodiscard]] inline Verdict pass() { return {}; }
[[nodiscard]] inline Verdict skip() { return {Outcome::skip, {}}; }
[[nodiscard]] inline Verdict fail(std::string message) { return {Outcome::fail, std::move(message)}; }
[[nodiscard]] inline Verdict check(bool ok, const std::function<std::string()>& message) {
  return ok ? pass() : fail(message());
}

/// A law's bookkeeping: feeds verdicts, stops at the first failure.
class Tally {
 public:
  explicit Tally(std::string_view law) { outcome_.law = std::string(law); }
  /// Records a verdict; returns false once the law has failed.
  bool record(Verdict v) {
    if (v.outcome == Outcome::pass) ++outcome_.cases;
    if (v.outcome == Outcome::fail) {
      ++outcome_.cases;
      outcome_.held = false;
      outcome_.counterexample = std::move(v.message);
      return false;
    }
    return true;
  }
  [[nodiscard]] LawOutcome take() { return std::move(outcome_); }

 private:
  LawOutcome outcome_;
};

/// Where cases come from: a generator (randomized) or a list (exhaustive).
template <JoinSemiLattice L>
class Domain {
 public:
  Domain(std::function<L(std::mt19937_64&)> gen, const Options& opts, const Hooks<L>& hooks)
      : gen_(std::move(gen)), opts_(opts), hooks_(hooks) {}
  Domain(const std::vector<L>& all, const Options& opts, const Hooks<L>& hooks)
      : all_(&all), opts_(opts), hooks_(hooks) {}

  [[nodiscard]] bool exhaustive() const noexcept { return all_ != nullptr; }
  [[nodiscard]] const Options& options() const noexcept { return opts_; }
  [[nodiscard]] std::mt19937_64 fresh_rng() const { return std::mt19937_64(opts_.seed); }

  [[nodiscard]] std::string show(const L& value) const {
    return hooks_.print ? hooks_.print(value) : describe_default(value);
  }

  /// One element: from the generator, or uniformly from the list.
  [[nodiscard]] L draw(std::mt19937_64& rng) const {
    if (!exhaustive()) return gen_(rng);
    std::uniform_int_distribution<std::size_t> pick(0, all_->size() - 1);
    return (*all_)[pick(rng)];
  }
  [[nodiscard]] bool empty() const noexcept { return exhaustive() && all_->empty(); }

  /// The next element of an increasing chain after `previous`.
  [[nodiscard]] L ascend(const L& previous, std::mt19937_64& rng) const {
    L next = hooks_.ascend ? hooks_.ascend(previous, rng) : draw(rng);
    (void)next.join(previous);
    return next;
  }

  /// Runs `body(a)` on every element (exhaustive) or on `samples` draws.
  template <class Body>
  [[nodiscard]] LawOutcome singles(std::string_view law, Body body) const {
    Tally tally(law);
    if (exhaustive()) {
      for (const L& a : *all_)
        if (!tally.record(body(a))) break;
    } else {
      auto rng = fresh_rng();
      for (std::size_t i = 0; i < opts_.samples; ++i)
        if (!tally.record(body(draw(rng)))) break;
    }
    return tally.take();
  }

  /// Runs `body(a, b)` on every pair, or on drawn pairs that are independent,
  /// ordered (b = a ⊔ x) or reverse ordered (a = b ⊔ x) in turn.
  template <class Body>
  [[nodiscard]] LawOutcome pairs(std::string_view law, Body body) const {
    Tally tally(law);
    if (exhaustive()) {
      for (const L& a : *all_)
        for (const L& b : *all_)
          if (!tally.record(body(a, b))) return tally.take();
    } else {
      auto rng = fresh_rng();
      for (std::size_t i = 0; i < opts_.samples; ++i) {
        auto [a, b] = draw_pair(rng, i);
        if (!tally.record(body(a, b))) break;
      }
    }
    return tally.take();
  }

  /// Runs `body(a, b, c)` on every triple, or on drawn triples that are in
  /// turn independent, a chain a ⊑ b ⊑ c, c above both a and b, and (when `L`
  /// has meet) c below both.
  template <class Body>
  [[nodiscard]] LawOutcome triples(std::string_view law, Body body) const {
    Tally tally(law);
    if (exhaustive()) {
      for (const L& a : *all_)
        for (const L& b : *all_)
          for (const L& c : *all_)
            if (!tally.record(body(a, b, c))) return tally.take();
    } else {
      auto rng = fresh_rng();
      for (std::size_t i = 0; i < opts_.samples; ++i) {
        L a = draw(rng), b = draw(rng), c = draw(rng);
        switch (i % 4) {
          case 1:  // chain
            (void)b.join(a);
            (void)c.join(b);
            break;
          case 2:  // c above a and b
            (void)c.join(a);
            (void)c.join(b);
            break;
          case 3:  // c below a and b
            if constexpr (MeetSemiLattice<L>) {
              (void)c.meet(a);
              (void)c.meet(b);
            }
            break;
          default:
            break;
        }
        if (!tally.record(body(a, b, c))) break;
      }
    }
    return tally.take();
  }

  /// Runs `body(a, b, c, d)` on every two pairs a ⊑ b, c ⊑ d (exhaustive:
  /// filtered by `leq`), or on drawn ones (b = a ⊔ x, d = c ⊔ y, sometimes
  /// independent).
  template <class Body>
  [[nodiscard]] LawOutcome ordered_pair_pairs(std::string_view law, Body body) const {
    Tally tally(law);
    if (exhaustive()) {
      std::vector<std::pair<const L*, const L*>> ordered;
      for (const L& a : *all_)
        for (const L& b : *all_)
          if (a.leq(b)) ordered.emplace_back(&a, &b);
      for (const auto& [a, b] : ordered)
        for (const auto& [c, d] : ordered)
          if (!tally.record(body(*a, *b, *c, *d))) return tally.take();
    } else {
      auto rng = fresh_rng();
      for (std::size_t i = 0; i < opts_.samples; ++i) {
        auto [a, b] = draw_pair(rng, i % 3 == 0 ? 0 : 1);
        auto [c, d] = draw_pair(rng, i % 5 == 0 ? 0 : 1);
        if (!tally.record(body(a, b, c, d))) break;
      }
    }
    return tally.take();
  }

 private:
  [[nodiscard]] std::pair<L, L> draw_pair(std::mt19937_64& rng, std::size_t variant) const {
    L a = draw(rng), b = draw(rng);
    if (variant % 3 == 1) {
      (void)b.join(a);
    } else if (variant % 3 == 2) {
      (void)a.join(b);
    }
    return {std::move(a), std::move(b)};
  }

  std::function<L(std::mt19937_64&)> gen_;
  const std::vector<L>* all_ = nullptr;
  Options opts_;
  Hooks<L> hooks_;
};

template <JoinSemiLattice L>
[[nodiscard]] L joined(L a, const L& b) {
  (void)a.join(b);
  return a;
}

template <MeetSemiLattice L>
[[nodiscard]] L met(L a, const L& b) {
  (void)a.meet(b);
  return a;
}

/// Checks that an in-place operation's ChangeResult matches whether the value moved.
template <class L, class Op>
[[nodiscard]] LawOutcome reports_change(const Domain<L>& d, std::string_view law, std::string_view op_name, Op op) {
  return d.pairs(law, [&](const L& a, const L& b) {
    L r = a;
    const ChangeResult cr = op(r, b);
    const bool moved = !(r == a);
    return check(is_changed(cr) == moved, [&] {
      return "a = " + d.show(a) + ", b = " + d.show(b) + ": a." + std::string(op_name) + "(b) gave " + d.show(r) +
             " but returned " + (is_changed(cr) ? "changed" : "unchanged");
    });
  });
}

template <JoinSemiLattice L>
[[nodiscard]] Report join_semilattice(const Domain<L>& d) {
  Report r;
  r.add(d.singles(law::join_idempotent, [&](const L& a) {
    L x = a;
    const ChangeResult cr = x.join(a);
    L y = a;
    const ChangeResult self = y.join(y);  // aliased operands
    return check(x == a && !is_changed(cr) && y == a && !is_changed(self), [&] {
      return "a = " + d.show(a) + ": a.join(copy of a) gave " + d.show(x) + (is_changed(cr) ? " (reported changed)" : "") +
             ", a.join(a) (same object) gave " + d.show(y) + (is_changed(self) ? " (reported changed)" : "");
    });
  }));
  r.add(reports_change(d, law::join_reports_change, "join", [](L& x, const L& y) { return x.join(y); }));
  r.add(d.pairs(law::join_commutative, [&](const L& a, const L& b) {
    const L ab = joined(a, b), ba = joined(b, a);
    return check(ab == ba, [&] {
      return "a = " + d.show(a) + ", b = " + d.show(b) + ": a.join(b) = " + d.show(ab) + " but b.join(a) = " + d.show(ba);
    });
  }));
  r.add(d.triples(law::join_associative, [&](const L& a, const L& b, const L& c) {
    const L left = joined(joined(a, b), c), right = joined(a, joined(b, c));
    return check(left == right, [&] {
      return "a = " + d.show(a) + ", b = " + d.show(b) + ", c = " + d.show(c) + ": (a ⊔ b) ⊔ c = " + d.show(left) +
             " but a ⊔ (b ⊔ c) = " + d.show(right);
    });
  }));
  r.add(d.singles(law::leq_reflexive, [&](const L& a) {
    return check(a.leq(a), [&] { return "a = " + d.show(a) + ": a.leq(a) is false"; });
  }));
  r.add(d.pairs(law::leq_antisymmetric, [&](const L& a, const L& b) {
    if (!(a.leq(b) && b.leq(a))) return skip();
    return check(a == b, [&] { return "a = " + d.show(a) + ", b = " + d.show(b) + ": a ⊑ b and b ⊑ a but a != b"; });
  }));
  r.add(d.triples(law::leq_transitive, [&](const L& a, const L& b, const L& c) {
    if (!(a.leq(b) && b.leq(c))) return skip();
    return check(a.leq(c), [&] {
      return "a = " + d.show(a) + ", b = " + d.show(b) + ", c = " + d.show(c) + ": a ⊑ b and b ⊑ c but not a ⊑ c";
    });
  }));
  r.add(d.pairs(law::leq_agrees_with_join, [&](const L& a, const L& b) {
    const L ab = joined(a, b);
    const bool le = a.leq(b);
    return check(le == (ab == b), [&] {
      return "a = " + d.show(a) + ", b = " + d.show(b) + ": a.leq(b) is " + (le ? "true" : "false") + " but a ⊔ b = " +
             d.show(ab);
    });
  }));
  r.add(d.pairs(law::join_upper_bound, [&](const L& a, const L& b) {
    const L ab = joined(a, b);
    return check(a.leq(ab) && b.leq(ab), [&] {
      return "a = " + d.show(a) + ", b = " + d.show(b) + ": a ⊔ b = " + d.show(ab) + " is not above both";
    });
  }));
  r.add(d.triples(law::join_least, [&](const L& a, const L& b, const L& c) {
    if (!(a.leq(c) && b.leq(c))) return skip();
    const L ab = joined(a, b);
    return check(ab.leq(c), [&] {
      return "a = " + d.show(a) + ", b = " + d.show(b) + ", c = " + d.show(c) + ": c is above a and b but a ⊔ b = " +
             d.show(ab) + " is not below c";
    });
  }));
  return r;
}

template <HasBottom L>
[[nodiscard]] LawOutcome bottom_laws(const Domain<L>& d) {
  const L bot = L::bottom();
  Tally tally(law::bottom_identity);
  if (!tally.record(check(bot.is_bottom(), [&] { return "L::bottom() = " + d.show(bot) + " says !is_bottom()"; })))
    return tally.take();
  LawOutcome rest = d.singles(law::bottom_identity, [&](const L& a) {
    const L left = joined(bot, a), right = joined(a, bot);
    return check(left == a && right == a && bot.leq(a) && a.is_bottom() == (a == bot), [&] {
      return "a = " + d.show(a) + ", bottom = " + d.show(bot) + ": bottom ⊔ a = " + d.show(left) + ", a ⊔ bottom = " +
             d.show(right) + ", bottom ⊑ a is " + (bot.leq(a) ? "true" : "false") + ", a.is_bottom() is " +
             (a.is_bottom() ? "true" : "false");
    });
  });
  rest.cases += 1;
  return rest;
}

template <HasTop L>
[[nodiscard]] LawOutcome top_laws(const Domain<L>& d) {
  const L top = L::top();
  Tally tally(law::top_absorbs);
  if (!tally.record(check(top.is_top(), [&] { return "L::top() = " + d.show(top) + " says !is_top()"; })))
    return tally.take();
  LawOutcome rest = d.singles(law::top_absorbs, [&](const L& a) {
    const L left = joined(top, a), right = joined(a, top);
    return check(left == top && right == top && a.leq(top) && a.is_top() == (a == top), [&] {
      return "a = " + d.show(a) + ", top = " + d.show(top) + ": top ⊔ a = " + d.show(left) + ", a ⊔ top = " +
             d.show(right) + ", a ⊑ top is " + (a.leq(top) ? "true" : "false") + ", a.is_top() is " +
             (a.is_top() ? "true" : "false");
    });
  });
  rest.cases += 1;
  return rest;
}

template <class L>
  requires JoinSemiLattice<L> && MeetSemiLattice<L>
[[nodiscard]] Report meet_laws(const Domain<L>& d) {
  Report r;
  r.add(d.singles(law::meet_idempotent, [&](const L& a) {
    L x = a;
    const ChangeResult cr = x.meet(a);
    L y = a;
    const ChangeResult self = y.meet(y);  // aliased operands
    return check(x == a && !is_changed(cr) && y == a && !is_changed(self), [&] {
      return "a = " + d.show(a) + ": a.meet(copy of a) gave " + d.show(x) + (is_changed(cr) ? " (reported changed)" : "") +
             ", a.meet(a) (same object) gave " + d.show(y) + (is_changed(self) ? " (reported changed)" : "");
    });
  }));
  r.add(reports_change(d, law::meet_reports_change, "meet", [](L& x, const L& y) { return x.meet(y); }));
  r.add(d.pairs(law::meet_commutative, [&](const L& a, const L& b) {
    const L ab = met(a, b), ba = met(b, a);
    return check(ab == ba, [&] {
      return "a = " + d.show(a) + ", b = " + d.show(b) + ": a.meet(b) = " + d.show(ab) + " but b.meet(a) = " + d.show(ba);
    });
  }));
  r.add(d.triples(law::meet_associative, [&](const L& a, const L& b, const L& c) {
    const L left = met(met(a, b), c), right = met(a, met(b, c));
    return check(left == right, [&] {
      return "a = " + d.show(a) + ", b = " + d.show(b) + ", c = " + d.show(c) + ": (a ⊓ b) ⊓ c = " + d.show(left) +
             " but a ⊓ (b ⊓ c) = " + d.show(right);
    });
  }));
  r.add(d.pairs(law::meet_lower_bound, [&](const L& a, const L& b) {
    const L ab = met(a, b);
    return check(ab.leq(a) && ab.leq(b), [&] {
      return "a = " + d.show(a) + ", b = " + d.show(b) + ": a ⊓ b = " + d.show(ab) + " is not below both";
    });
  }));
  r.add(d.triples(law::meet_greatest, [&](const L& a, const L& b, const L& c) {
    if (!(c.leq(a) && c.leq(b))) return skip();
    const L ab = met(a, b);
    return check(c.leq(ab), [&] {
      return "a = " + d.show(a) + ", b = " + d.show(b) + ", c = " + d.show(c) + ": c is below a and b but a ⊓ b = " +
             d.show(ab) + " is not above c";
    });
  }));
  if constexpr (HasBottom<L> || HasTop<L>) {
    r.add(d.singles(law::meet_bounds, [&](const L& a) {
      if constexpr (HasBottom<L>) {
        const L bot = L::bottom();
        const L x = met(a, bot), y = met(bot, a);
        if (!(x == bot && y == bot))
          return fail("a = " + d.show(a) + ": a ⊓ bottom = " + d.show(x) + ", bottom ⊓ a = " + d.show(y));
      }
      if constexpr (HasTop<L>) {
        const L top = L::top();
        const L x = met(a, top), y = met(top, a);
        if (!(x == a && y == a))
          return fail("a = " + d.show(a) + ": a ⊓ top = " + d.show(x) + ", top ⊓ a = " + d.show(y));
      }
      return pass();
    }));
  }
  r.add(d.pairs(law::absorption, [&](const L& a, const L& b) {
    const L x = joined(a, met(a, b)), y = met(a, joined(a, b));
    return check(x == a && y == a, [&] {
      return "a = " + d.show(a) + ", b = " + d.show(b) + ": a ⊔ (a ⊓ b) = " + d.show(x) + ", a ⊓ (a ⊔ b) = " + d.show(y);
    });
  }));
  return r;
}

template <WidenableLattice L>
[[nodiscard]] Report widening_laws(const Domain<L>& d) {
  Report r;
  r.add(d.pairs(law::widen_upper_bound, [&](const L& a, const L& b) {
    L w = a;
    (void)w.widen(b);
    return check(a.leq(w) && b.leq(w), [&] {
      return "a = " + d.show(a) + ", b = " + d.show(b) + ": a ∇ b = " + d.show(w) + " is not above both";
    });
  }));
  r.add(reports_change(d, law::widen_reports_change, "widen", [](L& x, const L& y) { return x.widen(y); }));
  Tally tally(law::widen_stabilizes);
  if (!d.empty()) {
    auto rng = d.fresh_rng();
    const Options& o = d.options();
    for (std::size_t chain = 0; chain < o.chains; ++chain) {
      L y = d.draw(rng);
      L x = y;
      std::size_t changes = 0;
      Verdict verdict;
      for (std::size_t k = 1; k < o.chain_length; ++k) {
        y = d.ascend(y, rng);
        const L before = x;
        if (is_changed(x.widen(y)) || !(x == before)) ++changes;
        if (changes > o.widening_bound) {
          verdict = fail("an increasing chain made x_{k+1} = x_k ∇ y_{k+1} change " + std::to_string(changes) +
                         " times in " + std::to_string(k) + " steps (bound " + std::to_string(o.widening_bound) +
                         "); last x = " + d.show(x) + ", y = " + d.show(y));
          break;
        }
      }
      if (!tally.record(std::move(verdict))) break;
    }
  }
  r.add(tally.take());
  return r;
}

template <NarrowableLattice L>
[[nodiscard]] Report narrowing_laws(const Domain<L>& d) {
  Report r;
  // Pairs (a, b) with b ⊑ a: the body ignores pairs that are not ordered.
  r.add(d.pairs(law::narrow_between, [&](const L& a, const L& b) {
    if (!b.leq(a)) return skip();
    L n = a;
    (void)n.narrow(b);
    return check(b.leq(n) && n.leq(a), [&] {
      return "a = " + d.show(a) + ", b = " + d.show(b) + " (b ⊑ a): a Δ b = " + d.show(n) + " is not between b and a";
    });
  }));
  r.add(d.pairs(law::narrow_reports_change, [&](const L& a, const L& b) {
    if (!b.leq(a)) return skip();
    L n = a;
    const ChangeResult cr = n.narrow(b);
    return check(is_changed(cr) == !(n == a), [&] {
      return "a = " + d.show(a) + ", b = " + d.show(b) + ": a.narrow(b) gave " + d.show(n) + " but returned " +
             (is_changed(cr) ? "changed" : "unchanged");
    });
  }));
  return r;
}

template <JoinSemiLattice L>
[[nodiscard]] Report all_laws(const Domain<L>& d) {
  Report r = join_semilattice(d);
  if constexpr (HasBottom<L>) r.add(bottom_laws(d));
  if constexpr (HasTop<L>) r.add(top_laws(d));
  if constexpr (MeetSemiLattice<L>) r.merge(meet_laws(d));
  if constexpr (WidenableLattice<L>) r.merge(widening_laws(d));
  if constexpr (NarrowableLattice<L>) r.merge(narrowing_laws(d));
  return r;
}

template <JoinSemiLattice L, class F>
[[nodiscard]] Report monotone(const Domain<L>& d, F& f) {
  using R = std::remove_cvref_t<std::invoke_result_t<F&, const L&>>;
  static_assert(HasLeq<R>, "a transfer function's result must have `bool leq(const R&) const`");
  Report r;
  r.add(d.pairs(law::monotone, [&](const L& a, const L& b) {
    if (!a.leq(b)) return skip();
    const R fa = std::invoke(f, a), fb = std::invoke(f, b);
    return check(fa.leq(fb), [&] {
      return "a = " + d.show(a) + " ⊑ b = " + d.show(b) + " but f(a) = " + describe_default(fa) +
             " is not below f(b) = " + describe_default(fb);
    });
  }));
  return r;
}

template <JoinSemiLattice L, class F>
[[nodiscard]] Report monotone_binary(const Domain<L>& d, F& f) {
  using R = std::remove_cvref_t<std::invoke_result_t<F&, const L&, const L&>>;
  static_assert(HasLeq<R>, "a transfer function's result must have `bool leq(const R&) const`");
  Report r;
  r.add(d.ordered_pair_pairs(law::monotone_binary, [&](const L& a, const L& b, const L& c, const L& e) {
    if (!(a.leq(b) && c.leq(e))) return skip();
    const R lo = std::invoke(f, a, c), hi = std::invoke(f, b, e);
    return check(lo.leq(hi), [&] {
      return "a = " + d.show(a) + " ⊑ b = " + d.show(b) + ", c = " + d.show(c) + " ⊑ d = " + d.show(e) +
             " but f(a, c) = " + describe_default(lo) + " is not below f(b, d) = " + describe_default(hi);
    });
  }));
  return r;
}

}  // namespace detail

// ---------------------------------------------------------------------------
// Randomized mode: a generator, a seed and a sample count.
// ---------------------------------------------------------------------------

/// Join-semilattice laws: join idempotent, commutative, associative and
/// honest about change; leq reflexive, antisymmetric, transitive and in
/// agreement with join; join an upper bound and the least one.
template <Generator G>
[[nodiscard]] Report check_join_semilattice(G gen, const Options& opts = {}, const Hooks<generated_t<G>>& hooks = {}) {
  return detail::join_semilattice(detail::Domain<generated_t<G>>(std::move(gen), opts, hooks));
}

/// Bottom laws: `L::bottom()` is bottom, the identity of join, below every
/// element, and `is_bottom()` holds exactly for it.
template <Generator G>
  requires HasBottom<generated_t<G>>
[[nodiscard]] Report check_bottom(G gen, const Options& opts = {}, const Hooks<generated_t<G>>& hooks = {}) {
  Report r;
  r.add(detail::bottom_laws(detail::Domain<generated_t<G>>(std::move(gen), opts, hooks)));
  return r;
}

/// Top laws: `L::top()` is top, absorbs join, is above every element, and
/// `is_top()` holds exactly for it.
template <Generator G>
  requires HasTop<generated_t<G>>
[[nodiscard]] Report check_top(G gen, const Options& opts = {}, const Hooks<generated_t<G>>& hooks = {}) {
  Report r;
  r.add(detail::top_laws(detail::Domain<generated_t<G>>(std::move(gen), opts, hooks)));
  return r;
}

/// Meet laws: meet idempotent, commutative, associative and honest about
/// change; a lower bound and the greatest one; bottom/top behave under meet;
/// absorption with join.
template <Generator G>
  requires MeetSemiLattice<generated_t<G>>
[[nodiscard]] Report check_meet(G gen, const Options& opts = {}, const Hooks<generated_t<G>>& hooks = {}) {
  return detail::meet_laws(detail::Domain<generated_t<G>>(std::move(gen), opts, hooks));
}

/// Widening laws: `a ∇ b` is above `a` and `b`, reports change honestly, and
/// every chain `x_{k+1} = x_k ∇ y_{k+1}` over an increasing sequence `y`
/// changes at most `opts.widening_bound` times in `opts.chain_length` steps.
template <Generator G>
  requires WidenableLattice<generated_t<G>>
[[nodiscard]] Report check_widening(G gen, const Options& opts = {}, const Hooks<generated_t<G>>& hooks = {}) {
  return detail::widening_laws(detail::Domain<generated_t<G>>(std::move(gen), opts, hooks));
}

/// Narrowing laws: for `b ⊑ a`, `b ⊑ a Δ b ⊑ a`, and the change result is honest.
template <Generator G>
  requires NarrowableLattice<generated_t<G>>
[[nodiscard]] Report check_narrowing(G gen, const Options& opts = {}, const Hooks<generated_t<G>>& hooks = {}) {
  return detail::narrowing_laws(detail::Domain<generated_t<G>>(std::move(gen), opts, hooks));
}

/// Every law that applies to the generated type's concepts: join-semilattice
/// laws always, then bottom, top, meet, widening and narrowing laws when the
/// type models `HasBottom`, `HasTop`, `MeetSemiLattice`, `WidenableLattice`,
/// `NarrowableLattice`.
template <Generator G>
[[nodiscard]] Report check_all_laws(G gen, const Options& opts = {}, const Hooks<generated_t<G>>& hooks = {}) {
  return detail::all_laws(detail::Domain<generated_t<G>>(std::move(gen), opts, hooks));
}

/// Monotonicity of a unary transfer function: `a ⊑ b ⇒ f(a) ⊑ f(b)`. `f`'s
/// result may be another type with `leq`.
template <Generator G, class F>
  requires std::invocable<F&, const generated_t<G>&>
[[nodiscard]] Report check_monotone(G gen, F f, const Options& opts = {}, const Hooks<generated_t<G>>& hooks = {}) {
  return detail::monotone(detail::Domain<generated_t<G>>(std::move(gen), opts, hooks), f);
}

/// Monotonicity of a binary transfer function in both arguments:
/// `a ⊑ b ∧ c ⊑ d ⇒ f(a, c) ⊑ f(b, d)`.
template <Generator G, class F>
  requires std::invocable<F&, const generated_t<G>&, const generated_t<G>&>
[[nodiscard]] Report check_monotone_binary(G gen, F f, const Options& opts = {},
                                           const Hooks<generated_t<G>>& hooks = {}) {
  return detail::monotone_binary(detail::Domain<generated_t<G>>(std::move(gen), opts, hooks), f);
}

// ---------------------------------------------------------------------------
// Exhaustive mode: every element of a small domain. Pairs and triples are all
// checked, so keep the list small (n³ triples; 40 elements = 64000).
// `opts.seed` drives the widening chains, which pick elements at random.
// ---------------------------------------------------------------------------

/// Join-semilattice laws over every pair and triple of `all`.
template <JoinSemiLattice L>
[[nodiscard]] Report check_join_semilattice(const std::vector<L>& all, const Options& opts = {},
                                            const Hooks<L>& hooks = {}) {
  return detail::join_semilattice(detail::Domain<L>(all, opts, hooks));
}

/// Bottom laws over every element of `all`.
template <HasBottom L>
[[nodiscard]] Report check_bottom(const std::vector<L>& all, const Options& opts = {}, const Hooks<L>& hooks = {}) {
  Report r;
  r.add(detail::bottom_laws(detail::Domain<L>(all, opts, hooks)));
  return r;
}

/// Top laws over every element of `all`.
template <HasTop L>
[[nodiscard]] Report check_top(const std::vector<L>& all, const Options& opts = {}, const Hooks<L>& hooks = {}) {
  Report r;
  r.add(detail::top_laws(detail::Domain<L>(all, opts, hooks)));
  return r;
}

/// Meet laws over every pair and triple of `all`.
template <class L>
  requires JoinSemiLattice<L> && MeetSemiLattice<L>
[[nodiscard]] Report check_meet(const std::vector<L>& all, const Options& opts = {}, const Hooks<L>& hooks = {}) {
  return detail::meet_laws(detail::Domain<L>(all, opts, hooks));
}

/// Widening laws over every pair of `all`, and chains drawn from `all`.
template <WidenableLattice L>
[[nodiscard]] Report check_widening(const std::vector<L>& all, const Options& opts = {}, const Hooks<L>& hooks = {}) {
  return detail::widening_laws(detail::Domain<L>(all, opts, hooks));
}

/// Narrowing laws over every ordered pair of `all`.
template <NarrowableLattice L>
[[nodiscard]] Report check_narrowing(const std::vector<L>& all, const Options& opts = {}, const Hooks<L>& hooks = {}) {
  return detail::narrowing_laws(detail::Domain<L>(all, opts, hooks));
}

/// Every law that applies to `L`'s concepts, over every pair and triple of `all`.
template <JoinSemiLattice L>
[[nodiscard]] Report check_all_laws(const std::vector<L>& all, const Options& opts = {}, const Hooks<L>& hooks = {}) {
  return detail::all_laws(detail::Domain<L>(all, opts, hooks));
}

/// Monotonicity of a unary transfer function over every ordered pair of `all`.
template <JoinSemiLattice L, class F>
  requires std::invocable<F&, const L&>
[[nodiscard]] Report check_monotone(const std::vector<L>& all, F f, const Options& opts = {},
                                    const Hooks<L>& hooks = {}) {
  return detail::monotone(detail::Domain<L>(all, opts, hooks), f);
}

/// Monotonicity of a binary transfer function over every two ordered pairs of `all`.
template <JoinSemiLattice L, class F>
  requires std::invocable<F&, const L&, const L&>
[[nodiscard]] Report check_monotone_binary(const std::vector<L>& all, F f, const Options& opts = {},
                                           const Hooks<L>& hooks = {}) {
  return detail::monotone_binary(detail::Domain<L>(all, opts, hooks), f);
}

}  // namespace kildall::laws
