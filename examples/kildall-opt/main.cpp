// kildall-opt: an `mlir-opt`-shaped driver for kildall's reference IR.
//
//   kildall-opt [options] <input.mlir | -> [-o <output>]
//
// Parses and verifies the input, runs the requested passes in command-line
// order, and prints the module (or an analysis dump, or a Graphviz CFG).
// Every error is reported as `file:line:col: error: ...` (or `kildall-opt:
// error: ...` for command-line problems) with exit code 1, and nothing is
// written: the output file is opened only after everything succeeded.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <iterator>
#include <optional>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#if __has_include(<sys/mman.h>) && __has_include(<unistd.h>) && __has_include(<fcntl.h>)
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#define KILDALL_OPT_HAS_MMAP 1
#else
#define KILDALL_OPT_HAS_MMAP 0
#endif

#if defined(__GLIBC__) && __has_include(<malloc.h>)
#include <malloc.h>
#define KILDALL_OPT_HAS_MALLOPT 1
#else
#define KILDALL_OPT_HAS_MALLOPT 0
#endif

#include <kildall/ir.hpp>
#include <kildall/ir/analysis/int_range.hpp>
#include <kildall/ir/analysis/sccp.hpp>
#include <kildall/ir/analysis/unsigned_when_equivalent.hpp>
#include <kildall/ir/assume.hpp>
#include <kildall/ir/canonicalize.hpp>
#include <kildall/ir/driver_plugin.hpp>

// Dialects outside kildall/ir/ extend the driver as `ir::DriverPlugin`s. The
// noisy dialect's plugin uses the ILP placement (GLPK, GPL): it is compiled in
// only when CMake found GLPK and Eigen and KILDALL_OPT_WITH_NOISY is ON.
#if defined(KILDALL_OPT_WITH_NOISY)
#include <kildall/noisy/kildall_opt_plugin.hpp>
#endif

namespace {

using namespace kildall::ir;

/// A command-line or I/O problem (reported as `kildall-opt: error: ...`).
struct UsageError {
  std::string message;
};

constexpr std::string_view usage_text =
    "OVERVIEW: kildall reference-IR optimizer driver\n"
    "\n"
    "USAGE: kildall-opt [options] <input.mlir | -> [-o <output>]\n"
    "\n"
    "OPTIONS:\n"
    "  --sccp                     Sparse conditional constant propagation, then fold constants and branches\n"
    "  --int-range-optimizations  Replace values whose integer range is one constant by the constant\n"
    "  --arith-unsigned-when-equivalent  Signed ops on operands proved non-negative become unsigned\n"
    "  --canonicalize             Fold, simplify arith and cf (MLIR's canonicalization patterns), drop dead code\n"
    "  --dump-analysis=<name>     Print one line per SSA value instead of the module (sccp | int-range)\n"
    "  --debug-analysis           Trace every analysis step to stderr\n"
    "  --dot                      Print the CFG as Graphviz, each value with its state (sccp, or the\n"
    "                             analysis named by --dump-analysis)\n"
    "  --dot=values               Print the def-use graph as Graphviz instead: one node per op with\n"
    "                             its results' states, ops added by this run's passes filled\n"
    "  --timing                   Report wall time per phase to stderr\n"
    "  --allow-unregistered-dialect  Accept ops of unknown dialects in MLIR's generic form\n"
    "                             (\"foo.op\"(%a) : (i32) -> i32): opaque, results unknown\n"
    "  -o <file>                  Output file (default: stdout); never the input file\n"
    "  -h, --help                 This text\n";

std::vector<DriverPlugin> load_plugins() {
  std::vector<DriverPlugin> plugins;
#if defined(KILDALL_OPT_WITH_NOISY)
  plugins.push_back(kildall::noisy::kildall_opt_plugin());
#endif
  return plugins;
}

struct Options {
  std::string input;
  std::string output = "-";
  std::vector<std::string> passes;  // "sccp", "int-range-optimizations", "arith-unsigned-when-equivalent", "canonicalize"
  std::string dump;                 // "", "sccp", "int-range"
  bool debug = false;
  bool dot = false;
  bool dot_values = false;          // --dot=values: the def-use graph instead of the CFG
  bool timing = false;
  bool allow_unregistered = false;  // --allow-unregistered-dialect
  bool help = false;
  std::vector<bool> plugin_used;    // per plugin: it took at least one argument
};

/// The plugin that provides `--dump-analysis=name`, or nullptr.
const DriverPlugin* plugin_for_analysis(const std::vector<DriverPlugin>& plugins, std::string_view name) {
  for (const DriverPlugin& plugin : plugins)
    for (const std::string& analysis : plugin.analyses)
      if (analysis == name) return &plugin;
  return nullptr;
}

Options parse_options(int argc, char** argv, const std::vector<DriverPlugin>& plugins) {
  Options options;
  options.plugin_used.assign(plugins.size(), false);
  bool have_input = false;
  const std::vector<std::string_view> args(argv + 1, argv + argc);
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.starts_with("-") && arg != "-" && !arg.starts_with("--dump-analysis=")) {
      // Offer the argument to the plugins first (built-in names are not theirs to take).
      int consumed = 0;
      const std::span<const std::string_view> rest(args.data() + i, args.size() - static_cast<std::size_t>(i));
      for (std::size_t p = 0; p < plugins.size() && consumed == 0; ++p) {
        if (!plugins[p].parse_argument) continue;
        try {
          consumed = plugins[p].parse_argument(arg, rest);
        } catch (const std::invalid_argument& e) {
          throw UsageError{e.what()};
        }
        if (consumed > 0) options.plugin_used[p] = true;
      }
      if (consumed > 0) {
        i += consumed - 1;
        continue;
      }
    }
    if (arg == "-h" || arg == "--help") {
      options.help = true;
    } else if (arg == "--sccp") {
      options.passes.emplace_back("sccp");
    } else if (arg == "--int-range-optimizations" || arg == "--arith-unsigned-when-equivalent" ||
               arg == "--canonicalize") {
      options.passes.emplace_back(arg.substr(2));
    } else if (arg.starts_with("--dump-analysis=")) {
      options.dump = std::string(arg.substr(16));
      if (options.dump != "sccp" && options.dump != "int-range" && !plugin_for_analysis(plugins, options.dump)) {
        std::string known = "sccp, int-range";
        for (const DriverPlugin& plugin : plugins)
          for (const std::string& name : plugin.analyses) known += ", " + name;
        throw UsageError{"unknown analysis '" + options.dump + "' for --dump-analysis (expected one of: " + known + ")"};
      }
    } else if (arg == "--debug-analysis") {
      options.debug = true;
    } else if (arg == "--dot") {
      options.dot = true;
    } else if (arg == "--dot=values") {
      options.dot = true;
      options.dot_values = true;
    } else if (arg.starts_with("--dot=")) {
      throw UsageError{"unknown graph '" + std::string(arg.substr(6)) + "' for --dot= (expected: values)"};
    } else if (arg == "--timing") {
      options.timing = true;
    } else if (arg == "--allow-unregistered-dialect") {
      options.allow_unregistered = true;
    } else if (arg == "-o") {
      if (i + 1 >= argc) throw UsageError{"option '-o' needs a file name"};
      options.output = argv[++i];
    } else if (arg.starts_with("-o") && arg.size() > 2) {
      options.output = std::string(arg.substr(2));
    } else if (arg == "-" || !arg.starts_with("-")) {
      if (have_input) throw UsageError{"more than one input file: '" + options.input + "' and '" + std::string(arg) + "'"};
      options.input = std::string(arg);
      have_input = true;
    } else {
      throw UsageError{"unknown option '" + std::string(arg) + "' (see --help)"};
    }
  }
  if (!options.help && !have_input) throw UsageError{"no input file (use '-' for stdin; see --help)"};
  return options;
}

bool same_file(const std::string& a, const std::string& b) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::exists(a, ec) && fs::exists(b, ec)) return fs::equivalent(a, b, ec);
  return fs::weakly_canonical(a, ec) == fs::weakly_canonical(b, ec);
}

std::string read_input(const std::string& path) {
  if (path == "-") return std::string(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw UsageError{"cannot read input file '" + path + "': it is a directory"};
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError{"cannot open input file '" + path + "'"};
  // Read straight into a string of the file's size (a stringstream would hold the text twice).
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size < 0) {  // not seekable: read as a stream
    in.clear();
    std::string text(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>{});
    if (in.bad()) throw UsageError{"cannot read input file '" + path + "'"};
    return text;
  }
  std::string text(static_cast<std::size_t>(size), '\0');
  in.seekg(0);
  if (!in.read(text.data(), size)) throw UsageError{"cannot read input file '" + path + "'"};
  return text;
}

/// The input text: a read-only mapping of a regular file (POSIX), else a string read whole.
/// The parser reports how far it got after each function, and the mapped pages before that
/// point are dropped (`release_before`): they are clean file pages, so the peak memory holds
/// the module and a window of the text instead of the module and the whole text. The next
/// `populate_bytes` of text are mapped in one call ahead of the parser (`MADV_POPULATE_READ`,
/// Linux 5.14): one fault per 4 KiB page cost a sixth of `--sccp` on a 49 MB function.
class InputText {
 public:
  explicit InputText(const std::string& path) {
#if KILDALL_OPT_HAS_MMAP
    if (path != "-") {
      const int fd = ::open(path.c_str(), O_RDONLY);
      struct stat info {};
      if (fd >= 0 && ::fstat(fd, &info) == 0 && S_ISREG(info.st_mode) && info.st_size > 0) {
        void* base = ::mmap(nullptr, static_cast<std::size_t>(info.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
        if (base != MAP_FAILED) {
          mapped_ = static_cast<const char*>(base);
          size_ = static_cast<std::size_t>(info.st_size);
          (void)::madvise(base, size_, MADV_SEQUENTIAL);
          populate_from(0);
        }
      }
      if (fd >= 0) ::close(fd);
      if (mapped_) return;
    }
#endif
    owned_ = read_input(path);
  }
  InputText(const InputText&) = delete;
  InputText& operator=(const InputText&) = delete;
  ~InputText() { release(); }

  /// The text.
  [[nodiscard]] std::string_view text() const {
    return mapped_ ? std::string_view(mapped_, size_) : std::string_view(owned_);
  }
  /// Drops the resident pages of the first `offset` bytes (they can still be read: they fault in again).
  void release_before(std::size_t offset) {
#if KILDALL_OPT_HAS_MMAP
    if (!mapped_) return;
    const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    const std::size_t end = offset / page * page;
    if (end < released_ + (std::size_t{1} << 20)) return;  // in steps of at least 1 MB
    (void)::madvise(const_cast<char*>(mapped_) + released_, end - released_, MADV_DONTNEED);
    released_ = end;
    populate_from(end);
#else
    (void)offset;
#endif
  }
  /// Frees the text.
  void release() {
#if KILDALL_OPT_HAS_MMAP
    if (mapped_) ::munmap(const_cast<char*>(mapped_), size_);
#endif
    mapped_ = nullptr;
    size_ = 0;
    std::string().swap(owned_);
  }

 private:
  /// Maps [offset, offset + populate_bytes) of the text now, unless already done (advice only:
  /// a kernel without MADV_POPULATE_READ leaves the pages to fault in one by one).
  void populate_from([[maybe_unused]] std::size_t offset) {
#if KILDALL_OPT_HAS_MMAP && defined(MADV_POPULATE_READ)
    constexpr std::size_t populate_bytes = std::size_t{64} << 20;
    const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    const std::size_t begin = std::max(offset / page * page, populated_);
    const std::size_t end = std::min(size_, offset + populate_bytes);
    if (begin >= end) return;
    (void)::madvise(const_cast<char*>(mapped_) + begin, end - begin, MADV_POPULATE_READ);
    populated_ = end;
#endif
  }

  const char* mapped_ = nullptr;
  std::size_t size_ = 0;
  std::size_t released_ = 0;
  std::size_t populated_ = 0;  // the text before this offset has been populated
  std::string owned_;
};

/// Wall-clock phases for --timing.
class Timer {
 public:
  void start(std::string name) {
    name_ = std::move(name);
    begin_ = std::chrono::steady_clock::now();
  }
  void stop() { rows_.emplace_back(name_, seconds_since(begin_)); }
  void report(std::ostream& out, std::chrono::steady_clock::time_point total_begin) const {
    const double total = seconds_since(total_begin);
    out << "===" << std::string(73, '-') << "===\n"
        << std::string(27, ' ') << "... Execution time report ...\n"
        << "===" << std::string(73, '-') << "===\n"
        << "  Total Execution Time: " << std::fixed << std::setprecision(4) << total << " seconds\n\n"
        << "  ----Wall Time----  ----Name----\n";
    const auto row = [&](double seconds, const std::string& name) {
      const double percent = total > 0 ? 100.0 * seconds / total : 0.0;
      out << "  " << std::setw(8) << std::fixed << std::setprecision(4) << seconds << " (" << std::setw(5)
          << std::setprecision(1) << percent << "%)  " << name << "\n";
    };
    for (const auto& [name, seconds] : rows_) row(seconds, name);
    row(total, "Total");
  }

 private:
  static double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  }
  std::string name_;
  std::chrono::steady_clock::time_point begin_;
  std::vector<std::pair<std::string, double>> rows_;
};

/// Solver observer printing the --debug-analysis trace, shaped like MLIR's
/// `--debug-only=int-range-analysis` output.
template <class Describe>
class TraceObserver {
 public:
  TraceObserver(const Function& fn, const OpRegistry& registry, std::string_view verb, Describe describe)
      : fn_(&fn), registry_(&registry), namer_(fn), verb_(verb), describe_(describe) {}

  template <class Event>
  void on_visit(const Event& event) {
    const ValueId v = event.node;
    const ValueData& value = fn_->values[v];
    std::cerr << verb_ << " for ";
    if (value.is_block_argument) {
      std::cerr << namer_.value(v) << " (argument #" << value.position << " of "
                << (value.owner == 0 ? std::string("the entry block") : namer_.block(value.owner)) << ")";
    } else {
      std::cerr << print_op(*fn_, value.owner, *registry_, namer_);
    }
    std::cerr << "\n" << describe_(event.after, value.type) << (event.widened ? " (widened)" : "") << "\n";
  }

 private:
  const Function* fn_;
  const OpRegistry* registry_;
  ValueNamer namer_;
  std::string_view verb_;
  Describe describe_;
};

std::string describe_range(const kildall::Interval* s, Type) {
  return s ? "Inferred range " + kildall::to_mlir_debug_string(*s) : "Inferred range uninitialized";
}

std::string describe_constant(const ConstantState* s, Type type) {
  if (!s || s->is_bottom()) return "Inferred constant uninitialized";
  if (s->is_top()) return "Inferred constant overdefined";
  if (type.width() == 0) return "Inferred constant " + std::to_string(s->constant());
  return "Inferred constant " + std::to_string(sign_extend(s->constant(), type.width()));
}

/// Per-function analysis states as text, for --dump-analysis and --dot.
struct FunctionStates {
  std::vector<std::string> state;  // per value
  std::vector<bool> executable;    // per block
};

void check_converged(const kildall::SolveOutcome<ValueId>& outcome, const Module& module, const Function& fn) {
  if (outcome.converged()) return;
  throw IrError(Diagnostic{module.source_name, fn.loc,
                           "analysis of '@" + fn.name + "' stopped: " + std::string(to_string(outcome.status))});
}

kildall::SolverOptions solver_options() {
  kildall::SolverOptions options;
  options.narrowing_passes = 2;
  return options;
}

FunctionStates analyse(const Module& module, const Function& fn, const std::string& analysis, bool debug,
                       const std::vector<DriverPlugin>& plugins) {
  FunctionStates out;
  const OpRegistry& registry = *module.registry;
  if (const DriverPlugin* plugin = plugin_for_analysis(plugins, analysis)) {
    const PluginContext context{debug, &std::cerr};
    out.state = plugin->describe_values(module, fn, analysis, context);
    out.state.resize(fn.values.size(), "uninitialized");
    const SccpAnalysis reachability(fn, registry, solver_options());
    for (BlockId b = 0; b < fn.blocks.size(); ++b) out.executable.push_back(reachability.executable(b));
    return out;
  }
  const auto fill = [&](const auto& a) {
    check_converged(a.result().outcome(), module, fn);
    for (ValueId v = 0; v < fn.values.size(); ++v) out.state.push_back(a.describe(v));
    for (BlockId b = 0; b < fn.blocks.size(); ++b) out.executable.push_back(a.executable(b));
  };
  if (analysis == "int-range") {
    if (debug) {
      TraceObserver trace(fn, registry, "Inferring ranges", describe_range);
      fill(IntRangeAnalysis(fn, &registry, solver_options(), trace));
    } else {
      fill(IntRangeAnalysis(fn, &registry, solver_options()));
    }
  } else {
    if (debug) {
      TraceObserver trace(fn, registry, "Inferring constant", describe_constant);
      fill(SccpAnalysis(fn, registry, solver_options(), trace));
    } else {
      fill(SccpAnalysis(fn, registry, solver_options()));
    }
  }
  return out;
}

void run_pass(Module& module, const std::string& pass, bool debug) {
  for (Function& fn : module.functions) {
    if (fn.is_declaration()) continue;
    if (pass == "sccp") {
      const auto run = [&](const SccpAnalysis& analysis) {
        check_converged(analysis.result().outcome(), module, fn);
        (void)apply_sccp(fn, analysis);
      };
      if (debug) {
        TraceObserver trace(fn, *module.registry, "Inferring constant", describe_constant);
        run(SccpAnalysis(fn, *module.registry, solver_options(), trace));
      } else {
        run(SccpAnalysis(fn, *module.registry, solver_options()));
      }
    } else if (pass == "canonicalize") {
      (void)canonicalize(fn, *module.registry);
    } else {
      const auto run = [&](const IntRangeAnalysis& analysis) {
        check_converged(analysis.result().outcome(), module, fn);
        if (pass == "arith-unsigned-when-equivalent") (void)apply_arith_unsigned_when_equivalent(fn, analysis);
        else (void)apply_int_range_optimizations(fn, analysis);
      };
      if (debug) {
        TraceObserver trace(fn, *module.registry, "Inferring ranges", describe_range);
        run(IntRangeAnalysis(fn, module.registry, solver_options(), trace));
      } else {
        run(IntRangeAnalysis(fn, module.registry, solver_options()));
      }
    }
  }
  verify(module);  // a pass must leave valid IR
}

void dump_analysis(const Module& module, const std::string& analysis, bool debug,
                   const std::vector<DriverPlugin>& plugins, std::string& out) {
  for (const Function& fn : module.functions) {
    if (fn.is_declaration()) continue;
    out += "// @" + fn.name + "\n";
    const FunctionStates states = analyse(module, fn, analysis, debug, plugins);
    const ValueNamer namer(fn);
    const auto line = [&](ValueId v) {
      namer.append_value(out, v);
      out += " = " + states.state[v] + "\n";
    };
    for (BlockId b = 0; b < fn.blocks.size(); ++b) {
      for (std::uint32_t i = 0; i < fn.blocks[b].argument_count; ++i) line(fn.argument(b, i));
      for (const OpId op : fn.ops_of(b))
        for (std::uint32_t r = 0; r < fn.ops[op].result_count; ++r) line(fn.result(op, r));
    }
  }
}

std::string dot_escape(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '"' || c == '\\' || c == '{' || c == '}' || c == '<' || c == '>' || c == '|') out += '\\';
    out += c;
  }
  return out;
}

void print_dot(const Module& module, const std::string& analysis, bool debug,
               const std::vector<DriverPlugin>& plugins, std::string& out) {
  out += "digraph kildall {\n  node [shape=box, fontname=\"monospace\"];\n";
  for (std::size_t f = 0; f < module.functions.size(); ++f) {
    const Function& fn = module.functions[f];
    if (fn.is_declaration()) continue;
    const FunctionStates states = analyse(module, fn, analysis, debug, plugins);
    const ValueNamer namer(fn);
    const CfgView cfg(fn);
    const std::string prefix = "f" + std::to_string(f) + "_b";
    out += "  subgraph cluster_" + std::to_string(f) + " {\n    label=\"@" + dot_escape(fn.name) + "\";\n";
    for (BlockId b = 0; b < fn.blocks.size(); ++b) {
      std::string label = b == 0 ? std::string("entry") : namer.block(b);
      label += states.executable[b] ? "\\l" : " (dead)\\l";
      const auto line = [&](ValueId v) { label += dot_escape(namer.value(v) + " = " + states.state[v]) + "\\l"; };
      for (std::uint32_t i = 0; i < fn.blocks[b].argument_count; ++i) line(fn.argument(b, i));
      for (const OpId op : fn.ops_of(b))
        for (std::uint32_t r = 0; r < fn.ops[op].result_count; ++r) line(fn.result(op, r));
      const OpId term = fn.terminator(b);
      if (term != no_index) label += dot_escape(module.registry->op(fn.ops[term].code).name) + "\\l";
      out += "    " + prefix + std::to_string(b) + " [label=\"" + label + "\"" +
             (states.executable[b] ? "" : ", style=dashed") + "];\n";
    }
    for (const CfgEdge& e : cfg.edges()) {
      out += "    " + prefix + std::to_string(e.source) + " -> " + prefix + std::to_string(e.target);
      const OpId term = fn.terminator(e.source);
      if (is(fn.ops[term].code, BuiltinOp::cond_br))
        out += e.successor == fn.ops[term].successor_begin ? " [label=\"true\"]" : " [label=\"false\"]";
      out += ";\n";
    }
    out += "  }\n";
  }
  out += "}\n";
}

/// `--dot=values`: the def-use graph of each function, one node per op (its
/// results with their states) and per block argument, an edge from each value's
/// definition to each of its users, ops grouped by block. Ops that did not
/// exist after parsing (added by this run's passes: ids at or past
/// `parsed_ops[f]`) are filled, so an optimizer's insertions stand out.
void print_dot_values(const Module& module, const std::string& analysis, bool debug,
                      const std::vector<DriverPlugin>& plugins, const std::vector<std::size_t>& parsed_ops,
                      std::string& out) {
  out += "digraph kildall {\n  node [shape=box, fontname=\"monospace\"];\n  rankdir=TB;\n";
  for (std::size_t f = 0; f < module.functions.size(); ++f) {
    const Function& fn = module.functions[f];
    if (fn.is_declaration()) continue;
    const FunctionStates states = analyse(module, fn, analysis, debug, plugins);
    const ValueNamer namer(fn);
    const std::string prefix = "f" + std::to_string(f) + "_";
    const auto node_of = [&](ValueId v) {
      const ValueData& data = fn.values[v];
      return data.is_block_argument ? prefix + "a" + std::to_string(v) : prefix + "o" + std::to_string(data.owner);
    };
    out += "  subgraph cluster_" + std::to_string(f) + " {\n    label=\"@" + dot_escape(fn.name) + "\";\n";
    for (BlockId b = 0; b < fn.blocks.size(); ++b) {
      out += "    subgraph cluster_" + std::to_string(f) + "_" + std::to_string(b) + " {\n      label=\"" +
             dot_escape(b == 0 ? std::string("entry") : namer.block(b)) + (states.executable[b] ? "" : " (dead)") +
             "\";" + (states.executable[b] ? "" : " style=dashed;") + "\n";
      for (std::uint32_t i = 0; i < fn.blocks[b].argument_count; ++i) {
        const ValueId v = fn.argument(b, i);
        out += "      " + prefix + "a" + std::to_string(v) + " [shape=ellipse, label=\"" +
               dot_escape(namer.value(v)) + "\\n" + dot_escape(states.state[v]) + "\"];\n";
      }
      for (const OpId op : fn.ops_of(b)) {
        const OpData& data = fn.ops[op];
        std::string label;  // already escaped: "%a, %b = op\nstate of %a\nstate of %b"
        for (std::uint32_t r = 0; r < data.result_count; ++r)
          label += (r ? ", " : "") + dot_escape(namer.value(fn.result(op, r)));
        label += (label.empty() ? "" : " = ") + dot_escape(module.registry->op(data.code).name);
        for (std::uint32_t r = 0; r < data.result_count; ++r) label += "\\n" + dot_escape(states.state[fn.result(op, r)]);
        const bool inserted = f < parsed_ops.size() && op >= parsed_ops[f];
        out += "      " + prefix + "o" + std::to_string(op) + " [label=\"" + label + "\"" +
               (inserted ? ", style=filled, fillcolor=\"#ffd54f\", penwidth=2" : "") + "];\n";
      }
      out += "    }\n";
    }
    for (BlockId b = 0; b < fn.blocks.size(); ++b) {
      for (const OpId op : fn.ops_of(b)) {
        for (const ValueId v : fn.operands_of(op)) {
          out += "    " + node_of(v) + " -> " + prefix + "o" + std::to_string(op) + ";\n";
        }
      }
    }
    out += "  }\n";
  }
  out += "}\n";
}

}  // namespace

int main(int argc, char** argv) {
  const auto total_begin = std::chrono::steady_clock::now();
#if KILDALL_OPT_HAS_MALLOPT
  // Arrays of 128 KB and more (a function's ops, values, views) get their own mapping, returned to
  // the system when freed: a rewrite that moves a function's arrays to larger ones then leaves no
  // holes in the heap that a later, larger array cannot reuse (peak memory -5% on 1M-op inputs).
  (void)mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
  Options options;
  try {
    const std::vector<DriverPlugin> plugins = load_plugins();
    options = parse_options(argc, argv, plugins);
    if (options.help) {
      std::cout << usage_text;
      for (const DriverPlugin& plugin : plugins) std::cout << plugin.usage;
      return 0;
    }
    if (options.input != "-" && options.output != "-" && same_file(options.input, options.output))
      throw UsageError{"refusing to overwrite the input file '" + options.input + "' (choose another -o)"};
    Timer timer;
    InputText input(options.input);
    const std::string_view source = input.text();
    const std::string source_name = options.input == "-" ? "<stdin>" : options.input;
    // An empty (or all-blank) input is almost always a truncated or wrong file:
    // refuse it rather than print an empty module.
    if (source.find_first_not_of(" \t\r\n") == std::string_view::npos)
      throw IrError(Diagnostic{source_name, SourceLoc{1, 1}, "empty input: expected 'module' or 'func.func'"});
    OpRegistry registry;
    for (const DriverPlugin& plugin : plugins)
      if (plugin.register_dialect) plugin.register_dialect(registry);
    (void)add_assume_op(registry);  // kildall.assume (docs/ir.md)
    timer.start("Parser");
    Module module = [&] {
      OpAsmParser parser(source, registry, source_name);
      parser.on_function_parsed([&](std::size_t done) { input.release_before(done); });
      parser.allow_unregistered_ops(options.allow_unregistered);
      return parser.parse_module();
    }();
    input.release();  // the module owns its names: free the text before verifying, the passes and output
    verify(module);
    timer.stop();
    std::vector<std::size_t> parsed_ops;  // per function: ids at or past this were added by passes
    for (const Function& fn : module.functions) parsed_ops.push_back(fn.ops.size());
    for (const std::string& pass : options.passes) {
      timer.start(pass == "sccp"             ? "SCCP"
                  : pass == "canonicalize" ? "Canonicalizer"
                  : pass == "int-range-optimizations" ? "IntRangeOptimizations"
                                                      : "ArithUnsignedWhenEquivalent");
      run_pass(module, pass, options.debug);
      timer.stop();
    }
    for (std::size_t p = 0; p < plugins.size(); ++p) {
      const DriverPlugin& plugin = plugins[p];
      if (!plugin.run_passes || !options.plugin_used[p]) continue;  // no flag of this plugin was given
      timer.start("DialectPasses");
      plugin.run_passes(module, PluginContext{options.debug, &std::cerr});
      verify(module);
      timer.stop();
    }
    // Output: the text is built in memory; the file is opened only once it is complete.
    timer.start("Output");
    // A dump or a graph may still fail (an analysis that does not converge), so it is built whole
    // first; printing the module cannot fail, so it is written a megabyte at a time (the whole
    // text never sits in memory next to the module).
    std::string text;
    const bool print = !options.dot && options.dump.empty();
    if (options.dot_values) {
      print_dot_values(module, options.dump.empty() ? std::string("sccp") : options.dump, options.debug, plugins,
                       parsed_ops, text);
    } else if (options.dot) {
      print_dot(module, options.dump.empty() ? std::string("sccp") : options.dump, options.debug, plugins, text);
    } else if (!options.dump.empty()) {
      dump_analysis(module, options.dump, options.debug, plugins, text);
    }
    const auto write = [&](std::ostream& out) {
      if (!print) {
        out << text;
        return;
      }
      text.clear();
      print_module_header(module, text);
      const auto drain = [&](std::string& buffer) {
        out << buffer;
        buffer.clear();
      };
      for (const Function& fn : module.functions) print_function(fn, *module.registry, text, 2, drain);
      text += "}\n";
      out << text;
    };
    if (options.output == "-") {
      write(std::cout);
      std::cout.flush();
      if (!std::cout) throw UsageError{"cannot write to stdout"};
    } else {
      std::ofstream out(options.output, std::ios::binary | std::ios::trunc);
      if (!out) throw UsageError{"cannot open output file '" + options.output + "'"};
      write(out);
      out.close();
      if (!out) throw UsageError{"cannot write output file '" + options.output + "'"};
    }
    timer.stop();
    if (options.timing) timer.report(std::cerr, total_begin);
    return 0;
  } catch (const IrError& e) {
    std::cerr << e.what() << "\n";
  } catch (const UsageError& e) {
    std::cerr << "kildall-opt: error: " << e.message << "\n";
  } catch (const std::exception& e) {
    std::cerr << "kildall-opt: error: internal error: " << e.what() << "\n";
  }
  return 1;
}
