// kildall-opt: an `mlir-opt`-shaped driver for kildall's reference IR.
//
//   kildall-opt [options] <input.mlir | -> [-o <output>]
//
// Parses and verifies the input, runs the pass pipeline (`--pass-pipeline=...`
// or the passes' flags in command-line order, on the library's pass manager:
// include/kildall/pass/), and prints the module (or an analysis dump, or a
// Graphviz CFG). Every error is reported as `file:line:col: error: ...` (or
// `kildall-opt: error: ...` for command-line problems) with exit code 1, and
// nothing is written: the output file is opened only after everything succeeded.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <span>
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
#include <kildall/ir/passes.hpp>
#include <kildall/pass/command_line.hpp>
#include <kildall/pass/pass_manager.hpp>
#include <kildall/pass/pipeline.hpp>
#include <kildall/pass/thread_pool.hpp>
#include <kildall/pass/timing.hpp>
#include <kildall/support/array_reuse.hpp>
#include <kildall/support/free_page_reporting.hpp>

// Dialects outside kildall/ir/ extend the driver as `ir::DriverPlugin`s. The
// noisy dialect's plugin uses the ILP placement (GLPK, GPL): it is compiled in
// only when CMake found GLPK and Eigen and KILDALL_OPT_WITH_NOISY is ON.
#if defined(KILDALL_OPT_WITH_NOISY)
#include <kildall/noisy/kildall_opt_plugin.hpp>
#endif

namespace {

using namespace kildall::ir;
namespace pass = kildall::pass;

/// A command-line or I/O problem (reported as `kildall-opt: error: ...`).
struct UsageError {
  std::string message;
};

constexpr std::string_view usage_text =
    "OVERVIEW: kildall reference-IR optimizer driver\n"
    "\n"
    "USAGE: kildall-opt [options] <input.mlir | -> [-o <output>]\n"
    "\n"
    "Every option may be written with one dash or two (-sccp = --sccp).\n"
    "\n"
    "OPTIONS:\n"
    "  --pass-pipeline=<pipeline>  Run this textual pipeline, e.g.\n"
    "                             'builtin.module(func.func(sccp,int-range-optimizations))'\n"
    "                             (instead of pass flags)\n"
    "  --split-input-file         Process each '// -----'-separated chunk of the input as a separate\n"
    "                             module; outputs are joined by '// -----'\n"
    "  --dump-analysis=<name>     Print one line per SSA value instead of the module (sccp | int-range)\n"
    "  --debug-analysis           Trace every analysis step to stderr (runs single-threaded)\n"
    "  --dot                      Print the CFG as Graphviz, each value with its state (sccp, or the\n"
    "                             analysis named by --dump-analysis)\n"
    "  --dot=values               Print the def-use graph as Graphviz instead: one node per op with\n"
    "                             its results' states, ops added by this run's passes filled\n"
    "  --mlir-timing, --timing    Report wall time per phase and pass to stderr\n"
    "  --mlir-timing-display=<tree|list>  Layout of the timing report (default: tree)\n"
    "  --mlir-print-ir-before-all  Print the IR to stderr before each pass\n"
    "  --mlir-print-ir-after-all  Print the IR to stderr after each pass\n"
    "  --mlir-disable-threading   Run on one thread: function passes (default: one per core) and\n"
    "                             the noisy placement's windows phase (default: two)\n"
    "  --huge-pages=<auto|on|off>  Offer large arrays to transparent huge pages (default auto: off on\n"
    "                             a VM that reports freed memory to its host, where fresh huge pages\n"
    "                             cost more than 4 KiB ones; on elsewhere)\n"
    "  --allow-unregistered-dialect  Accept ops of unknown dialects in MLIR's generic form\n"
    "                             (\"foo.op\"(%a) : (i32) -> i32): opaque, results unknown\n"
    "  -o <file>                  Output file (default: stdout, also '-o -'); never the input file\n"
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
  std::vector<pass::PipelineElement> pass_flags;  // from -sccp, --noisy-reduce-noise=ilp, ...
  std::optional<std::string> pass_pipeline;       // --pass-pipeline=...
  std::string dump;                 // "", "sccp", "int-range", or a plugin's
  bool debug = false;
  bool dot = false;
  bool dot_values = false;          // --dot=values: the def-use graph instead of the CFG
  bool timing = false;
  pass::TimingDisplay timing_display = pass::TimingDisplay::tree;
  bool print_before = false;
  bool print_after = false;
  bool threading = true;
  bool split_input = false;
  bool allow_unregistered = false;  // --allow-unregistered-dialect
  std::optional<kildall::HugePageAdvice> huge_pages;  // --huge-pages=on|off; nullopt: auto
  bool help = false;
};

/// The plugin that provides `--dump-analysis=name`, or nullptr.
const DriverPlugin* plugin_for_analysis(const std::vector<DriverPlugin>& plugins, std::string_view name) {
  for (const DriverPlugin& plugin : plugins)
    for (const std::string& analysis : plugin.analyses)
      if (analysis == name) return &plugin;
  return nullptr;
}

/// `-name...` as `--name...` (`-o`, `-h` and `-` stay as they are).
std::string double_dash(std::string_view arg) {
  if (arg.size() > 2 && arg[0] == '-' && arg[1] != '-') return "-" + std::string(arg);
  return std::string(arg);
}

Options parse_options(int argc, char** argv, const std::vector<DriverPlugin>& plugins,
                      const IrPassRegistry& registry) {
  Options options;
  bool have_input = false;
  const std::vector<std::string_view> args(argv + 1, argv + argc);
  for (int i = 1; i < argc; ++i) {
    const std::string_view raw = argv[i];
    const std::string normalized = double_dash(raw);
    const std::string_view arg = normalized;
    if (arg == "-h" || arg == "--help") {
      options.help = true;
    } else if (arg.starts_with("--pass-pipeline=")) {
      options.pass_pipeline = std::string(arg.substr(16));
    } else if (arg == "--pass-pipeline") {
      if (i + 1 >= argc) throw UsageError{"option '--pass-pipeline' needs a pipeline"};
      options.pass_pipeline = argv[++i];
    } else if (arg == "--split-input-file") {
      options.split_input = true;
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
    } else if (arg == "--timing" || arg == "--mlir-timing") {
      options.timing = true;
    } else if (arg.starts_with("--mlir-timing-display=")) {
      const std::string_view display = arg.substr(22);
      if (display == "list") options.timing_display = pass::TimingDisplay::list;
      else if (display == "tree") options.timing_display = pass::TimingDisplay::tree;
      else throw UsageError{"unknown display '" + std::string(display) + "' for --mlir-timing-display (expected tree or list)"};
    } else if (arg == "--mlir-print-ir-before-all") {
      options.print_before = true;
    } else if (arg == "--mlir-print-ir-after-all") {
      options.print_after = true;
    } else if (arg == "--mlir-disable-threading") {
      options.threading = false;
    } else if (arg.starts_with("--huge-pages=")) {
      const std::string_view choice = arg.substr(13);
      if (choice == "on") options.huge_pages = kildall::HugePageAdvice::advise;
      else if (choice == "off") options.huge_pages = kildall::HugePageAdvice::none;
      else if (choice == "auto") options.huge_pages.reset();
      else throw UsageError{"unknown choice '" + std::string(choice) + "' for --huge-pages (expected auto, on or off)"};
    } else if (arg == "--allow-unregistered-dialect") {
      options.allow_unregistered = true;
    } else if (arg == "-o") {
      if (i + 1 >= argc) throw UsageError{"option '-o' needs a file name"};
      options.output = argv[++i];
    } else if (arg == "-" || !arg.starts_with("-")) {
      if (have_input) throw UsageError{"more than one input file: '" + options.input + "' and '" + std::string(arg) + "'"};
      options.input = std::string(arg);
      have_input = true;
    } else {
      std::optional<pass::PipelineElement> flag;
      try {
        flag = pass::pass_flag(arg, registry);
        if (flag) (void)registry.find(flag->name)->resolve(flag->options);  // bad option values: said here, with the flag
      } catch (const pass::PipelineError& e) {
        throw UsageError{std::string(raw) + ": " + e.message()};
      }
      if (flag) {
        options.pass_flags.push_back(std::move(*flag));
        continue;
      }
      // The plugins' own options.
      int consumed = 0;
      const std::span<const std::string_view> rest(args.data() + i, args.size() - static_cast<std::size_t>(i));
      for (std::size_t p = 0; p < plugins.size() && consumed == 0; ++p) {
        if (!plugins[p].parse_argument) continue;
        try {
          consumed = plugins[p].parse_argument(arg, rest);
        } catch (const std::invalid_argument& e) {
          throw UsageError{e.what()};
        }
      }
      if (consumed > 0) {
        i += consumed - 1;
      } else if (raw.starts_with("-o") && raw.size() > 2 && raw[2] != '-') {
        options.output = std::string(raw.substr(2));
      } else {
        throw UsageError{"unknown option '" + std::string(raw) + "' (see --help)"};
      }
    }
  }
  if (options.pass_pipeline && !options.pass_flags.empty())
    throw UsageError{"'--pass-pipeline' cannot be used with individual pass flags"};
  if (!options.help && !have_input) throw UsageError{"no input file (use '-' for stdin; see --help)"};
  return options;
}

/// The pass manager of the command line; a bad pipeline is a usage error showing where.
pass::PassManager<IrPasses> build_pipeline(const Options& options, const IrPassRegistry& registry) {
  if (!options.pass_pipeline) {
    try {
      return pass::PassManager<IrPasses>(options.pass_flags, registry);
    } catch (const pass::PipelineError& e) {
      throw UsageError{e.message()};
    }
  }
  const std::string& text = *options.pass_pipeline;
  try {
    const std::vector<pass::PipelineElement> elements = pass::parse_pipeline(text);
    // As mlir-opt: the textual pipeline names its root, `builtin.module(...)`.
    for (const pass::PipelineElement& e : elements)
      if (!e.is_anchor || e.name != IrPasses::module_anchor)
        throw pass::PipelineError(e.column, "can't run '" + e.name + "' on 'builtin.module': anchor the pipeline, "
                                            "as in 'builtin.module(" + e.name + (e.is_anchor ? "(...)" : "") + ")'");
    return pass::PassManager<IrPasses>(elements, registry);
  } catch (const pass::PipelineError& e) {
    throw UsageError{"--pass-pipeline:" + std::string(e.what()) + "\n  " + text + "\n  " +
                     std::string(e.column() > 0 ? e.column() - 1 : 0, ' ') + "^"};
  }
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

/// One `// -----`-separated chunk of the input: its text and first line.
struct Chunk {
  std::string_view text;
  std::uint32_t first_line = 1;
};

/// The chunks of `text` (one chunk unless `split`): a line whose text starts,
/// after blanks, with `// -----` ends a chunk.
std::vector<Chunk> split_chunks(std::string_view text, bool split) {
  if (!split) return {Chunk{text, 1}};
  std::vector<Chunk> chunks;
  std::size_t begin = 0, line_start = 0;
  std::uint32_t line = 1, first = 1;
  while (line_start <= text.size()) {
    const std::size_t end = std::min(text.find('\n', line_start), text.size());
    const std::string_view content = text.substr(line_start, end - line_start);
    const std::size_t lead = content.find_first_not_of(" \t");
    if (lead != std::string_view::npos && content.substr(lead).starts_with("// -----")) {
      chunks.push_back(Chunk{text.substr(begin, line_start - begin), first});
      begin = std::min(end + 1, text.size());
      first = line + 1;
    }
    if (end >= text.size()) break;
    line_start = end + 1;
    ++line;
  }
  chunks.push_back(Chunk{text.substr(begin), first});
  return chunks;
}

/// Per-function analysis states as text, for --dump-analysis and --dot.
struct FunctionStates {
  std::vector<std::string> state;  // per value
  std::vector<bool> executable;    // per block
};

/// The states of function `f` by `analysis`, through the function's analysis manager (cached
/// when the pipeline left the analysis valid).
FunctionStates analyse(const Module& module, std::size_t f, const std::string& analysis, const Options& options,
                       const std::vector<DriverPlugin>& plugins, pass::ModuleAnalyses<IrPasses>& analyses) {
  const Function& fn = module.functions[f];
  FunctionStates out;
  auto& manager = analyses.function_manager(f);
  const auto fill = [&](const auto& a) {
    for (ValueId v = 0; v < fn.values.size(); ++v) out.state.push_back(a.describe(v));
    for (BlockId b = 0; b < fn.blocks.size(); ++b) out.executable.push_back(a.executable(b));
  };
  if (const DriverPlugin* plugin = plugin_for_analysis(plugins, analysis)) {
    const PluginContext context{options.debug, &std::cerr};
    out.state = plugin->describe_values(module, fn, analysis, context);
    out.state.resize(fn.values.size(), "uninitialized");
    const SccpAnalysis reachability(fn, *module.registry, PassContext::default_solver_options());
    for (BlockId b = 0; b < fn.blocks.size(); ++b) out.executable.push_back(reachability.executable(b));
  } else if (analysis == "int-range") {
    fill(manager.get<IntRangeFunctionAnalysis>().get());
  } else {
    fill(manager.get<SccpFunctionAnalysis>().get());
  }
  return out;
}

void dump_analysis(const Module& module, const std::string& analysis, const Options& options,
                   const std::vector<DriverPlugin>& plugins, pass::ModuleAnalyses<IrPasses>& analyses,
                   std::string& out) {
  for (std::size_t f = 0; f < module.functions.size(); ++f) {
    const Function& fn = module.functions[f];
    if (fn.is_declaration()) continue;
    out += "// @" + fn.name + "\n";
    const FunctionStates states = analyse(module, f, analysis, options, plugins, analyses);
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

void print_dot(const Module& module, const std::string& analysis, const Options& options,
               const std::vector<DriverPlugin>& plugins, pass::ModuleAnalyses<IrPasses>& analyses, std::string& out) {
  out += "digraph kildall {\n  node [shape=box, fontname=\"monospace\"];\n";
  for (std::size_t f = 0; f < module.functions.size(); ++f) {
    const Function& fn = module.functions[f];
    if (fn.is_declaration()) continue;
    const FunctionStates states = analyse(module, f, analysis, options, plugins, analyses);
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
void print_dot_values(const Module& module, const std::string& analysis, const Options& options,
                      const std::vector<DriverPlugin>& plugins, pass::ModuleAnalyses<IrPasses>& analyses,
                      const std::vector<std::size_t>& parsed_ops, std::string& out) {
  out += "digraph kildall {\n  node [shape=box, fontname=\"monospace\"];\n  rankdir=TB;\n";
  for (std::size_t f = 0; f < module.functions.size(); ++f) {
    const Function& fn = module.functions[f];
    if (fn.is_declaration()) continue;
    const FunctionStates states = analyse(module, f, analysis, options, plugins, analyses);
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


/// What processing one chunk produced: its output text, or its error.
struct ChunkResult {
  std::string text;              // a dump or graph
  std::optional<Module> module;  // or the module to print (written a megabyte at a time)
  std::string error;             // `file:line:col: error: ...`, empty on success
};

/// Parses, verifies, runs the pipeline on and prints one chunk.
ChunkResult process_chunk(const Chunk& chunk, InputText* streamed, const Options& options,
                          const OpRegistry& registry, const std::string& source_name,
                          const pass::PassManager<IrPasses>& pipeline, const std::vector<DriverPlugin>& plugins,
                          pass::ThreadPool* pool, pass::Timing& timing) {
  ChunkResult result;
  try {
    Module module;
    module.registry = &registry;
    module.source_name = source_name;
    {
      const pass::ScopedTimer timer(&timing, timing.child(pass::Timing::root, "Parser"));
      // An empty (or all-blank) input is an empty module, as mlir-opt prints it.
      if (chunk.text.find_first_not_of(" \t\r\n") != std::string_view::npos) {
        // Lines before the chunk are kept as blank lines, so diagnostics name the file's lines.
        std::string shifted;
        std::string_view text = chunk.text;
        if (chunk.first_line > 1) {
          shifted.assign(chunk.first_line - 1, '\n');
          shifted.append(chunk.text);
          text = shifted;
        }
        OpAsmParser parser(text, registry, source_name);
        if (streamed) parser.on_function_parsed([&](std::size_t done) { streamed->release_before(done); });
        parser.allow_unregistered_ops(options.allow_unregistered);
        module = parser.parse_module();
        if (streamed) streamed->release();  // the module owns its names: free the text
      }
      verify(module);
    }
    std::vector<std::size_t> parsed_ops;  // per function: ids at or past this were added by passes
    for (const Function& fn : module.functions) parsed_ops.push_back(fn.ops.size());
    PassContext context;
    context.registry = &registry;
    context.trace = options.debug ? &std::cerr : nullptr;
    context.log = &std::cerr;
    context.file = source_name;
    context.threading = options.threading;
    pass::ModuleAnalyses<IrPasses> analyses(module, context);
    pass::RunOptions<IrPasses> run;
    run.pool = pool;
    run.timing = &timing;
    const auto print_ir = [](std::string_view when) {
      return [when](const pass::PassDefinition<IrPasses>& def, const Function* fn, const Module& m) {
        std::string text = "// -----// IR Dump " + std::string(when) + " " + def.display_name + " (" + def.argument +
                           ") //----- //\n";
        if (fn) {
          print_function(*fn, *m.registry, text, 0);
        } else {
          print_module(m, text);
        }
        std::cerr << text << "\n";
      };
    };
    if (options.print_before) run.before = print_ir("Before");
    if (options.print_after) run.after = print_ir("After");
    pipeline.run(module, analyses, context, run);
    const pass::ScopedTimer timer(&timing, timing.child(pass::Timing::root, "Output"));
    const std::string analysis = options.dump.empty() ? std::string("sccp") : options.dump;
    if (options.dot_values) {
      print_dot_values(module, analysis, options, plugins, analyses, parsed_ops, result.text);
    } else if (options.dot) {
      print_dot(module, analysis, options, plugins, analyses, result.text);
    } else if (!options.dump.empty()) {
      dump_analysis(module, options.dump, options, plugins, analyses, result.text);
    } else {
      result.module = std::move(module);
    }
  } catch (const IrError& e) {
    result.error = e.what();
  }
  return result;
}

}  // namespace

int main(int argc, char** argv) {
  const auto total_begin = std::chrono::steady_clock::now();
#if KILDALL_OPT_HAS_MALLOPT
  // Arrays of 128 KB and more (a function's ops, values, views) get their own mapping, returned to
  // the system when freed: a rewrite that moves a function's arrays to larger ones then leaves no
  // holes in the heap that a later, larger array cannot reuse (peak memory -5% on 1M-op inputs).
  (void)mallopt(M_MMAP_THRESHOLD, 128 * 1024);
  // Fixing that threshold also fixes glibc's trim threshold at its 128 KB default (the dynamic
  // one would have grown with the largest array freed), so each function's smaller arrays, freed
  // at the end of every analysis, were handed back to the system and faulted in again for the
  // next function: a quarter of the page faults of a pass pipeline over many functions. 1 MB of
  // free heap top is kept instead (docs/performance.md, "Page faults between functions").
  (void)mallopt(M_TRIM_THRESHOLD, 1024 * 1024);
#endif
  try {
    const std::vector<DriverPlugin> plugins = load_plugins();
    IrPassRegistry passes;
    register_ir_passes(passes);
    for (const DriverPlugin& plugin : plugins)
      if (plugin.register_passes) plugin.register_passes(passes);
    const Options options = parse_options(argc, argv, plugins, passes);
    // Before the input's arrays are allocated (huge_page_advice.hpp: a one-shot process).
    kildall::set_huge_page_advice(options.huge_pages ? *options.huge_pages
                                                     : kildall::huge_page_advice_for_one_shot_process());
    // Each analysis runs once here: a freed array of one is kept for reuse only when as small as
    // the views' arrays that the next pass asks for again (array_reuse.hpp).
    kildall::set_largest_reused_array_bytes(std::size_t{8} << 20);
    if (options.help) {
      std::cout << usage_text;
      for (const DriverPlugin& plugin : plugins) std::cout << plugin.usage;
      std::cout << "\nPASSES (as flags -name / --name[=options], or in --pass-pipeline as name{option=value}):\n"
                << passes.help();
      return 0;
    }
    const pass::PassManager<IrPasses> pipeline = build_pipeline(options, passes);
    if (options.input != "-" && options.output != "-" && same_file(options.input, options.output))
      throw UsageError{"refusing to overwrite the input file '" + options.input + "' (choose another -o)"};
    pass::Timing timing;
    InputText input(options.input);
    const std::string source_name = options.input == "-" ? "<stdin>" : options.input;
    OpRegistry registry;
    for (const DriverPlugin& plugin : plugins)
      if (plugin.register_dialect) plugin.register_dialect(registry);
    (void)add_assume_op(registry);  // kildall.assume (docs/ir.md)
    // Function passes run on a pool of one thread per core, unless disabled or traced (a trace
    // must come out in order).
    std::optional<pass::ThreadPool> pool;
    if (options.threading && !options.debug && !pipeline.empty()) pool.emplace();
    const std::vector<Chunk> chunks = split_chunks(input.text(), options.split_input);
    // Output: the text is built in memory; the file is opened only once every chunk succeeded.
    std::vector<ChunkResult> results;
    std::string errors;
    for (const Chunk& chunk : chunks) {
      results.push_back(process_chunk(chunk, chunks.size() == 1 ? &input : nullptr, options, registry, source_name,
                                      pipeline, plugins, pool ? &*pool : nullptr, timing));
      if (!results.back().error.empty()) errors += results.back().error + "\n";
    }
    if (!errors.empty()) {
      std::cerr << errors;
      return 1;
    }
    // A dump or a graph is built whole (it may still fail); printing a module cannot fail, so it
    // is written a megabyte at a time (the whole text never sits in memory next to the module).
    const auto write = [&](std::ostream& out) {
      for (std::size_t c = 0; c < results.size(); ++c) {
        if (c > 0) out << "// -----\n";
        if (!results[c].module) {
          out << results[c].text;
          continue;
        }
        const Module& module = *results[c].module;
        std::string text;
        print_module(module, text, [&](std::string& buffer) {
          out << buffer;
          buffer.clear();
        });
        out << text;
      }
    };
    {
      const pass::ScopedTimer timer(&timing, timing.child(pass::Timing::root, "Output"));
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
    }
    if (options.timing) std::cerr << timing.report(pass::seconds_since(total_begin), options.timing_display);
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
