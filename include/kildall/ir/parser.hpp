#pragma once
/// \file
/// The parser for the MLIR custom syntax subset (see docs/ir.md): an optional
/// `module`, `func.func` definitions and declarations, blocks with arguments,
/// and every op registered in an `OpRegistry`. It is a hand-written
/// recursive-descent parser whose nesting is bounded by the grammar (module >
/// function > block > op), never by the input: a million ops or blocks are
/// parsed by loops. Forward references to values and blocks are resolved when
/// a function ends, as MLIR does. Every malformed input throws `IrError`
/// carrying `file:line:col`.
///
/// Dialect parse hooks receive an `OpAsmParser`, the small API below
/// (`parse_operand`, `resolve_operand`, `parse_type`, `expect`, ...).

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <kildall/ir/arith.hpp>
#include <kildall/ir/diagnostics.hpp>
#include <kildall/ir/lexer.hpp>
#include <kildall/ir/module.hpp>
#include <kildall/ir/name_table.hpp>
#include <kildall/ir/op_registry.hpp>
#include <kildall/ir/types.hpp>

namespace kildall::ir {

/// What a parse hook produces for one op: operands, result types, successors and inline attributes.
struct OperationState {
  std::vector<ValueId> operands;      ///< Resolved operands (via `OpAsmParser::resolve_operand`).
  std::vector<Type> result_types;     ///< One type per result.
  std::vector<Successor> successors;  ///< Successors; `operand_begin` is relative to `operands`.
  std::uint64_t imm = 0;              ///< Inline attribute word (see `OpData::imm`).
  std::uint32_t aux = 0;              ///< Second inline attribute word.
  std::string_view attributes;        ///< The op's attribute dictionary as written (empty: none).
  std::vector<std::uint32_t> regions;  ///< The regions parsed for the op (`OpAsmParser::parse_region`), in order.

  /// Empties the state for the next op (keeps capacity).
  void clear() {
    operands.clear();
    result_types.clear();
    successors.clear();
    imm = 0;
    aux = 0;
    attributes = {};
    regions.clear();
  }
};

/// What the parser accepts beyond the registered ops (`parse_module`, `parse_and_verify`).
struct ParseOptions {
  /// Ops of no registered dialect, in MLIR's generic form (`OpAsmParser::allow_unregistered_ops`).
  bool allow_unregistered_ops = false;
};

/// An argument of a region's entry block that the op's own syntax names and types
/// (`%iv` of `scf.for %iv = ...`, the `iter_args`), for `OpAsmParser::parse_region`.
struct RegionArgument {
  Token name;  ///< The `%name` token.
  Type type;   ///< Its type.
};

/// A value reference that has been read but not yet given a type.
struct UnresolvedOperand {
  std::string_view name;  ///< Spelling including '%'.
  SourceLoc loc;          ///< Where it was written.
};

namespace detail {

/// Whether `text` (after the sigil) is all decimal digits, and its value.
[[nodiscard]] inline std::optional<std::uint32_t> numeric_name(std::string_view text) {
  if (text.empty() || text.size() > 9) return std::nullopt;
  std::uint32_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + static_cast<std::uint32_t>(c - '0');
  }
  if (text.size() > 1 && text[0] == '0') return std::nullopt;  // "%01" is a distinct name from "%1"
  return value;
}

/// The growable arrays of a function body, kept by the parser between functions.
struct FunctionStorage {
  BodyArray<BlockData> blocks;        ///< Blocks.
  BodyArray<OpData> ops;              ///< Ops.
  BodyArray<ValueData> values;        ///< Values.
  BodyArray<ValueId> operands;        ///< Operands.
  BodyArray<Successor> successors;    ///< Successors.
  BodyString names;                   ///< Name arena.
};

/// Applies `f(function's array, spare array)` to each array of a body.
template <class F>
void for_each_body_array(Function& fn, FunctionStorage& spare, F&& f) {
  f(fn.blocks, spare.blocks);
  f(fn.ops, spare.ops);
  f(fn.values, spare.values);
  f(fn.operands, spare.operands);
  f(fn.successors, spare.successors);
  f(fn.names, spare.names);
}

/// Gives `data` (an empty array of a function about to be parsed) the buffer of `spare`.
template <class V>
void adopt_buffer(V& data, V& spare) {
  data.swap(spare);
}

/// Reserves a function body's arrays for what `text_bytes` of source can hold at
/// most, judged by the shortest lines the syntax has (an op takes at least
/// ~32 bytes of `%12 = arith.addi %3, %4 : i32`, a block label ~96 with its
/// ops), so that a function of a million ops is parsed without growing its
/// arrays by doubling: each grown array is copied, and the copy touches fresh
/// pages, in all about twice the final size. Reserving costs address space
/// only (pages are mapped when written); it is capped at what 256 MB of text
/// can hold, beyond which the arrays grow as usual. A function shorter than
/// the rest of the text leaves its reservation to the next one (`release_buffer`).
inline void reserve_for_text(Function& fn, std::size_t text_bytes) {
  constexpr std::size_t max_text_bytes = std::size_t{256} << 20;
  const std::size_t bytes = std::min(text_bytes, max_text_bytes);
  fn.ops.reserve(bytes / 32);
  fn.values.reserve(bytes / 24);
  fn.operands.reserve(bytes / 12);
  fn.successors.reserve(bytes / 96);
  fn.blocks.reserve(bytes / 96);
  fn.names.reserve(bytes / 4);
}

/// Leaves `data` (a parsed function's array, grown by doubling) in a buffer of exactly its
/// size and keeps the grown buffer in `spare` for the next function: the module holds no
/// growth slack (up to half of each array) and the heap no trail of freed smaller buffers.
/// Arrays above 16 MB keep their buffer (a second copy would cost more than the slack).
/// Called only when functions follow whose text is at least as long as this one's: the last
/// one, or one much longer than the rest, keeps its buffers, whose slack is address space
/// never written (a copy would write more fresh pages than the rest can fill).
template <class V>
void release_buffer(V& data, V& spare) {
  constexpr std::size_t max_copy_bytes = std::size_t{16} << 20;
  const std::size_t bytes = data.size() * sizeof(typename V::value_type);
  if (data.capacity() - data.size() <= data.size() / 16 || bytes > max_copy_bytes) return;
  spare.swap(data);
  data.assign(spare.begin(), spare.end());
  spare.clear();
}

}  // namespace detail

/// The parser and the API offered to dialect parse hooks.
class OpAsmParser {
 public:
  /// Parses `source` (named `file` in diagnostics) with the ops of `registry`.
  OpAsmParser(std::string_view source, const OpRegistry& registry, std::string file)
      : lexer_(source, std::move(file)),
        registry_(&registry),
        source_size_(source.size()),
        dense_name_limit_(std::max<std::size_t>(source.size(), 1024)) {
    lexer_.next_into(token_);
  }

  /// Parses the whole input into a module. Throws `IrError` on malformed input.
  /// The module is not verified (see `verify` in verifier.hpp).
  [[nodiscard]] Module parse_module() {
    Module module;
    module.source_name = lexer_.file();
    module.registry = registry_;
    bool wrapped = false;
    if (at_module_keyword()) {
      consume();
      wrapped = true;
      if (token_.kind == TokenKind::at_identifier) module.name = std::string(consume().text.substr(1));
      if (consume_keyword_if("attributes")) module.attributes = std::string(expect_attribute_dictionary());
      expect(TokenKind::l_brace, "'{' to begin the module body");
    }
    // The symbols defined so far, per symbol table (the top level, each nested module).
    std::map<std::pair<std::uint32_t, std::string>, SourceLoc> seen;
    std::vector<std::uint32_t> open;  // the nested modules being read, outermost first
    std::uint32_t last_body = no_index;  // the last function read with a body
    std::size_t last_body_bytes = 0;     // the length of its text
    const auto current = [&] { return open.empty() ? no_index : open.back(); };
    const auto define = [&](const std::string& name, SourceLoc loc) {
      if (!seen.emplace(std::pair{current(), name}, loc).second)
        error(loc, "redefinition of symbol " + quote_source("@" + name));
    };
    while (true) {
      if (!open.empty() && token_.kind == TokenKind::r_brace) {
        consume();
        open.pop_back();
        continue;
      }
      if (wrapped && open.empty() && token_.kind == TokenKind::r_brace) {
        consume();
        break;
      }
      if (!wrapped && open.empty() && token_.kind == TokenKind::eof) break;
      if (token_.kind == TokenKind::bare_identifier && token_.text == "func.func") {
        // The body before this one gives its growth buffers to the next ones (`release_buffer`)
        // when they may need them: when the text still to read is at least as long as its own.
        // Otherwise the copy would write more fresh pages than the rest of the text can fill.
        const std::size_t here = lexer_.offset_of(token_);
        if (last_body != no_index) settle_body(module.functions[last_body], source_size_ - here >= last_body_bytes);
        module.functions.emplace_back();
        Function& fn = module.functions.back();
        fn.parent_module = current();
        parse_function(fn);
        if (!fn.is_declaration()) {
          last_body = static_cast<std::uint32_t>(module.functions.size() - 1);
          last_body_bytes = lexer_.offset_of(token_) - here;
        }
        define(fn.name, fn.loc);
        if (on_function_parsed_) on_function_parsed_(lexer_.offset_of(token_));
      } else if (at_module_keyword()) {
        if (open.size() >= max_module_depth)
          error(token_.loc, "modules nested more than " + std::to_string(max_module_depth) + " deep");
        NestedModule nested;
        nested.loc = consume().loc;
        nested.parent_module = current();
        nested.position = static_cast<std::uint32_t>(module.functions.size());
        if (token_.kind == TokenKind::at_identifier) {
          const Token name = consume();
          nested.name = std::string(name.text.substr(1));
          define(nested.name, name.loc);
        }
        if (consume_keyword_if("attributes")) nested.attributes = std::string(expect_attribute_dictionary());
        expect(TokenKind::l_brace, "'{' to begin the module body");
        open.push_back(static_cast<std::uint32_t>(module.nested_modules.size()));
        module.nested_modules.push_back(std::move(nested));
      } else if (token_.kind == TokenKind::string) {
        parse_module_level_operation(module, current());
      } else {
        error(token_.loc, std::string(wrapped || !open.empty() ? "expected 'func.func', 'module' or '}'"
                                                               : "expected 'func.func' or 'module'") +
                              ", found " + quote(token_));
      }
    }
    if (token_.kind != TokenKind::eof) error(token_.loc, "expected end of file, found " + quote(token_));
    if (last_body != no_index) settle_body(module.functions[last_body], false);
    return module;
  }

  /// Calls `callback(n)` after each function is parsed: the parser will not read the first `n`
  /// bytes of the source again (the module owns copies of what it keeps), so a caller that
  /// maps a large file can release them (`kildall-opt` does, to keep its peak memory low).
  void on_function_parsed(std::function<void(std::size_t)> callback) { on_function_parsed_ = std::move(callback); }
  /// Accepts ops of no registered dialect in MLIR's generic form (`mlir-opt
  /// --allow-unregistered-dialect`): they are opaque (results unknown, no semantics) and may end
  /// a block, branching to the successors they list. Off by default: such an op is an error.
  void allow_unregistered_ops(bool allow = true) { allow_unregistered_ = allow; }

  // ----- API for parse hooks ---------------------------------------------------------

  /// The registry in use.
  [[nodiscard]] const OpRegistry& registry() const { return *registry_; }
  /// The current (not yet consumed) token.
  [[nodiscard]] const Token& peek() const { return token_; }
  /// Consumes and returns the current token.
  Token consume() {
    Token current = token_;
    lexer_.next_into(token_);
    return current;
  }
  /// Consumes a token of `kind`, or throws "expected <what>".
  Token expect(TokenKind kind, std::string_view what = {}) {
    if (token_.kind != kind) fail_expected(kind, what);
    return consume();
  }
  /// Consumes a token of `kind` if it is next.
  bool consume_if(TokenKind kind) {
    if (token_.kind != kind) return false;
    lexer_.next_into(token_);
    return true;
  }
  /// Consumes the bare keyword `word`, or throws.
  void expect_keyword(std::string_view word) {
    if (token_.kind != TokenKind::bare_identifier || token_.text != word)
      error(token_.loc, "expected '" + std::string(word) + "', found " + quote(token_));
    consume();
  }
  /// Consumes the bare keyword `word` if it is next.
  bool consume_keyword_if(std::string_view word) {
    if (token_.kind != TokenKind::bare_identifier || token_.text != word) return false;
    consume();
    return true;
  }
  /// Reads an attribute dictionary `{...}` if one is next and returns its text as written (kept
  /// and printed back, not interpreted); empty when there is none or it is `{}`.
  std::string_view parse_optional_attribute_dictionary() {
    if (token_.kind != TokenKind::l_brace) return {};
    const std::string_view text = lexer_.scan_balanced_braces(token_);
    lexer_.next_into(token_);
    return text.find_first_not_of(" \t\r\n", 1) == text.size() - 1 ? std::string_view{} : text;
  }
  /// Reads the attribute dictionary `{...}` that must come next (see `parse_optional_attribute_dictionary`).
  std::string_view expect_attribute_dictionary() {
    if (token_.kind != TokenKind::l_brace) error(token_.loc, "expected '{' to begin an attribute dictionary, found " + quote(token_));
    return parse_optional_attribute_dictionary();
  }
  /// Reads `{ blocks }` as the next region of the op being parsed (appended to
  /// `state.regions`). Its entry block takes `arguments` (named by the op's syntax);
  /// without any, a label on the entry block may declare them (`^bb0(%x: i32):`). Names
  /// defined inside are not visible after it, its labels are its own, and a use of a value
  /// it does not see is an error. With `implicit_terminator`, a single block that does not
  /// end in a terminator gets that op, without operands, as its last (MLIR's
  /// `SingleBlockImplicitTerminator`).
  void parse_region(OperationState& state, std::span<const RegionArgument> arguments,
                    std::optional<OpCode> implicit_terminator = std::nullopt) {
    if (region_depth_ >= max_region_depth)
      error(token_.loc, "regions nested more than " + std::to_string(max_region_depth) + " deep");
    const Token open = expect(TokenKind::l_brace, "'{' to begin a region");
    ++region_depth_;
    // The enclosing op's parse state, restored at the end.
    OperationState outer_state = std::move(state_);
    state_ = OperationState{};
    std::vector<Token> outer_lhs = std::move(lhs_);
    std::vector<std::uint32_t> outer_packs = std::move(lhs_packs_);
    const std::uint32_t outer_results = lhs_results_;
    const SourceLoc outer_loc = op_loc_;
    lhs_.clear();
    lhs_packs_.clear();
    const std::uint32_t outer_region = current_region_;
    detail::NameTable outer_labels = std::move(block_names_);
    block_names_ = detail::NameTable{};
    const std::size_t forward_begin = forward_blocks_.size();
    const std::size_t placeholders_begin = placeholders_.size();
    const std::size_t names_begin = scope_names_.size();
    // The region and its entry block.
    current_region_ = static_cast<std::uint32_t>(parsed_regions_.size());
    parsed_regions_.emplace_back();
    const BlockId entry = new_block();
    parsed_regions_.back().layout.push_back(entry);
    fn_->blocks[entry].loc = open.loc;
    fn_->blocks[entry].argument_begin = static_cast<ValueId>(fn_->values.size());
    for (std::uint32_t i = 0; i < arguments.size(); ++i) {
      require_plain_name(arguments[i].name);
      const auto value = static_cast<ValueId>(fn_->values.size());
      fn_->values.push_back({arguments[i].type, entry, i, 0, 0, true});
      define_value(arguments[i].name.text, arguments[i].name.loc, value);
    }
    fn_->blocks[entry].argument_count = static_cast<std::uint32_t>(arguments.size());
    parse_blocks(entry, arguments.empty() ? EntryLabel::may_declare_arguments : EntryLabel::without_arguments,
                 "region");
    const SourceLoc close = consume().loc;  // '}'
    const std::vector<BlockId>& layout = parsed_regions_[current_region_].layout;
    if (implicit_terminator && layout.size() == 1) {
      const OpId last = fn_->blocks[entry].last_op;
      if (last == no_index || !registry_->op(fn_->ops[last].code).terminator) {
        state_.clear();
        lhs_.clear();
        lhs_packs_.clear();
        lhs_results_ = 0;
        op_loc_ = close;
        create_operation(*implicit_terminator, entry);
      }
    }
    // Close the scope: every label defined, every use resolved; its names invisible from now on.
    check_forward_blocks(forward_begin);
    for (std::size_t i = placeholders_begin; i < placeholders_.size(); ++i)
      if (placeholders_[i].resolved == no_index)
        error(placeholders_[i].first_use, "use of undefined value " + quote_source(placeholders_[i].name));
    for (std::size_t i = names_begin; i < scope_names_.size(); ++i)
      if (std::uint32_t* slot = lookup_slot(scope_names_[i], false)) *slot = 0;
    scope_names_.resize(names_begin);
    block_names_ = std::move(outer_labels);
    const std::uint32_t region = current_region_;
    current_region_ = outer_region;
    state_ = std::move(outer_state);
    lhs_ = std::move(outer_lhs);
    lhs_packs_ = std::move(outer_packs);
    lhs_results_ = outer_results;
    op_loc_ = outer_loc;
    --region_depth_;
    state.regions.push_back(region);
  }
  /// Reads a function type's results: `T`, `(T1, T2)` or `()`.
  std::vector<Type> parse_function_results() {
    std::vector<Type> types;
    if (consume_if(TokenKind::l_paren)) {
      if (!consume_if(TokenKind::r_paren)) {
        types = parse_type_list();
        expect(TokenKind::r_paren, "')' or ','");
      }
    } else {
      types.push_back(parse_type());
    }
    return types;
  }
  /// Reads a `%value` reference (to be resolved once its type is known).
  UnresolvedOperand parse_operand() {
    const Token t = expect(TokenKind::percent_identifier, "SSA operand");
    return {t.text, t.loc};
  }
  /// Resolves `operand` as having type `type` and appends it to `state.operands`.
  void resolve_operand(const UnresolvedOperand& operand, Type type, OperationState& state) {
    state.operands.push_back(resolve_use(operand, type));
  }
  /// Reads a type: `iN`, `index`, a registered `!dialect.type`, or a function type
  /// `(T1, T2) -> R` (`-> (R1, R2)`, `() -> ()`), nested at most `max_type_depth` deep.
  Type parse_type() {
    // The common spelling first: `i1` to `i64` (one or two digits, no leading zero); anything
    // else, and every error, takes the general path below.
    if (token_.kind == TokenKind::bare_identifier && (token_.text.size() == 2 || token_.text.size() == 3) &&
        token_.text[0] == 'i' && token_.text[1] >= '1' && token_.text[1] <= '9') {
      unsigned width = static_cast<unsigned>(token_.text[1] - '0');
      if (token_.text.size() == 3 && token_.text[2] >= '0' && token_.text[2] <= '9')
        width = width * 10 + static_cast<unsigned>(token_.text[2] - '0');
      else if (token_.text.size() == 3)
        width = 0;  // `i3x`: not an integer type
      if (width >= 1 && width <= 64) {
        lexer_.next_into(token_);
        return Type::integer(width);
      }
    }
    const Token t = token_;
    if (t.kind == TokenKind::l_paren) {
      if (type_depth_ >= max_type_depth)
        error(t.loc, "function types nested more than " + std::to_string(max_type_depth) + " deep");
      ++type_depth_;
      consume();
      FunctionSignature signature;
      if (!consume_if(TokenKind::r_paren)) {
        signature.inputs = parse_type_list();
        expect(TokenKind::r_paren, "')' or ','");
      }
      expect(TokenKind::arrow, "'->' in a function type");
      signature.results = parse_function_results();
      --type_depth_;
      return registry_->function_type(std::move(signature));
    }
    if (t.kind == TokenKind::bare_identifier) {
      if (t.text == "index") {
        consume();
        return Type::index();
      }
      if (t.text.size() >= 2 && t.text[0] == 'i') {
        unsigned width = 0;
        const auto [ptr, ec] = std::from_chars(t.text.data() + 1, t.text.data() + t.text.size(), width);
        if (ec == std::errc{} && ptr == t.text.data() + t.text.size() && t.text[1] != '0') {
          if (width < 1 || width > 64) error(t.loc, "integer bitwidth " + std::to_string(width) + " is not supported (1 to 64)");
          consume();
          return Type::integer(width);
        }
        if (t.text == "i0") error(t.loc, "integer bitwidth 0 is not supported (1 to 64)");
      }
    } else if (t.kind == TokenKind::bang_identifier) {
      if (const auto type = registry_->find_type(t.text.substr(1))) {
        consume();
        return *type;
      }
      error(t.loc, "unknown type " + quote_source(t.text));
    } else if (t.kind == TokenKind::integer) {
      error(t.loc, "expected a type, found " + quote(t));
    }
    error(t.loc, "expected a type, found " + quote(t));
  }
  /// Reads `T1, T2, ...` (at least one type).
  std::vector<Type> parse_type_list() {
    std::vector<Type> types;
    parse_type_list_into(types);
    return types;
  }
  /// Reads `T1, T2, ...` (at least one type), appending to `types`.
  void parse_type_list_into(std::vector<Type>& types) {
    types.push_back(parse_type());
    while (consume_if(TokenKind::comma)) types.push_back(parse_type());
  }
  /// Reads an integer literal (optionally negative) that must fit `type`
  /// (as a signed or unsigned value, like MLIR) and returns its bits.
  std::uint64_t parse_integer(Type type) {
    const SourceLoc loc = token_.loc;
    const bool negative = consume_if(TokenKind::minus);
    const Token literal = expect(TokenKind::integer, "integer literal");
    if (!type.is_integer_like())
      error(loc, "integer literal needs an integer type, not '" + registry_->type_name(type) + "'");
    return literal_bits(loc, negative, literal, type);
  }
  /// Reads `^label` and returns the (possibly forward-referenced) block: a block not defined
  /// yet is a placeholder id, resolved when the function ends, to be used only as the `block`
  /// of a successor in `OperationState::successors`.
  BlockId parse_successor_block() {
    const Token t = expect(TokenKind::caret_identifier, "block label");
    return block_for(t.text, t.loc);
  }
  /// Reads `^label` or `^label(%a, %b : T1, T2)` and appends a successor to `state`.
  void parse_successor(OperationState& state) {
    Successor successor;
    successor.block = parse_successor_block();
    successor.operand_begin = static_cast<std::uint32_t>(state.operands.size());
    if (consume_if(TokenKind::l_paren)) {
      // Scratch arrays kept between calls (nothing below reads a successor again).
      std::vector<UnresolvedOperand>& refs = successor_refs_;
      std::vector<Type>& types = successor_types_;
      refs.clear();
      types.clear();
      refs.push_back(parse_operand());
      while (consume_if(TokenKind::comma)) refs.push_back(parse_operand());
      expect(TokenKind::colon, "':' and the types of the block operands");
      const SourceLoc types_loc = token_.loc;
      parse_type_list_into(types);
      if (types.size() != refs.size())
        error(types_loc, "expected " + std::to_string(refs.size()) + " types for the block operands, found " +
                             std::to_string(types.size()));
      for (std::size_t i = 0; i < refs.size(); ++i) resolve_operand(refs[i], types[i], state);
      expect(TokenKind::r_paren);
    }
    successor.operand_count = static_cast<std::uint32_t>(state.operands.size()) - successor.operand_begin;
    state.successors.push_back(successor);
  }
  /// The number of result names bound on the left of the op being parsed.
  [[nodiscard]] std::uint32_t result_count() const { return lhs_results_; }
  /// Location of the op name being parsed.
  [[nodiscard]] SourceLoc op_loc() const { return op_loc_; }
  /// Stores `text` in the current function's string arena; returns its offset (see `Function::arena_string`).
  std::uint32_t intern(std::string_view text) { return fn_->intern(text); }
  /// Throws `IrError` with `message` at `loc`.
  [[noreturn]] void error(SourceLoc loc, std::string message) const { lexer_.fail(loc, std::move(message)); }
  /// Throws "expected <what>, found <the current token>" (`what` empty: `kind` described).
  [[noreturn]] [[gnu::cold]] [[gnu::noinline]] void fail_expected(TokenKind kind, std::string_view what) const {
    error(token_.loc, "expected " + std::string(what.empty() ? describe(kind) : what) + ", found " + quote(token_));
  }
  /// `'text'` of a token, or "end of file".
  [[nodiscard]] static std::string quote(const Token& t) {
    if (t.kind == TokenKind::eof) return "end of file";
    return quote_source(t.text);
  }

 private:
  static constexpr std::uint32_t placeholder_bit = 0x80000000u;
  /// How deep modules may nest in one another (read by a loop; the limit keeps the printed
  /// indentation sane).
  static constexpr std::size_t max_module_depth = 256;

  /// Whether `module` or `builtin.module` is next.
  [[nodiscard]] bool at_module_keyword() const {
    return token_.kind == TokenKind::bare_identifier && (token_.text == "module" || token_.text == "builtin.module");
  }
  /// How deep function types may nest (`((i32) -> i32) -> i32` is 2): the type parser recurses.
  static constexpr std::uint32_t max_type_depth = 64;
  std::uint32_t type_depth_ = 0;

  struct Placeholder {
    Type type;
    SourceLoc first_use;
    std::string_view name;
    ValueId resolved = no_index;
  };
  /// A block referenced before its label was defined: successors name it by
  /// `placeholder_bit | its index` until the function ends (`finish_function`).
  struct ForwardBlock {
    std::string_view name;
    SourceLoc first_ref;
    BlockId resolved = no_index;
  };

  /// Leaves the arrays of `fn` (a parsed body) in their final buffers: with `give`, arrays with
  /// slack are copied to exact size and their buffers kept for the next function
  /// (`release_buffer`); the buffers `fn` keeps give back the pages of their capacity past the
  /// elements (`release_unused_capacity`: a reserved array's last huge page, up to 2 MiB).
  void settle_body(Function& fn, bool give) {
    detail::for_each_body_array(fn, spare_, [give](auto& data, auto& spare) {
      if (give) detail::release_buffer(data, spare);
      kildall::detail::release_unused_capacity(data);
    });
  }

  /// A defined name is `%name`: `%name#N` only names a result of a pack.
  void require_plain_name(const Token& name) {
    if (name.text.find('#') != std::string_view::npos)
      error(name.loc, "an argument name cannot have a '#N' suffix");
  }

  // ----- names ------------------------------------------------------------------------

  /// A name the registry resolved, kept by `find_op` (a copy: the source text may be released).
  struct CachedOpName {
    static constexpr std::size_t capacity = 30;
    std::array<char, capacity> text{};
    std::uint8_t size = 0;  // 0: an empty slot
    OpCode code = 0;
  };

  /// The registered op named `name`: the registry's lookup behind a direct-mapped cache of the
  /// names it found (a file spells a handful of op names a million times; a hit costs one
  /// comparison instead of hashing the name and walking a bucket).
  std::optional<OpCode> find_op(std::string_view name) {
    if (name.empty() || name.size() > CachedOpName::capacity) return registry_->find_op(name);
    std::size_t hash = name.size();
    for (std::size_t i = name.size() > 4 ? name.size() - 4 : 0; i < name.size(); ++i)
      hash = hash * 31 + static_cast<unsigned char>(name[i]);
    CachedOpName& slot = op_cache_[hash % op_cache_.size()];
    if (slot.size == name.size() && std::string_view(slot.text.data(), slot.size) == name) return slot.code;
    const std::optional<OpCode> code = registry_->find_op(name);
    if (code) {
      std::copy(name.begin(), name.end(), slot.text.begin());
      slot.size = static_cast<std::uint8_t>(name.size());
      slot.code = *code;
    }
    return code;
  }

  std::uint32_t* lookup_slot(std::string_view name, bool create) {
    // Numeric names (%0, %1, ...) index a dense table, but only below a limit
    // fixed by the input's length: one use of `%999999999` must not allocate
    // gigabytes (found by fuzzing); larger numbers go to the hash table.
    if (const auto number = detail::numeric_name(name.substr(1)); number && *number < dense_name_limit_) {
      if (*number >= numeric_.size()) {
        if (!create) return nullptr;
        numeric_.resize(std::max<std::size_t>(*number + 1, numeric_.size() * 2), 0);
      }
      return &numeric_[*number];
    }
    if (!create) return named_.find(name);
    return named_.try_emplace(name, 0).first;
  }

  ValueId resolve_use(const UnresolvedOperand& operand, Type type) {
    std::uint32_t& slot = *lookup_slot(operand.name, true);
    if (slot == 0) {
      placeholders_.push_back({type, operand.loc, operand.name, no_index});
      slot = placeholder_bit | static_cast<std::uint32_t>(placeholders_.size() - 1);
      return slot;
    }
    const Type prior = (slot & placeholder_bit) ? placeholders_[slot & ~placeholder_bit].type : fn_->values[slot - 1].type;
    if (prior != type)
      error(operand.loc, "use of value " + quote_source(operand.name) + " expects different type than prior uses: '" +
                             registry_->type_name(type) + "' vs '" + registry_->type_name(prior) + "'");
    return (slot & placeholder_bit) ? slot : slot - 1;
  }

  void define_value(std::string_view name, SourceLoc loc, ValueId value) {
    std::uint32_t& slot = *lookup_slot(name, true);
    if (slot != 0 && !(slot & placeholder_bit)) error(loc, "redefinition of SSA value " + quote_source(name));
    if (slot & placeholder_bit) {
      Placeholder& p = placeholders_[slot & ~placeholder_bit];
      if (p.type != fn_->values[value].type)
        error(loc, "definition of SSA value " + quote_source(name) + " has type '" +
                       registry_->type_name(fn_->values[value].type) + "' but prior uses expect '" +
                       registry_->type_name(p.type) + "'");
      p.resolved = value;
    }
    slot = value + 1;
    if (region_depth_ > 0) scope_names_.push_back(name);
    ValueData& v = fn_->values[value];
    v.name_begin = fn_->intern(name.substr(1));
    v.name_size = static_cast<std::uint32_t>(name.size() - 1);
  }

  /// The slot of block label `label` (`^name`) in the current region's scope: the block's id
  /// + 1 once defined, `placeholder_bit | i` while only referenced (`forward_blocks_[i]`), 0
  /// for a label not seen yet; nullptr when absent and not `create`. Labels `^bbN` of
  /// the function body (the form MLIR prints) index a dense table, as numeric value names do,
  /// below the same input-length limit; other labels, and all labels of a region, a hash table.
  std::uint32_t* label_slot(std::string_view label, bool create) {
    if (region_depth_ == 0 && label.size() > 3 && label[1] == 'b' && label[2] == 'b') {
      if (const auto number = detail::numeric_name(label.substr(3)); number && *number < dense_name_limit_) {
        if (*number >= numeric_labels_.size()) {
          if (!create) return nullptr;
          numeric_labels_.resize(std::max<std::size_t>(*number + 1, numeric_labels_.size() * 2), 0);
        }
        return &numeric_labels_[*number];
      }
    }
    if (!create) return block_names_.find(label);
    return block_names_.try_emplace(label, 0).first;
  }

  /// Whether block label `label` is known in the current region's scope.
  [[nodiscard]] bool label_known(std::string_view label) {
    const std::uint32_t* slot = label_slot(label, false);
    return slot != nullptr && *slot != 0;
  }

  /// The block a reference to `name` at `loc` names: its id once defined, else a placeholder
  /// (`placeholder_bit | i`) that the function's end resolves. Blocks get their ids when
  /// defined, in textual order, so a function without regions needs no renumbering.
  BlockId block_for(std::string_view name, SourceLoc loc) {
    std::uint32_t& slot = *label_slot(name, true);
    if (slot == 0) {
      slot = placeholder_bit | static_cast<std::uint32_t>(forward_blocks_.size());
      forward_blocks_.push_back({name, loc, no_index});
    }
    return (slot & placeholder_bit) ? slot : slot - 1;
  }

  /// Appends an empty block to the function and returns its id.
  BlockId new_block() {
    const auto block = static_cast<BlockId>(fn_->blocks.size());
    fn_->blocks.emplace_back();
    return block;
  }

  /// Throws at the first reference, from `forward_blocks_[begin]` on, to a block never defined.
  void check_forward_blocks(std::size_t begin) const {
    for (std::size_t i = begin; i < forward_blocks_.size(); ++i)
      if (forward_blocks_[i].resolved == no_index)
        error(forward_blocks_[i].first_ref, "reference to an undefined block " + quote_source(forward_blocks_[i].name));
  }

  // ----- functions ----------------------------------------------------------------------

  void reset_function_scope() {
    for (auto& n : numeric_) n = 0;
    for (auto& n : numeric_labels_) n = 0;
    named_.clear();
    pack_names_.clear();
    placeholders_.clear();
    forward_slots_.clear();
    block_names_.clear();
    forward_blocks_.clear();
    forward_successors_.clear();
    parsed_regions_.assign(1, ParsedRegion{});
    current_region_ = 0;
    scope_names_.clear();
    region_depth_ = 0;
  }

  void parse_function(Function& fn) {
    fn_ = &fn;
    reset_function_scope();
    fn.loc = consume().loc;  // func.func
    if (consume_keyword_if("private")) fn.visibility = Visibility::private_;
    else if (consume_keyword_if("nested")) fn.visibility = Visibility::nested;
    else if (consume_keyword_if("public")) fn.visibility = Visibility::public_;
    const Token name = expect(TokenKind::at_identifier, "function name");
    fn.name = std::string(name.text.substr(1));
    // Signature.
    expect(TokenKind::l_paren, "'(' to begin the argument list");
    std::vector<std::pair<Token, Type>> named_arguments;
    bool declaration_style = false;
    if (token_.kind != TokenKind::r_paren) {
      do {
        if (token_.kind == TokenKind::percent_identifier) {
          if (declaration_style) error(token_.loc, "expected a type, found " + quote(token_));
          const Token arg = consume();
          require_plain_name(arg);
          expect(TokenKind::colon, "':' and the argument type");
          const Type type = parse_type();
          named_arguments.emplace_back(arg, type);
          fn.argument_types.push_back(type);
        } else {
          if (!named_arguments.empty()) error(token_.loc, "expected an SSA argument name, found " + quote(token_));
          declaration_style = true;
          fn.argument_types.push_back(parse_type());
        }
        if (token_.kind == TokenKind::l_brace) error(token_.loc, "argument attributes are not supported");
      } while (consume_if(TokenKind::comma));
    }
    expect(TokenKind::r_paren, "')' or ','");
    if (consume_if(TokenKind::arrow)) fn.result_types = parse_function_results();
    if (consume_keyword_if("attributes")) fn.attributes = std::string(expect_attribute_dictionary());
    if (token_.kind != TokenKind::l_brace) {
      if (!named_arguments.empty()) error(token_.loc, "expected '{' to begin the function body");
      return;  // declaration
    }
    if (declaration_style && !fn.argument_types.empty())
      error(token_.loc, "a function with a body must name its arguments");
    const SourceLoc body_loc = consume().loc;  // '{'
    detail::for_each_body_array(fn, spare_, [](auto& data, auto& spare) { detail::adopt_buffer(data, spare); });
    detail::reserve_for_text(fn, source_size_ - lexer_.offset_of(token_));
    forward_blocks_.reserve(fn.blocks.capacity());
    forward_successors_.reserve(fn.successors.capacity());
    // Entry block.
    (void)new_block();
    parsed_regions_[0].layout.push_back(0);
    fn.blocks[0].loc = body_loc;
    fn.blocks[0].argument_begin = 0;
    fn.blocks[0].argument_count = static_cast<std::uint32_t>(named_arguments.size());
    for (std::uint32_t i = 0; i < named_arguments.size(); ++i) {
      fn.values.push_back({named_arguments[i].second, 0, i, 0, 0, true});
      define_value(named_arguments[i].first.text, named_arguments[i].first.loc, i);
    }
    parse_blocks(0, EntryLabel::without_arguments, "function body");
    const SourceLoc end_loc = consume().loc;  // '}'
    finish_function(end_loc);
  }

  /// Whether a label on a region's entry block may declare its arguments.
  enum class EntryLabel : std::uint8_t { without_arguments, may_declare_arguments };

  /// Reads blocks into the current region, whose entry block is `entry`, up to (not
  /// including) its closing '}'.
  void parse_blocks(BlockId entry, EntryLabel entry_label, std::string_view what) {
    BlockId current = entry;
    bool entry_has_ops = false;
    while (token_.kind != TokenKind::r_brace) {
      if (token_.kind == TokenKind::eof)
        error(token_.loc, "expected '}' to end the " + std::string(what) + ", found end of file");
      if (token_.kind == TokenKind::caret_identifier) {
        const Token label = consume();
        if (current == entry && !entry_has_ops && parsed_regions_[current_region_].layout.size() == 1 &&
            fn_->blocks[entry].name_size == 0 && !label_known(label.text)) {
          // A label on the entry block; its arguments come from the op (or the signature) unless
          // the op names none.
          *label_slot(label.text, true) = entry + 1;
          BlockData& data = fn_->blocks[entry];
          data.name_begin = fn_->intern(label.text.substr(1));
          data.name_size = static_cast<std::uint32_t>(label.text.size() - 1);
          data.loc = label.loc;
          if (token_.kind == TokenKind::l_paren) {
            if (entry_label == EntryLabel::without_arguments)
              error(token_.loc, region_depth_ == 0 ? "the entry block takes its arguments from the function signature"
                                                   : "the entry block takes its arguments from the op");
            parse_block_arguments(entry);
          }
          expect(TokenKind::colon, "':' after the block label");
          entry_has_ops = true;  // a second label starts a new block
          continue;
        }
        current = parse_block_header(label);
        continue;
      }
      if (current == entry) entry_has_ops = true;
      parse_operation(current);
    }
  }

  /// Reads `(%a: T, ...)` as the arguments of `block` (which has none yet).
  void parse_block_arguments(BlockId block) {
    fn_->blocks[block].argument_begin = static_cast<ValueId>(fn_->values.size());
    if (consume_if(TokenKind::l_paren)) {
      std::uint32_t index = 0;
      do {
        const Token arg = expect(TokenKind::percent_identifier, "block argument name");
        require_plain_name(arg);
        expect(TokenKind::colon, "':' and the argument type");
        const Type type = parse_type();
        const auto value = static_cast<ValueId>(fn_->values.size());
        fn_->values.push_back({type, block, index++, 0, 0, true});
        define_value(arg.text, arg.loc, value);
      } while (consume_if(TokenKind::comma));
      expect(TokenKind::r_paren, "')' or ','");
    }
    fn_->blocks[block].argument_count =
        static_cast<std::uint32_t>(fn_->values.size()) - fn_->blocks[block].argument_begin;
  }

  BlockId parse_block_header(const Token& label) {
    std::uint32_t& slot = *label_slot(label.text, true);
    if (slot != 0 && !(slot & placeholder_bit)) error(label.loc, "redefinition of block " + quote_source(label.text));
    const BlockId block = new_block();
    if (slot & placeholder_bit) forward_blocks_[slot & ~placeholder_bit].resolved = block;
    slot = block + 1;
    parsed_regions_[current_region_].layout.push_back(block);
    BlockData& data = fn_->blocks[block];
    data.loc = label.loc;
    data.name_begin = fn_->intern(label.text.substr(1));
    data.name_size = static_cast<std::uint32_t>(label.text.size() - 1);
    parse_block_arguments(block);
    expect(TokenKind::colon, "':' after the block label");
    return block;
  }

  void parse_operation(BlockId block) {
    lhs_.clear();
    lhs_packs_.clear();
    lhs_results_ = 0;
    if (token_.kind == TokenKind::percent_identifier) {
      do {
        const Token result = expect(TokenKind::percent_identifier, "SSA result name");
        if (result.text.find('#') != std::string_view::npos)
          error(result.loc, "a result name cannot have a '#N' suffix (a pack is written '%name:N')");
        std::uint32_t pack = 0;  // 0: one plain name; N: the pack `%name:N`
        if (consume_if(TokenKind::colon)) {
          const Token count = expect(TokenKind::integer, "the number of results of the pack");
          const auto n = detail::numeric_name(count.text);
          if (!n || *n == 0 || *n > max_op_results)
            error(count.loc, "a result pack has 1 to " + std::to_string(max_op_results) + " results");
          pack = static_cast<std::uint32_t>(*n);
        }
        lhs_.push_back(result);
        lhs_packs_.push_back(pack);
        lhs_results_ += pack == 0 ? 1 : pack;
        if (lhs_results_ > max_op_results) error(result.loc, "too many results bound");
      } while (consume_if(TokenKind::comma));
      expect(TokenKind::equal, "'='");
    }
    if (token_.kind == TokenKind::string) {
      parse_generic_operation(block);
      return;
    }
    const Token name = expect(TokenKind::bare_identifier, "an operation name");
    op_loc_ = name.loc;
    const auto code = find_op(name.text);
    if (!code) error(name.loc, "unknown operation " + quote_source(name.text));
    const OpDefinition& def = registry_->op(*code);
    state_.clear();
    parse_body(*code, def);
    if (state_.result_types.size() != lhs_results_)
      error(name.loc, "'" + def.name + "' produces " + std::to_string(state_.result_types.size()) +
                          " result(s) but " + std::to_string(lhs_results_) + " name(s) are bound");
    if (state_.result_types.size() > max_op_results || state_.successors.size() > max_op_results)
      error(name.loc, "'" + def.name + "' has more than " + std::to_string(max_op_results) + " results or successors");
    create_operation(*code, block);
  }

  /// An unregistered op at module level (when allowed): `"dialect.op"() {attrs} : () -> ()`,
  /// without operands, results, successors or regions (a module has no values to give it).
  void parse_module_level_operation(Module& module, std::uint32_t parent_module) {
    const Token name = consume();
    const std::string_view text = name.text.substr(1, name.text.size() - 2);
    check_generic_operation_name(name, text);
    const auto nothing = [&](std::string_view what) {
      error(token_.loc, "an operation at module level takes no " + std::string(what) + ", found " + quote(token_));
    };
    // `()`: `open` names the '(' expected, `what` what may not stand inside.
    const auto empty_list = [&](std::string_view open, std::string_view what) {
      expect(TokenKind::l_paren, open);
      if (token_.kind != TokenKind::r_paren) nothing(what);
      consume();
    };
    empty_list("'(' (an operation at module level takes no operands)", "operands");
    if (token_.kind == TokenKind::l_square) nothing("successors");
    if (token_.kind == TokenKind::l_paren) nothing("regions");
    ModuleLevelOp op;
    op.name = std::string(text);
    op.attributes = std::string(parse_optional_attribute_dictionary());
    op.position = static_cast<std::uint32_t>(module.functions.size());
    op.parent_module = parent_module;
    op.modules_before = static_cast<std::uint32_t>(module.nested_modules.size());
    op.loc = name.loc;
    expect(TokenKind::colon, "':' and the op's function type");
    empty_list("'('", "operands");
    expect(TokenKind::arrow, "'->'");
    empty_list("'(' (an operation at module level has no results)", "results");
    module.opaque_ops.push_back(std::move(op));
  }

  /// Checks the name of an op in the generic form: `dialect.op`, of no registered dialect,
  /// and that unregistered ops are allowed.
  void check_generic_operation_name(const Token& name, std::string_view text) const {
    const std::size_t dot = text.find('.');
    if (dot == 0 || dot == std::string_view::npos || dot + 1 == text.size() ||
        text.find_first_of("\\\" \t") != std::string_view::npos)
      error(name.loc, "expected an operation name 'dialect.op' in the generic form, found " + quote_source(name.text));
    if (registry_->find_op(text))
      error(name.loc, "the generic form of the registered op " + quote_source(text) + " is not supported: write its custom form");
    if (!allow_unregistered_)
      error(name.loc, "unregistered operation " + quote_source(text) +
                          " (pass --allow-unregistered-dialect to treat unknown ops as opaque)");
  }

  /// MLIR's generic form, for ops of no registered dialect (when allowed):
  /// `"dialect.op"(%a, %b) [^bb1, ^bb2] {attrs} : (T1, T2) -> R` (or `-> (R1, R2)`, `-> ()`).
  void parse_generic_operation(BlockId block) {
    const Token name = consume();
    op_loc_ = name.loc;
    const std::string_view text = name.text.substr(1, name.text.size() - 2);
    check_generic_operation_name(name, text);
    state_.clear();
    OperationState& s = state_;
    const std::vector<UnresolvedOperand> refs = parse_operand_list();
    // Successors: labels only (what an unknown op passes to a block's arguments is unknown, so
    // the verifier rejects targets with arguments).
    if (consume_if(TokenKind::l_square)) {
      do s.successors.push_back({parse_successor_block(), 0, 0});
      while (consume_if(TokenKind::comma));
      expect(TokenKind::r_square, "']' or ','");
    }
    if (token_.kind == TokenKind::l_paren) error(token_.loc, "regions of unregistered ops are not supported");
    s.attributes = parse_optional_attribute_dictionary();
    expect(TokenKind::colon, "':' and the op's function type");
    parse_function_type(refs, "the op", s);
    for (Successor& succ : s.successors) succ.operand_begin = static_cast<std::uint32_t>(s.operands.size());
    s.imm = intern(text);
    s.aux = static_cast<std::uint32_t>(text.size());
    if (s.result_types.size() != lhs_results_)
      error(name.loc, quote_source(text) + " produces " + std::to_string(s.result_types.size()) + " result(s) but " +
                          std::to_string(lhs_results_) + " name(s) are bound");
    if (s.result_types.size() > max_op_results || s.successors.size() > max_op_results)
      error(name.loc, quote_source(text) + " has more than " + std::to_string(max_op_results) + " results or successors");
    create_operation(code_of(BuiltinOp::unregistered), block);
  }

  void create_operation(OpCode code, BlockId block) {
    Function& fn = *fn_;
    const auto op = static_cast<OpId>(fn.ops.size());
    OpData data;
    data.code = static_cast<std::uint16_t>(code);
    data.block = block;
    data.loc = op_loc_;
    data.imm = state_.imm;
    data.aux = state_.aux;
    if (!state_.attributes.empty())
      fn.op_attributes.push_back({op, intern(state_.attributes), static_cast<std::uint32_t>(state_.attributes.size())});
    data.operand_begin = static_cast<std::uint32_t>(fn.operands.size());
    data.operand_count = static_cast<std::uint32_t>(state_.operands.size());
    for (const ValueId v : state_.operands) {
      if (v & placeholder_bit) forward_slots_.push_back(static_cast<std::uint32_t>(fn.operands.size()));
      fn.operands.push_back(v);
    }
    data.successor_begin = static_cast<std::uint32_t>(fn.successors.size());
    data.successor_count = static_cast<std::uint16_t>(state_.successors.size());
    for (const Successor& s : state_.successors) {
      if (s.block & placeholder_bit) forward_successors_.push_back(static_cast<std::uint32_t>(fn.successors.size()));
      fn.successors.push_back(s);
    }
    data.result_begin = static_cast<ValueId>(fn.values.size());
    data.result_count = static_cast<std::uint16_t>(state_.result_types.size());
    BlockData& b = fn.blocks[block];
    data.prev = b.last_op;
    if (b.last_op == no_index) b.first_op = op;
    else fn.ops[b.last_op].next = op;
    b.last_op = op;
    fn.ops.push_back(data);
    for (std::uint32_t i = 0; i < state_.regions.size(); ++i) {
      parsed_regions_[state_.regions[i]].parent = op;
      parsed_regions_[state_.regions[i]].index = i;
    }
    for (std::uint32_t i = 0; i < data.result_count; ++i) fn.values.push_back({state_.result_types[i], op, i, 0, 0, false});
    ValueId next = data.result_begin;
    for (std::size_t g = 0; g < lhs_.size(); ++g) {
      if (lhs_packs_[g] == 0) {
        define_value(lhs_[g].text, lhs_[g].loc, next++);
        continue;
      }
      for (std::uint32_t i = 0; i < lhs_packs_[g]; ++i) {  // `%r:2` defines `%r#0` and `%r#1`
        std::string& member = pack_names_.emplace_back(lhs_[g].text);
        member.append("#").append(std::to_string(i));
        define_value(member, lhs_[g].loc, next++);
      }
    }
  }

  void finish_function(SourceLoc end_loc) {
    Function& fn = *fn_;
    // Undefined values: report the first one used.
    for (const Placeholder& p : placeholders_)
      if (p.resolved == no_index) error(p.first_use, "use of undefined value " + quote_source(p.name));
    for (const std::uint32_t slot : forward_slots_) fn.operands[slot] = placeholders_[fn.operands[slot] & ~placeholder_bit].resolved;
    // Undefined blocks; successors named before their block was defined.
    check_forward_blocks(0);
    for (const std::uint32_t slot : forward_successors_)
      fn.successors[slot].block = forward_blocks_[fn.successors[slot].block & ~placeholder_bit].resolved;
    (void)end_loc;
    // Renumber blocks into layout order: the body's blocks first, then each region's, the
    // regions sorted by (parent op, index) so that an op's regions are consecutive.
    std::vector<BlockId> layout = std::move(parsed_regions_[0].layout);
    if (parsed_regions_.size() > 1) {
      std::vector<std::uint32_t> order(parsed_regions_.size() - 1);
      for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i + 1;
      std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        const ParsedRegion& x = parsed_regions_[a];
        const ParsedRegion& y = parsed_regions_[b];
        return x.parent != y.parent ? x.parent < y.parent : x.index < y.index;
      });
      fn.regions.clear();
      fn.regions.push_back({no_index, 0, 0, static_cast<std::uint32_t>(layout.size())});
      for (const std::uint32_t r : order) {
        const ParsedRegion& region = parsed_regions_[r];
        fn.regions.push_back({region.parent, region.index, static_cast<BlockId>(layout.size()),
                              static_cast<std::uint32_t>(region.layout.size())});
        layout.insert(layout.end(), region.layout.begin(), region.layout.end());
      }
    }
    bool identity = true;
    for (std::size_t i = 0; i < layout.size(); ++i) identity = identity && layout[i] == i;
    if (identity) return;
    std::vector<BlockId> new_id(layout.size());
    for (std::size_t i = 0; i < layout.size(); ++i) new_id[layout[i]] = static_cast<BlockId>(i);
    renumber_blocks(fn, new_id);
  }

  // ----- op bodies -----------------------------------------------------------------------

  void parse_body(OpCode code, const OpDefinition& def) {
    OperationState& s = state_;
    switch (def.format) {
      case OpFormat::binary: {
        const auto refs = parse_operands_of(def, 2);
        s.attributes = parse_optional_attribute_dictionary();
        expect(TokenKind::colon, "':'");
        const Type t = parse_type();
        resolve_operand(refs[0], t, s);
        resolve_operand(refs[1], t, s);
        s.result_types.push_back(t);
        return;
      }
      case OpFormat::unary: {
        const auto refs = parse_operands_of(def, 1);
        s.attributes = parse_optional_attribute_dictionary();
        expect(TokenKind::colon, "':'");
        const Type t = parse_type();
        resolve_operand(refs[0], t, s);
        s.result_types.push_back(t);
        return;
      }
      case OpFormat::cast_arrow:
      case OpFormat::cast_to: {
        const auto refs = parse_operands_of(def, 1);
        s.attributes = parse_optional_attribute_dictionary();
        expect(TokenKind::colon, "':'");
        const Type from = parse_type();
        if (def.format == OpFormat::cast_arrow) expect(TokenKind::arrow, "'->'");
        else expect_keyword("to");
        const Type to = parse_type();
        resolve_operand(refs[0], from, s);
        s.result_types.push_back(to);
        return;
      }
      case OpFormat::custom: def.parse(*this, s); return;
      case OpFormat::generic: error(op_loc_, "'" + def.name + "' is written in the generic form only"); return;
      case OpFormat::scf_if: {
        const auto c = parse_operand();
        if (consume_if(TokenKind::arrow)) s.result_types = parse_function_results();
        resolve_operand(c, Type::i1(), s);
        const std::optional<OpCode> yield = code_of(BuiltinOp::scf_yield);
        parse_region(s, {}, yield);
        if (consume_keyword_if("else")) parse_region(s, {}, yield);
        s.attributes = parse_optional_attribute_dictionary();
        return;
      }
      case OpFormat::scf_for: {
        std::vector<RegionArgument> arguments(1);
        arguments[0].name = expect(TokenKind::percent_identifier, "the induction variable");
        expect(TokenKind::equal, "'='");
        const auto lower = parse_operand();
        expect_keyword("to");
        const auto upper = parse_operand();
        expect_keyword("step");
        const auto step = parse_operand();
        std::vector<UnresolvedOperand> inits;
        if (consume_keyword_if("iter_args")) {
          expect(TokenKind::l_paren, "'('");
          do {
            arguments.push_back({expect(TokenKind::percent_identifier, "an iteration argument"), Type{}});
            expect(TokenKind::equal, "'='");
            inits.push_back(parse_operand());
          } while (consume_if(TokenKind::comma));
          expect(TokenKind::r_paren, "')' or ','");
          expect(TokenKind::arrow, "'->' and the result types");
          const SourceLoc types_loc = token_.loc;
          s.result_types = parse_function_results();
          if (s.result_types.size() != inits.size())
            error(types_loc, "'scf.for' has " + std::to_string(inits.size()) + " iteration argument(s) but " +
                                 std::to_string(s.result_types.size()) + " result type(s)");
        }
        Type type = Type::index();
        if (consume_if(TokenKind::colon)) type = parse_type();
        resolve_operand(lower, type, s);
        resolve_operand(upper, type, s);
        resolve_operand(step, type, s);
        arguments[0].type = type;
        for (std::size_t i = 0; i < inits.size(); ++i) {
          resolve_operand(inits[i], s.result_types[i], s);
          arguments[i + 1].type = s.result_types[i];
        }
        parse_region(s, arguments, code_of(BuiltinOp::scf_yield));
        s.attributes = parse_optional_attribute_dictionary();
        return;
      }
      case OpFormat::scf_while: {
        std::vector<RegionArgument> arguments;
        std::vector<UnresolvedOperand> inits;
        expect(TokenKind::l_paren, "'('");
        if (token_.kind != TokenKind::r_paren) {
          do {
            arguments.push_back({expect(TokenKind::percent_identifier, "a region argument"), Type{}});
            expect(TokenKind::equal, "'='");
            inits.push_back(parse_operand());
          } while (consume_if(TokenKind::comma));
        }
        expect(TokenKind::r_paren, "')' or ','");
        expect(TokenKind::colon, "':' and the op's function type");
        const std::vector<Type> inputs = parse_function_type(inits, "'scf.while'", s);
        for (std::size_t i = 0; i < inits.size(); ++i) arguments[i].type = inputs[i];
        parse_region(s, arguments);
        expect_keyword("do");
        parse_region(s, {});
        if (consume_keyword_if("attributes")) s.attributes = expect_attribute_dictionary();
        return;
      }
      case OpFormat::scf_yield: parse_values_and_types(s, "yielded values"); return;
      case OpFormat::scf_condition: {
        expect(TokenKind::l_paren, "'(' and the condition");
        const auto c = parse_operand();
        expect(TokenKind::r_paren, "')'");
        resolve_operand(c, Type::i1(), s);
        parse_values_and_types(s, "forwarded values");
        return;
      }
      case OpFormat::constant: {
        s.attributes = parse_optional_attribute_dictionary();
        if (token_.kind == TokenKind::bare_identifier && (token_.text == "true" || token_.text == "false")) {
          s.imm = consume().text == "true" ? 1 : 0;
          Type t = Type::i1();
          if (consume_if(TokenKind::colon)) {
            const SourceLoc loc = token_.loc;
            t = parse_type();
            if (t != Type::i1()) error(loc, "a boolean constant must have type 'i1'");
          }
          s.result_types.push_back(t);
          return;
        }
        if (token_.kind != TokenKind::integer && token_.kind != TokenKind::minus)
          error(token_.loc, "expected an integer literal, 'true' or 'false', found " + quote(token_));
        // Type comes after the literal: scan the literal first, check its range once the type is known.
        const Token first = token_;
        const bool negative = consume_if(TokenKind::minus);
        const Token literal = expect(TokenKind::integer, "integer literal");
        expect(TokenKind::colon, "':' and the constant's type");
        const SourceLoc type_loc = token_.loc;
        const Type t = parse_type();
        if (!t.is_integer_like()) error(type_loc, "'arith.constant' needs an integer type, not '" + registry_->type_name(t) + "'");
        s.imm = literal_bits(first.loc, negative, literal, t);
        s.result_types.push_back(t);
        return;
      }
      case OpFormat::compare: {
        s.imm = parse_predicate_word();
        expect(TokenKind::comma, "','");
        const auto refs = parse_operands_of(def, 2);
        s.attributes = parse_optional_attribute_dictionary();
        expect(TokenKind::colon, "':'");
        const Type t = parse_type();
        resolve_operand(refs[0], t, s);
        resolve_operand(refs[1], t, s);
        s.result_types.push_back(Type::i1());
        return;
      }
      case OpFormat::index_binary: {
        const auto refs = parse_operands_of(def, 2);
        s.attributes = parse_optional_attribute_dictionary();
        resolve_operand(refs[0], Type::index(), s);
        resolve_operand(refs[1], Type::index(), s);
        s.result_types.push_back(Type::index());
        return;
      }
      case OpFormat::index_compare: {
        s.imm = parse_predicate_word();
        expect(TokenKind::l_paren, "'(' and the compared values");
        const auto refs = parse_operands_of(def, 2);
        expect(TokenKind::r_paren, "')'");
        s.attributes = parse_optional_attribute_dictionary();
        resolve_operand(refs[0], Type::index(), s);
        resolve_operand(refs[1], Type::index(), s);
        s.result_types.push_back(Type::i1());
        return;
      }
      case OpFormat::index_constant:
        s.imm = parse_integer(Type::index());
        s.attributes = parse_optional_attribute_dictionary();
        s.result_types.push_back(Type::index());
        return;
      case OpFormat::bool_constant: {
        const Token word = token_;
        if (!consume_keyword_if("true") && !consume_keyword_if("false"))
          error(word.loc, "expected 'true' or 'false', found " + quote(word));
        s.imm = word.text == "true" ? 1 : 0;
        s.attributes = parse_optional_attribute_dictionary();
        s.result_types.push_back(Type::i1());
        return;
      }
      case OpFormat::select: {
        const auto refs = parse_operands_of(def, 3);
        s.attributes = parse_optional_attribute_dictionary();
        expect(TokenKind::colon, "':'");
        const Type t = parse_type();
        resolve_operand(refs[0], Type::i1(), s);
        resolve_operand(refs[1], t, s);
        resolve_operand(refs[2], t, s);
        s.result_types.push_back(t);
        return;
      }
      case OpFormat::branch:
        parse_successor(s);
        s.attributes = parse_optional_attribute_dictionary();
        return;
      case OpFormat::cond_branch: {
        const auto c = parse_operand();
        resolve_operand(c, Type::i1(), s);
        expect(TokenKind::comma, "','");
        parse_successor(s);
        expect(TokenKind::comma, "','");
        parse_successor(s);
        s.attributes = parse_optional_attribute_dictionary();
        return;
      }
      case OpFormat::return_op: parse_values_and_types(s, "returned values"); return;
      case OpFormat::call: {
        const Token callee = expect(TokenKind::at_identifier, "the callee symbol");
        s.imm = intern(callee.text.substr(1));
        s.aux = static_cast<std::uint32_t>(callee.text.size() - 1);
        if (token_.kind == TokenKind::colon)  // `@m::@f`, as MLIR: a call names a function of its own module
          error(token_.loc, "'func.call' takes a flat symbol reference: a function of a nested module cannot be called from outside it");
        const std::vector<UnresolvedOperand> refs = parse_operand_list();
        s.attributes = parse_optional_attribute_dictionary();
        expect(TokenKind::colon, "':' and the callee's function type");
        parse_function_type(refs, "'func.call'", s);
        return;
      }
      case OpFormat::call_indirect: {  // %f(%a, %b) {attrs} : (T1, T2) -> R
        const UnresolvedOperand callee = parse_operand();
        const std::vector<UnresolvedOperand> refs = parse_operand_list();
        s.attributes = parse_optional_attribute_dictionary();
        expect(TokenKind::colon, "':' and the callee's function type");
        const SourceLoc type_loc = token_.loc;
        const Type type = parse_type();
        if (!type.is_function()) error(type_loc, "expected a function type, found '" + registry_->type_name(type) + "'");
        FunctionSignature signature = registry_->signature(type);
        if (signature.inputs.size() != refs.size())
          error(type_loc, "'func.call_indirect' has " + std::to_string(refs.size()) + " argument(s) but its type lists " +
                              std::to_string(signature.inputs.size()));
        resolve_operand(callee, type, s);
        for (std::size_t i = 0; i < refs.size(); ++i) resolve_operand(refs[i], signature.inputs[i], s);
        s.result_types = std::move(signature.results);
        return;
      }
      case OpFormat::function_constant: {  // {attrs} @f : (T) -> R
        s.attributes = parse_optional_attribute_dictionary();
        const Token symbol = expect(TokenKind::at_identifier, "the function's symbol");
        s.imm = intern(symbol.text.substr(1));
        s.aux = static_cast<std::uint32_t>(symbol.text.size() - 1);
        expect(TokenKind::colon, "':' and the function's type");
        const SourceLoc type_loc = token_.loc;
        const Type type = parse_type();
        if (!type.is_function()) error(type_loc, "expected a function type, found '" + registry_->type_name(type) + "'");
        s.result_types.push_back(type);
        return;
      }
    }
    (void)code;
  }

  /// Reads `{attrs}? (%a, %b : T1, T2)?`, the operands of `return`-like ops (`what` names
  /// them in messages).
  void parse_values_and_types(OperationState& s, std::string_view what) {
    s.attributes = parse_optional_attribute_dictionary();
    if (token_.kind != TokenKind::percent_identifier) return;
    std::vector<UnresolvedOperand> refs{parse_operand()};
    while (consume_if(TokenKind::comma)) refs.push_back(parse_operand());
    expect(TokenKind::colon, "':' and the types of the " + std::string(what));
    const SourceLoc types_loc = token_.loc;
    const auto types = parse_type_list();
    if (types.size() != refs.size())
      error(types_loc, "expected " + std::to_string(refs.size()) + " types for the " + std::string(what) + ", found " +
                           std::to_string(types.size()));
    for (std::size_t i = 0; i < refs.size(); ++i) resolve_operand(refs[i], types[i], s);
  }

  /// Reads `(%a, %b, ...)` (possibly empty), the operands of a call or of the generic form.
  std::vector<UnresolvedOperand> parse_operand_list() {
    expect(TokenKind::l_paren, "'(' to begin the operand list");
    std::vector<UnresolvedOperand> refs;
    if (token_.kind != TokenKind::r_paren) {
      refs.push_back(parse_operand());
      while (consume_if(TokenKind::comma)) refs.push_back(parse_operand());
    }
    expect(TokenKind::r_paren, "')' or ','");
    return refs;
  }

  /// Reads a function type `(T1, T2) -> R` (or `-> (R1, R2)`, `-> ()`) whose inputs type
  /// `refs`: resolves them into `s`, sets `s.result_types`, and returns the input types.
  /// `subject` names the op in the message when the counts differ.
  std::vector<Type> parse_function_type(std::span<const UnresolvedOperand> refs, std::string_view subject,
                                        OperationState& s) {
    expect(TokenKind::l_paren, "'(' to begin the operand types");
    std::vector<Type> inputs;
    const SourceLoc types_loc = token_.loc;
    if (!consume_if(TokenKind::r_paren)) {
      inputs = parse_type_list();
      expect(TokenKind::r_paren, "')' or ','");
    }
    if (inputs.size() != refs.size())
      error(types_loc, std::string(subject) + " has " + std::to_string(refs.size()) + " operand(s) but its type lists " +
                           std::to_string(inputs.size()));
    expect(TokenKind::arrow, "'->'");
    s.result_types = parse_function_results();
    for (std::size_t i = 0; i < refs.size(); ++i) resolve_operand(refs[i], inputs[i], s);
    return inputs;
  }

  /// Reads a comparison predicate (`slt`, ...) and returns its `CmpPredicate` number.
  std::uint64_t parse_predicate_word() {
    const Token p = expect(TokenKind::bare_identifier, "a comparison predicate");
    const auto predicate = parse_predicate(p.text);
    if (!predicate) error(p.loc, "unknown comparison predicate " + quote_source(p.text));
    return static_cast<std::uint64_t>(*predicate);
  }

  /// Reads `%a, %b, ...` and checks there are exactly `count` (at most 3) of them: the operands of
  /// the fixed-arity formats, kept in place (no allocation per op).
  std::array<UnresolvedOperand, 3> parse_operands_of(const OpDefinition& def, std::size_t count) {
    std::array<UnresolvedOperand, 3> refs{};
    std::size_t given = 0;
    if (token_.kind == TokenKind::percent_identifier) {
      do {
        const UnresolvedOperand ref = parse_operand();
        if (given < refs.size()) refs[given] = ref;
        ++given;
      } while (consume_if(TokenKind::comma));
    }
    if (given != count)
      error(op_loc_, "'" + def.name + "' takes " + std::to_string(count) + " operand(s), but " +
                         std::to_string(given) + " were given");
    return refs;
  }

  std::uint64_t literal_bits(SourceLoc loc, bool negative, const Token& literal, Type type) {
    std::uint64_t magnitude = 0;
    const bool hex = literal.text.size() > 2 && (literal.text[1] == 'x' || literal.text[1] == 'X');
    const auto digits = hex ? literal.text.substr(2) : literal.text;
    const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), magnitude, hex ? 16 : 10);
    const bool overflow = ec == std::errc::result_out_of_range || ptr != digits.data() + digits.size();
    const unsigned width = type.width();
    const std::uint64_t max_unsigned = width_mask(width);
    const std::uint64_t max_negative = std::uint64_t{1} << (width - 1);
    if (overflow || (!negative && magnitude > max_unsigned) || (negative && magnitude > max_negative))
      error(loc, "integer literal out of range for type '" + registry_->type_name(type) + "'");
    return (negative ? ~magnitude + 1 : magnitude) & max_unsigned;
  }

  Lexer lexer_;
  const OpRegistry* registry_;
  std::size_t source_size_;
  Token token_;
  Function* fn_ = nullptr;
  SourceLoc op_loc_;
  std::vector<Token> lhs_;                 // the result names (or packs) bound by the op being parsed
  std::vector<std::uint32_t> lhs_packs_;   // by name: 0, or N for the pack `%name:N`
  std::uint32_t lhs_results_ = 0;          // results the names bind
  std::deque<std::string> pack_names_;     // `%r#i` of this function's packs (named_ keys point here)
  OperationState state_;
  std::array<CachedOpName, 64> op_cache_{};        // find_op's cache
  std::vector<UnresolvedOperand> successor_refs_;  // parse_successor's scratch
  std::vector<Type> successor_types_;              // parse_successor's scratch
  BodyArray<std::uint32_t> numeric_;
  std::size_t dense_name_limit_;  // numeric names at or above it live in named_
  detail::NameTable named_;
  std::vector<Placeholder> placeholders_;
  std::vector<std::uint32_t> forward_slots_;
  detail::NameTable block_names_;       // labels of the current region (slots: block id + 1)
  BodyArray<std::uint32_t> numeric_labels_;  // `^bbN` of the body, by N (slots: block id + 1)
  BodyArray<ForwardBlock> forward_blocks_;      // blocks referenced before their definition
  BodyArray<std::uint32_t> forward_successors_;  // successor slots naming one of them
  /// A region being parsed: its owner (once created) and its blocks in textual order.
  struct ParsedRegion {
    OpId parent = no_index;
    std::uint32_t index = 0;
    std::vector<BlockId> layout;
  };
  static constexpr unsigned max_region_depth = 256;  // nesting bound: the parser recurses per region
  std::vector<ParsedRegion> parsed_regions_;  // [0] is the body
  std::uint32_t current_region_ = 0;
  std::vector<std::string_view> scope_names_;  // names defined in the open regions, innermost last
  unsigned region_depth_ = 0;
  std::function<void(std::size_t)> on_function_parsed_;
  bool allow_unregistered_ = false;
  detail::FunctionStorage spare_;  // growth buffers reused from one function to the next
};

/// Parses `source` (named `file` in diagnostics) into a module using `registry`
/// (which must outlive the module). Throws `IrError` on malformed input. Does
/// not verify: call `verify` (verifier.hpp) or use `parse_and_verify`.
[[nodiscard]] inline Module parse_module(std::string_view source, const OpRegistry& registry,
                                         std::string file = "<input>", const ParseOptions& options = {}) {
  OpAsmParser parser(source, registry, std::move(file));
  parser.allow_unregistered_ops(options.allow_unregistered_ops);
  return parser.parse_module();
}

}  // namespace kildall::ir
