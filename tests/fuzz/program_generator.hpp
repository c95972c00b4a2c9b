#pragma once
// Well-formed random reference-IR modules for the kildall-opt fuzz target and
// the differential tests. Every decision is drawn from a choice source (any
// callable returning std::uint64_t: a FuzzInput over fuzz bytes, or a seeded
// std::mt19937_64), so the same generator serves libFuzzer (whose mutations
// then edit the program's structure) and deterministic volume tests.
//
// Programs have several functions (calls between them, recursion included),
// 1..2 results, blocks with arguments, loops and irreducible control flow
// (any block may branch to any non-entry block), all arith ops, casts, selects
// and constants biased to boundary values. Values of the entry block and the
// function arguments are used anywhere (they dominate every block); other
// values only in their own block; block arguments carry values between blocks.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <kildall/ir/op_registry.hpp>

namespace kildall::fuzz {

/// Limits and features of generated programs.
struct ProgramLimits {
  unsigned max_functions = 3;       ///< Functions per module (at least 1).
  unsigned max_arguments = 3;       ///< Arguments per function.
  unsigned max_blocks = 6;          ///< Blocks per function, entry included.
  unsigned max_ops_per_block = 6;   ///< Ops per block before the terminator.
  bool backward_branches = true;    ///< Loops (and irreducible cycles) allowed.
  bool calls = true;                ///< `func.call` between the module's functions.
  /// Functions other than `@f0` are `private` half the time (interprocedural analyses then
  /// propagate into their arguments). Off by default: it draws one more choice per function.
  bool private_functions = false;
  /// A call is a `func.constant` and a `func.call_indirect` half the time. Off by default: it
  /// draws one more choice per call.
  bool indirect_calls = false;
  /// Half the time, the last functions go into a nested `module @m { ... }`: calls stay within
  /// each module (a call looks its callee up in its own module). Off by default: it draws more.
  bool nested_modules = false;
  bool wide_types = true;           ///< Widths up to 64 (else at most 8) and `index`.
  /// Values of type `!noisy.i32` (noisy.encode/add/sub/mul/decode, block
  /// arguments of that type): needs a registry with the noisy dialect.
  bool noisy = false;
};

/// What the generator produced besides the text.
struct GeneratedProgram {
  std::string text;                 ///< The module (`func.func` ops at top level).
  bool has_calls = false;           ///< At least one `func.call`.
  bool has_backward_branches = false;  ///< At least one branch to a block not after its source.
};

namespace detail {

/// The width code of `!noisy.i32`.
inline constexpr unsigned noisy_width = 1000;

/// Integer types as widths; 0 stands for `index` (64 bits), `noisy_width` for `!noisy.i32`.
/// The `index` dialect's name for the `arith` op `arith_name` on `index` (e.g. "index.add").
inline std::string_view index_spelling(const std::string& arith_name) {
  for (const ir::IndexBinaryRecord& r : ir::index_binary_ops)
    if (ir::binary_arith_ops[ir::code_of(r.meaning) - ir::code_of(ir::BuiltinOp::addi)].name == arith_name) return r.name;
  return {};
}

inline std::string type_name(unsigned w) {
  if (w == noisy_width) return "!noisy.i32";
  return w == 0 ? std::string("index") : "i" + std::to_string(w);
}

template <class Source>
class ProgramWriter {
 public:
  ProgramWriter(Source& source, const ProgramLimits& limits) : source_(&source), limits_(limits) {}

  GeneratedProgram write() {
    static const unsigned narrow[] = {1, 2, 3, 4, 5, 8};
    static const unsigned wide[] = {1, 2, 3, 4, 5, 8, 16, 32, 64, 0};
    const unsigned kinds = 1 + static_cast<unsigned>(pick(3));
    for (unsigned i = 0; i < kinds; ++i)
      widths_.push_back(limits_.wide_types ? wide[pick(std::size(wide))] : narrow[pick(std::size(narrow))]);
    plain_widths_ = widths_;
    if (limits_.noisy) {
      widths_.push_back(noisy_width);
      widths_.push_back(noisy_width);
      encodable_ = narrow[1 + pick(std::size(narrow) - 1)];  // 2..8 bits, like the article's i5
    }
    const unsigned functions = 1 + static_cast<unsigned>(pick(limits_.max_functions));
    for (unsigned f = 0; f < functions; ++f) {
      Signature s;
      const unsigned args = static_cast<unsigned>(pick(limits_.max_arguments + 1));
      for (unsigned i = 0; i < args; ++i) s.arguments.push_back(plain_width());
      const unsigned results = pick(5) == 0 ? 2u : 1u;
      for (unsigned i = 0; i < results; ++i) s.results.push_back(plain_width());
      signatures_.push_back(s);
    }
    group_.assign(functions, 0);
    if (limits_.nested_modules && functions >= 2 && pick(2) == 0)
      for (unsigned f = 1 + static_cast<unsigned>(pick(functions - 1)); f < functions; ++f) group_[f] = 1;
    for (unsigned f = 0; f < functions; ++f) {
      if (group_[f] == 1 && (f == 0 || group_[f - 1] == 0)) out_.text += "module @m {\n";
      write_function(f);
    }
    if (group_.back() == 1) out_.text += "}\n";
    return out_;
  }

 private:
  struct Signature {
    std::vector<unsigned> arguments, results;
  };
  struct Value {
    std::string name;
    unsigned width;  // 0 = index
  };

  std::uint64_t pick(std::uint64_t n) { return n <= 1 ? 0 : (*source_)() % n; }
  unsigned any_width() { return widths_[pick(widths_.size())]; }
  unsigned plain_width() { return plain_widths_[pick(plain_widths_.size())]; }
  static unsigned bits(unsigned w) { return w == 0 ? 64 : w; }

  std::string constant_text(unsigned w) {
    const unsigned b = bits(w);
    std::uint64_t v = (*source_)();
    const std::uint64_t mask = b == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << b) - 1;
    switch (pick(6)) {
      case 0: v = 0; break;
      case 1: v = 1; break;
      case 2: v = mask; break;                                // -1
      case 3: v = std::uint64_t{1} << (b - 1); break;         // signed min
      case 4: v = (std::uint64_t{1} << (b - 1)) - 1; break;   // signed max
      default: break;
    }
    v &= mask;
    if (w == 1) return v ? "true" : "false";
    // Signed decimal, as MLIR prints it.
    std::int64_t s = static_cast<std::int64_t>(v);
    if (b < 64 && (v >> (b - 1)) != 0) s = static_cast<std::int64_t>(v | ~mask);
    return std::to_string(s) + " : " + type_name(w);
  }

  void write_function(unsigned f) {
    const Signature& sig = signatures_[f];
    const unsigned blocks = 1 + static_cast<unsigned>(pick(limits_.max_blocks));
    std::vector<std::vector<unsigned>> block_args(blocks);
    for (unsigned b = 1; b < blocks; ++b) {
      const unsigned n = static_cast<unsigned>(pick(3));
      for (unsigned i = 0; i < n; ++i) block_args[b].push_back(pick(4) == 0 ? 1u : any_width());
    }
    std::vector<Value> global;
    const bool is_private = limits_.private_functions && f != 0 && pick(2) == 0;
    out_.text += std::string(is_private ? "func.func private @f" : "func.func @f") + std::to_string(f) + "(";
    for (std::size_t i = 0; i < sig.arguments.size(); ++i) {
      const std::string name = "%a" + std::to_string(i);
      out_.text += (i ? ", " : "") + name + ": " + type_name(sig.arguments[i]);
      global.push_back({name, sig.arguments[i]});
    }
    out_.text += ") -> ";
    out_.text += sig.results.size() == 1 ? type_name(sig.results[0])
                                         : "(" + type_name(sig.results[0]) + ", " + type_name(sig.results[1]) + ")";
    out_.text += " {\n";
    unsigned counter = 0;
    for (unsigned b = 0; b < blocks; ++b) {
      std::vector<Value> local;
      if (b > 0) {
        out_.text += "^bb" + std::to_string(b);
        if (!block_args[b].empty()) {
          out_.text += "(";
          for (std::size_t i = 0; i < block_args[b].size(); ++i) {
            const std::string name = "%b" + std::to_string(b) + "_" + std::to_string(i);
            out_.text += (i ? ", " : "") + name + ": " + type_name(block_args[b][i]);
            local.push_back({name, block_args[b][i]});
          }
          out_.text += ")";
        }
        out_.text += ":\n";
      }
      std::vector<Value>& defined = b == 0 ? global : local;
      const auto value_of = [&](unsigned w) -> std::string {
        std::vector<const std::string*> pool;
        for (const Value& v : global)
          if (v.width == w) pool.push_back(&v.name);
        if (b > 0)
          for (const Value& v : local)
            if (v.width == w) pool.push_back(&v.name);
        if (pool.empty() || pick(6) == 0) {
          const std::string name = "%k" + std::to_string(counter++);
          if (w == noisy_width) {  // a fresh noisy value: encode a constant
            const std::string plain = "%k" + std::to_string(counter++);
            out_.text += "  " + plain + " = arith.constant " + constant_text(encodable_) + "\n";
            out_.text += "  " + name + " = noisy.encode " + plain + " : " + type_name(encodable_) + " -> !noisy.i32\n";
            defined.push_back({plain, encodable_});
            defined.push_back({name, w});
            return name;
          }
          out_.text += "  " + name + " = arith.constant " + constant_text(w) + "\n";
          defined.push_back({name, w});
          return name;
        }
        return *pool[pick(pool.size())];
      };
      const unsigned ops = static_cast<unsigned>(pick(limits_.max_ops_per_block + 1));
      for (unsigned k = 0; k < ops; ++k) write_op(f, counter, value_of, defined);
      // Terminator.
      const auto successor = [&](unsigned t) {
        if (t <= b) out_.has_backward_branches = true;
        std::string s = "^bb" + std::to_string(t);
        if (block_args[t].empty()) return s;
        std::vector<std::string> names;
        for (const unsigned w : block_args[t]) names.push_back(value_of(w));
        s += "(";
        for (std::size_t i = 0; i < names.size(); ++i) s += (i ? ", " : "") + names[i];
        s += " : ";
        for (std::size_t i = 0; i < names.size(); ++i) s += (i ? ", " : "") + type_name(block_args[t][i]);
        return s + ")";
      };
      const auto target = [&]() -> unsigned {
        if (limits_.backward_branches) return 1 + static_cast<unsigned>(pick(blocks - 1));
        return b + 1 + static_cast<unsigned>(pick(blocks - 1 - b));
      };
      const bool last = b + 1 == blocks;
      const unsigned kind = static_cast<unsigned>(pick(6));
      if (last || (b > 0 && kind == 0)) {
        std::vector<std::string> names;
        for (const unsigned w : sig.results) names.push_back(value_of(w));
        out_.text += "  return " + names[0] + (names.size() > 1 ? ", " + names[1] : "") + " : " +
                     type_name(sig.results[0]) + (names.size() > 1 ? ", " + type_name(sig.results[1]) : "") + "\n";
      } else if (kind <= 2) {
        const std::string s = successor(target());
        out_.text += "  cf.br " + s + "\n";
      } else {
        const std::string c = value_of(1);
        const std::string s1 = successor(target());
        const std::string s2 = successor(target());
        out_.text += "  cf.cond_br " + c + ", " + s1 + ", " + s2 + "\n";
      }
    }
    out_.text += "}\n";
  }

  template <class ValueOf>
  void write_op(unsigned f, unsigned& counter, ValueOf& value_of, std::vector<Value>& defined) {
    static const char* const binary[] = {"addi", "subi", "muli", "divsi", "divui", "remsi", "remui", "andi", "ori",
                                         "xori", "shli", "shrsi", "shrui", "minsi", "maxsi", "minui", "maxui",
                                       "floordivsi", "ceildivsi", "ceildivui"};
    static const char* const predicates[] = {"eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"};
    const unsigned w = any_width();
    const std::string name = "%v" + std::to_string(counter++);
    if (w == noisy_width) {
      static const char* const noisy_ops[] = {"add", "sub", "mul", "add", "mul"};
      const unsigned choice = static_cast<unsigned>(pick(7));
      if (choice < 5) {
        const std::string x = value_of(w), y = value_of(w);
        out_.text += "  " + name + " = noisy." + noisy_ops[choice] + " " + x + ", " + y + " : !noisy.i32\n";
        defined.push_back({name, w});
      } else if (choice == 5) {
        const std::string x = value_of(encodable_);
        out_.text += "  " + name + " = noisy.encode " + x + " : " + type_name(encodable_) + " -> !noisy.i32\n";
        defined.push_back({name, w});
      } else {
        const std::string x = value_of(w);
        out_.text += "  " + name + " = noisy.decode " + x + " : !noisy.i32 -> " + type_name(encodable_) + "\n";
        defined.push_back({name, encodable_});
      }
      return;
    }
    const unsigned kind = static_cast<unsigned>(pick(limits_.calls ? 12 : 11));
    if (kind < 5) {
      const std::string x = value_of(w), y = value_of(w);
      const std::string op = binary[pick(std::size(binary))];
      if (w == 0 && pick(2) == 0) {  // on `index`, half the time the index dialect's spelling
        out_.text += "  " + name + " = " + std::string(index_spelling("arith." + op)) + " " + x + ", " + y + "\n";
      } else {
        out_.text += "  " + name + " = arith." + op + " " + x + ", " + y + " : " + type_name(w) + "\n";
      }
      defined.push_back({name, w});
    } else if (kind < 7) {
      const std::string x = value_of(w), y = value_of(w);
      const std::string predicate = predicates[pick(std::size(predicates))];
      if (w == 0 && pick(2) == 0) {
        out_.text += "  " + name + " = index.cmp " + predicate + "(" + x + ", " + y + ")\n";
      } else {
        out_.text += "  " + name + " = arith.cmpi " + predicate + ", " + x + ", " + y + " : " + type_name(w) + "\n";
      }
      defined.push_back({name, 1});
    } else if (kind == 7) {
      const std::string c = value_of(1), x = value_of(w), y = value_of(w);
      out_.text += "  " + name + " = arith.select " + c + ", " + x + ", " + y + " : " + type_name(w) + "\n";
      defined.push_back({name, w});
    } else if (kind == 8) {
      const std::string c = name;
      out_.text += "  " + c + " = arith.constant " + constant_text(w) + "\n";
      defined.push_back({c, w});
    } else if (kind < 11) {
      // A cast between two different integer widths (never index).
      static const unsigned cast_widths[] = {1, 2, 3, 4, 5, 8, 16, 32, 64};
      unsigned from = pick(3) == 0 ? 1u : (w == 0 ? 64u : w);
      unsigned to = limits_.wide_types ? cast_widths[pick(std::size(cast_widths))] : cast_widths[pick(6)];
      if (from == to) to = from == 1 ? 2u : 1u;
      const std::string x = value_of(from);
      const char* op = from > to ? "trunci" : (pick(2) ? "extsi" : "extui");
      out_.text += "  " + name + " = arith." + op + " " + x + " : " + type_name(from) + " to " + type_name(to) + "\n";
      defined.push_back({name, to});
    } else {
      std::vector<unsigned> callees;  // the functions of the caller's own module
      for (unsigned g = 0; g < signatures_.size(); ++g)
        if (group_[g] == group_[f]) callees.push_back(g);
      const unsigned callee = callees[pick(callees.size())];
      const Signature& s = signatures_[callee];
      std::vector<std::string> args;
      for (const unsigned a : s.arguments) args.push_back(value_of(a));
      std::string lhs = name;
      if (s.results.size() == 2) lhs += ", " + name + "_1";
      std::string type = "(";
      for (std::size_t i = 0; i < s.arguments.size(); ++i) type += (i ? ", " : "") + type_name(s.arguments[i]);
      type += ") -> ";
      type += s.results.size() == 1 ? type_name(s.results[0])
                                    : "(" + type_name(s.results[0]) + ", " + type_name(s.results[1]) + ")";
      if (limits_.indirect_calls && pick(2) == 0) {
        out_.text += "  " + name + "_fn = func.constant @f" + std::to_string(callee) + " : " + type + "\n";
        out_.text += "  " + lhs + " = func.call_indirect " + name + "_fn(";
      } else {
        out_.text += "  " + lhs + " = func.call @f" + std::to_string(callee) + "(";
      }
      for (std::size_t i = 0; i < args.size(); ++i) out_.text += (i ? ", " : "") + args[i];
      out_.text += ") : " + type + "\n";
      defined.push_back({name, s.results[0]});
      if (s.results.size() == 2) defined.push_back({name + "_1", s.results[1]});
      out_.has_calls = true;
    }
  }

  Source* source_;
  ProgramLimits limits_;
  std::vector<unsigned> widths_, plain_widths_;
  unsigned encodable_ = 5;  // the plain type noisy values are encoded from and decoded to
  std::vector<Signature> signatures_;
  std::vector<unsigned> group_;  // by function: 0 in the top-level module, 1 in `module @m`
  GeneratedProgram out_;
};

}  // namespace detail

/// A random module drawn from `source` (a callable returning std::uint64_t).
template <class Source>
[[nodiscard]] GeneratedProgram generate_program(Source& source, const ProgramLimits& limits = {}) {
  return detail::ProgramWriter<Source>(source, limits).write();
}

}  // namespace kildall::fuzz
