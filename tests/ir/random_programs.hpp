#pragma once
// Random, verified reference-IR programs with loops and branches, and the
// brute-force oracle (the interpreter over all inputs, or many random inputs)
// that the analysis tests compare against. Deterministic in the seed.

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <kildall/ir/interpreter.hpp>
#include <kildall/ir/module.hpp>
#include <kildall/ir/parser.hpp>
#include <kildall/ir/verifier.hpp>

namespace kildall::ir::testing {

/// Shape of the generated programs.
struct ProgramShape {
  std::vector<unsigned> widths{3};   ///< Integer widths used for data values (besides i1).
  unsigned arguments = 2;            ///< Function arguments (of the first width).
  unsigned blocks = 5;               ///< Blocks, including the entry.
  unsigned ops_per_block = 5;        ///< Ops per block (before the terminator), at most.
  bool backward_branches = true;     ///< Allow branches to earlier blocks (loops).
  bool identities = false;           ///< Also write the shapes algebraic identities decide
                                     ///< (`x - x`, `x * 0`, `(a + b) - b`, `select(a == b, a, b)`, ...).
  bool structured = false;           ///< Also write `scf.if`, `scf.for` (index bounds, 0-3 trips or an
                                     ///< unknown 0/1) and counting `scf.while` loops, each with a random op.
};

/// The small structured programs of the analyses' soundness tests through regions: one
/// narrow width (2..4 bits, so that every input can be tried), 0..2 arguments, 1..4 blocks,
/// `scf` ops among the others.
inline ProgramShape small_structured_shape(std::uint64_t seed) {
  ProgramShape shape;
  shape.widths = {2 + static_cast<unsigned>(seed % 3)};
  shape.arguments = static_cast<unsigned>(seed % 3);
  shape.blocks = 1 + static_cast<unsigned>(seed % 4);
  shape.structured = true;
  return shape;
}

/// A random program `@f` as MLIR text. Every block after the entry may take
/// arguments; values of the entry block and the function arguments are used
/// anywhere (they dominate every block), others only in their own block.
inline std::string random_program(std::uint64_t seed, const ProgramShape& shape) {
  std::mt19937_64 rng(seed);
  const auto pick = [&](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
  struct Val {
    std::string name;
    unsigned width;  // 1 = i1
  };
  const auto type = [](unsigned w) { return "i" + std::to_string(w); };
  const unsigned main_width = shape.widths[0];
  std::vector<Val> global;  // function args + entry block values
  for (unsigned i = 0; i < shape.arguments; ++i) global.push_back({"%a" + std::to_string(i), main_width});
  // Block signatures.
  std::vector<std::vector<unsigned>> block_args(shape.blocks);
  for (unsigned b = 1; b < shape.blocks; ++b) {
    const unsigned n = static_cast<unsigned>(pick(3));
    for (unsigned i = 0; i < n; ++i) block_args[b].push_back(rng() % 4 == 0 ? 1u : shape.widths[pick(shape.widths.size())]);
  }
  std::string out = "func.func @f(";
  for (unsigned i = 0; i < shape.arguments; ++i) out += (i ? ", %a" : "%a") + std::to_string(i) + ": " + type(main_width);
  out += ") -> " + type(main_width) + " {\n";
  static const char* const binary[] = {"addi", "subi", "muli", "divsi", "divui", "remsi", "remui", "andi", "ori",
                                       "xori", "shli", "shrsi", "shrui", "minsi", "maxsi", "minui", "maxui",
                                       "floordivsi", "ceildivsi", "ceildivui"};
  static const char* const predicates[] = {"eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"};
  unsigned counter = 0;
  for (unsigned b = 0; b < shape.blocks; ++b) {
    std::vector<Val> local;
    if (b > 0) {
      out += "^bb" + std::to_string(b);
      if (!block_args[b].empty()) {
        out += "(";
        for (std::size_t i = 0; i < block_args[b].size(); ++i) {
          const std::string name = "%b" + std::to_string(b) + "_" + std::to_string(i);
          out += (i ? ", " : "") + name + ": " + type(block_args[b][i]);
          local.push_back({name, block_args[b][i]});
        }
        out += ")";
      }
      out += ":\n";
    }
    const auto pool_of = [&](unsigned width) {
      std::vector<std::string> pool;
      for (const Val& v : global)
        if (v.width == width) pool.push_back(v.name);
      for (const Val& v : local)
        if (v.width == width) pool.push_back(v.name);
      return pool;
    };
    const auto value_of = [&](unsigned width) -> std::string {
      auto pool = pool_of(width);
      if (pool.empty() || rng() % 6 == 0) {
        // Materialize a constant.
        const std::string name = "%k" + std::to_string(counter++);
        const std::int64_t lo = width == 1 ? 0 : -(std::int64_t{1} << (std::min(width, 62u) - 1));
        const std::int64_t span = width == 1 ? 2 : std::int64_t{1} << std::min(width, 62u);
        const std::int64_t v = lo + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(span));
        if (width == 1) out += "  " + name + " = arith.constant " + (v ? "true" : "false") + "\n";
        else out += "  " + name + " = arith.constant " + std::to_string(v) + " : " + type(width) + "\n";
        (b == 0 ? global : local).push_back({name, width});
        return name;
      }
      return pool[pick(pool.size())];
    };
    // A constant of width `w` with the given bits (low bits kept).
    const auto constant_of = [&](unsigned width, std::uint64_t bits) {
      const std::string name = "%k" + std::to_string(counter++);
      const std::int64_t v = sign_extend(bits, width);
      if (width == 1) out += "  " + name + " = arith.constant " + (v ? "true" : "false") + "\n";
      else out += "  " + name + " = arith.constant " + std::to_string(v) + " : " + type(width) + "\n";
      (b == 0 ? global : local).push_back({name, width});
      return name;
    };
    // One op `name = arith.<op> x, y : T`.
    const auto emit = [&](const std::string& name, const std::string& op, const std::string& x, const std::string& y,
                          unsigned width) {
      out += "  " + name + " = arith." + op + " " + x + ", " + y + " : " + type(width) + "\n";
    };
    // A value of width `w` computed from `x` (and another visible value) by a random binary op
    // that is defined everywhere (no division), written at `indent`.
    const auto region_op = [&](const std::string& indent, const std::string& x, unsigned w) {
      static const char* const total[] = {"addi", "subi", "muli", "andi", "ori", "xori", "minsi", "maxui"};
      const std::string t = "%t" + std::to_string(counter++);
      auto pool = pool_of(w);
      const std::string y = pool.empty() ? x : pool[pick(pool.size())];
      out += indent + t + " = arith." + total[pick(8)] + " " + x + ", " + y + " : " + type(w) + "\n";
      return t;
    };
    const unsigned ops = 1 + static_cast<unsigned>(pick(shape.ops_per_block));
    for (unsigned k = 0; k < ops; ++k) {
      const unsigned w = shape.widths[pick(shape.widths.size())];
      const std::string name = "%v" + std::to_string(counter++);
      if (shape.structured && w > 1 && rng() % 4 == 0) {
        const std::string x = value_of(w);
        switch (pick(3)) {
          case 0: {  // scf.if with a result
            const std::string c = value_of(1), z = value_of(w);  // before the region: constants stay outside
            out += "  " + name + " = scf.if " + c + " -> (" + type(w) + ") {\n";
            const std::string t = region_op("    ", x, w);
            out += "    scf.yield " + t + " : " + type(w) + "\n  } else {\n";
            out += "    scf.yield " + z + " : " + type(w) + "\n  }\n";
            break;
          }
          case 1: {  // scf.for over index bounds
            const std::string lb = "%lb" + std::to_string(counter), ub = "%ub" + std::to_string(counter),
                              st = "%st" + std::to_string(counter), iv = "%i" + std::to_string(counter),
                              acc = "%s" + std::to_string(counter);
            ++counter;
            out += "  " + lb + " = arith.constant " + std::to_string(pick(2)) + " : index\n";
            if (rng() % 3 == 0) {
              out += "  " + ub + " = arith.index_castui " + value_of(1) + " : i1 to index\n";
            } else {
              out += "  " + ub + " = arith.constant " + std::to_string(pick(4)) + " : index\n";
            }
            out += "  " + st + " = arith.constant " + std::to_string(1 + pick(2)) + " : index\n";
            out += "  " + name + " = scf.for " + iv + " = " + lb + " to " + ub + " step " + st + " iter_args(" + acc +
                   " = " + x + ") -> (" + type(w) + ") {\n";
            const std::string cast = "%c" + std::to_string(counter++);
            out += "    " + cast + " = arith.index_cast " + iv + " : index to " + type(w) + "\n";
            const std::string t = "%t" + std::to_string(counter++);
            out += "    " + t + " = arith.addi " + acc + ", " + cast + " : " + type(w) + "\n";
            const std::string next = region_op("    ", t, w);
            out += "    scf.yield " + next + " : " + type(w) + "\n  }\n";
            break;
          }
          default: {  // scf.while counting up to a constant
            const std::string a = "%w" + std::to_string(counter), b = "%x" + std::to_string(counter),
                              c = "%q" + std::to_string(counter), bound = constant_of(w, pick(4)),
                              one = constant_of(w, 1);
            ++counter;
            out += "  " + name + " = scf.while (" + a + " = " + x + ") : (" + type(w) + ") -> " + type(w) + " {\n";
            out += "    " + c + " = arith.cmpi ult, " + a + ", " + bound + " : " + type(w) + "\n";
            out += "    scf.condition(" + c + ") " + a + " : " + type(w) + "\n  } do {\n  ^bb0(" + b + ": " + type(w) +
                   "):\n";
            const std::string n = "%t" + std::to_string(counter++);
            out += "    " + n + " = arith.addi " + b + ", " + one + " : " + type(w) + "\n";
            out += "    scf.yield " + n + " : " + type(w) + "\n  }\n";
            break;
          }
        }
        (b == 0 ? global : local).push_back({name, w});
        continue;
      }
      if (shape.identities && w > 1 && rng() % 2 == 0) {
        const std::string x = value_of(w);
        switch (pick(6)) {
          case 0: emit(name, binary[pick(17)], x, x, w); break;  // x op x
          case 1: {  // x op K / K op x with K in {0, 1, -1, INT_MAX, INT_MIN}
            const std::uint64_t mask = width_mask(w);
            const std::uint64_t specials[] = {0, 1, mask, mask >> 1, (mask >> 1) + 1};
            const std::string c = constant_of(w, specials[pick(5)]);
            if (rng() % 2) emit(name, binary[pick(17)], x, c, w);
            else emit(name, binary[pick(17)], c, x, w);
            break;
          }
          case 2: {  // (x + y) - y, (x + y) - x, (x - y) + y, y + (x - y)
            const std::string y = value_of(w), t = "%t" + std::to_string(counter++);
            switch (pick(4)) {
              case 0: emit(t, "addi", x, y, w), emit(name, "subi", t, y, w); break;
              case 1: emit(t, "addi", x, y, w), emit(name, "subi", t, x, w); break;
              case 2: emit(t, "subi", x, y, w), emit(name, "addi", t, y, w); break;
              default: emit(t, "subi", x, y, w), emit(name, "addi", y, t, w); break;
            }
            break;
          }
          case 3: {  // (x ^ y) ^ y in its four orders
            const std::string y = value_of(w), t = "%t" + std::to_string(counter++);
            if (rng() % 2) emit(t, "xori", x, y, w);
            else emit(t, "xori", y, x, w);
            if (rng() % 2) emit(name, "xori", t, y, w);
            else emit(name, "xori", y, t, w);
            break;
          }
          case 4: {  // x & ~x, x | ~x
            const std::string t = "%t" + std::to_string(counter++);
            emit(t, "xori", x, constant_of(w, width_mask(w)), w);
            if (rng() % 2) emit(name, rng() % 2 ? "andi" : "ori", x, t, w);
            else emit(name, rng() % 2 ? "andi" : "ori", t, x, w);
            break;
          }
          default: {  // select(x == y, x, y), select(x != y, x, y); or cmpi pred, x, x
            const std::string y = value_of(w), c = "%t" + std::to_string(counter++);
            if (rng() % 3 == 0) {
              out += "  " + name + " = arith.cmpi " + predicates[pick(10)] + ", " + x + ", " + x + " : " + type(w) + "\n";
              (b == 0 ? global : local).push_back({name, 1});
              continue;
            }
            out += "  " + c + " = arith.cmpi " + (rng() % 2 ? "eq" : "ne") + ", " + (rng() % 2 ? x + ", " + y : y + ", " + x) +
                   " : " + type(w) + "\n";
            out += "  " + name + " = arith.select " + c + ", " + x + ", " + y + " : " + type(w) + "\n";
            break;
          }
        }
        (b == 0 ? global : local).push_back({name, w});
        continue;
      }
      const unsigned kind = static_cast<unsigned>(pick(10));
      unsigned result_width = w;
      if (kind < 5) {
        const std::string x = value_of(w), y = value_of(w);
        out += "  " + name + " = arith." + binary[pick(17)] + " " + x + ", " + y + " : " + type(w) + "\n";
      } else if (kind < 7) {
        const std::string x = value_of(w), y = value_of(w);
        out += "  " + name + " = arith.cmpi " + predicates[pick(10)] + ", " + x + ", " + y + " : " + type(w) + "\n";
        result_width = 1;
      } else if (kind == 7) {
        const std::string c = value_of(1), x = value_of(w), y = value_of(w);
        out += "  " + name + " = arith.select " + c + ", " + x + ", " + y + " : " + type(w) + "\n";
      } else {
        // A cast between two different widths (i1 included as a source).
        unsigned from = rng() % 3 == 0 ? 1u : shape.widths[pick(shape.widths.size())];
        unsigned to = shape.widths[pick(shape.widths.size())];
        if (from == to) {
          if (from == 1) to = main_width;
          else from = 1;
        }
        if (from == to) continue;
        const std::string x = value_of(from);
        const char* op = from > to ? "trunci" : (rng() % 2 ? "extsi" : "extui");
        out += "  " + name + " = arith." + op + " " + x + " : " + type(from) + " to " + type(to) + "\n";
        result_width = to;
      }
      (b == 0 ? global : local).push_back({name, result_width});
    }
    // Terminator.
    const auto target = [&]() -> unsigned {
      if (shape.backward_branches) return 1 + static_cast<unsigned>(pick(shape.blocks - 1));
      return b + 1 + static_cast<unsigned>(pick(shape.blocks - 1 - b));
    };
    const auto successor = [&](unsigned t) {
      std::string s = "^bb" + std::to_string(t);
      if (block_args[t].empty()) return s;
      std::vector<std::string> names;
      for (const unsigned w : block_args[t]) names.push_back(value_of(w));
      s += "(";
      for (std::size_t i = 0; i < names.size(); ++i) s += (i ? ", " : "") + names[i];
      s += " : ";
      for (std::size_t i = 0; i < names.size(); ++i) s += (i ? ", " : "") + type(block_args[t][i]);
      return s + ")";
    };
    const bool last = b + 1 == shape.blocks;
    if (last || (b > 0 && rng() % 5 == 0)) {
      const std::string r = value_of(main_width);
      out += "  return " + r + " : " + type(main_width) + "\n";
    } else if (rng() % 3 == 0) {
      const std::string s = successor(target());
      out += "  cf.br " + s + "\n";
    } else {
      const std::string c = value_of(1);
      const std::string s1 = successor(target()), s2 = successor(target());
      out += "  cf.cond_br " + c + ", " + s1 + ", " + s2 + "\n";
    }
  }
  out += "}\n";
  return out;
}

/// What the interpreter observed over many runs of one function.
struct Observations {
  std::vector<std::set<std::uint64_t>> values;  ///< Per value: the bit patterns it took.
  std::vector<bool> blocks;                     ///< Per block: entered at least once.
  std::size_t runs = 0;                         ///< Number of runs.
  std::size_t returned = 0;                     ///< Runs that returned normally.
};

/// All argument tuples for `fn` when their total width is at most `max_bits`, else `samples`
/// random tuples (plus the all-zero and all-ones tuples), from `rng`.
inline std::vector<std::vector<std::uint64_t>> input_tuples(const Function& fn, unsigned max_bits, std::size_t samples,
                                                            std::mt19937_64& rng) {
  unsigned total = 0;
  for (const Type t : fn.argument_types) total += t.width();
  std::vector<std::vector<std::uint64_t>> tuples;
  if (total <= max_bits) {
    for (std::uint64_t code = 0; code < (std::uint64_t{1} << total); ++code) {
      std::vector<std::uint64_t> args;
      unsigned shift = 0;
      for (const Type t : fn.argument_types) {
        args.push_back((code >> shift) & width_mask(t.width()));
        shift += t.width();
      }
      tuples.push_back(args);
    }
    return tuples;
  }
  tuples.emplace_back(fn.argument_types.size(), 0);
  tuples.emplace_back(fn.argument_types.size(), ~std::uint64_t{0});
  static const std::uint64_t interesting[] = {0, 1, 2, 3, ~std::uint64_t{0}, ~std::uint64_t{0} - 1};
  for (std::size_t s = 0; s < samples; ++s) {
    std::vector<std::uint64_t> args;
    for (std::size_t i = 0; i < fn.argument_types.size(); ++i) {
      const unsigned w = fn.argument_types[i].width();
      std::uint64_t v = rng();
      switch (rng() % 4) {
        case 0: v = interesting[rng() % 6]; break;
        case 1: v = (std::uint64_t{1} << (w - 1)) + (rng() % 3) - 1; break;  // around the sign boundary
        case 2: v = rng() % 16; break;
        default: break;
      }
      args.push_back(v & width_mask(w));
    }
    tuples.push_back(args);
  }
  return tuples;
}

/// Runs function 0 of `module` on every tuple, recording values and blocks.
inline Observations observe(const Module& module, const std::vector<std::vector<std::uint64_t>>& tuples,
                            std::uint64_t max_steps) {
  const Function& fn = module.functions[0];
  Observations obs;
  obs.values.resize(fn.values.size());
  obs.blocks.assign(fn.blocks.size(), false);
  InterpreterOptions options;
  options.max_steps = max_steps;
  options.on_value = [&](std::uint32_t f, ValueId v, std::uint64_t bits) {
    if (f == 0) obs.values[v].insert(bits);
  };
  options.on_block = [&](std::uint32_t f, BlockId b) {
    if (f == 0) obs.blocks[b] = true;
  };
  const Interpreter interpreter(module);
  for (const auto& args : tuples) {
    const ExecResult r = interpreter.run(0u, args, options);
    ++obs.runs;
    obs.returned += r.status == ExecStatus::returned;
  }
  return obs;
}

/// The first argument tuple on which function 0 of `after` does not return what function 0 of
/// `before` returns (runs of `before` that do not return within `max_steps` are skipped;
/// `after` gets twice the steps); nothing when they agree on every tuple. The oracle of the
/// rewrite tests: a rewrite must keep every defined result.
inline std::optional<std::vector<std::uint64_t>> first_difference(const Module& before, const Module& after,
                                                                  const std::vector<std::vector<std::uint64_t>>& tuples,
                                                                  std::uint64_t max_steps) {
  const Interpreter a(before), b(after);
  InterpreterOptions small, large;
  small.max_steps = max_steps;
  large.max_steps = 2 * max_steps + 64;
  for (const auto& args : tuples) {
    const ExecResult x = a.run(0u, args, small);
    if (x.status != ExecStatus::returned) continue;
    const ExecResult y = b.run(0u, args, large);
    if (y.status != ExecStatus::returned || y.results != x.results) return args;
  }
  return std::nullopt;
}

}  // namespace kildall::ir::testing
