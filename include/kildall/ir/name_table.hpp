#pragma once
/// \file
/// Internal: the IR's flat name tables. One open-addressing core
/// (`FlatNameSlots`: linear probing over one flat array of small entries that
/// carry a 32-bit hash of their name, load at most 0.8) serves the parser's
/// per-function scopes (`NameTable`: names are views into the source text)
/// and the rewriter's names in use (`ArenaNameSet`: names are offsets into a
/// function's name arena, which moves as it grows). A lookup costs about one
/// cache miss where a node-based `std::unordered_map` or `unordered_set`
/// costs several, and nothing is allocated per name. (With the node-based
/// containers, parsing a function of 1M blocks was dominated by their lookups
/// and node frees, and they were a quarter of `kildall-opt --sccp` on one
/// 1M-op function; see docs/performance.md.)

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>
#include <utility>
#include <vector>

namespace kildall::ir::detail {

/// The 32-bit hash a name table keeps of `name`.
[[nodiscard]] inline std::uint32_t name_hash(std::string_view name) {
  return static_cast<std::uint32_t>(std::hash<std::string_view>{}(name));
}

/// The probing core: `Entry` has a `size` (0 marks an empty slot: names are
/// never empty) and the `hash` of its name; how an entry's name is read and
/// compared is the caller's (`matches(entry)`).
template <class Entry>
class FlatNameSlots {
 public:
  /// The entry with `hash` that `matches`, or nullptr.
  template <class Matches>
  [[nodiscard]] Entry* find(std::uint32_t hash, Matches&& matches) {
    if (entries_.empty()) return nullptr;
    for (std::size_t i = hash & mask();; i = (i + 1) & mask()) {
      Entry& e = entries_[i];
      if (e.size == 0) return nullptr;
      if (e.hash == hash && matches(e)) return &e;
    }
  }
  /// The entry that `matches` `fresh`'s name, or `fresh` inserted (second: whether it was).
  template <class Matches>
  std::pair<Entry*, bool> insert(const Entry& fresh, Matches&& matches) {
    if (5 * (size_ + 1) > 4 * entries_.size()) grow();
    for (std::size_t i = fresh.hash & mask();; i = (i + 1) & mask()) {
      Entry& e = entries_[i];
      if (e.size == 0) {
        e = fresh;
        ++size_;
        return {&e, true};
      }
      if (e.hash == fresh.hash && matches(e)) return {&e, false};
    }
  }
  /// Removes every entry; a table much larger than its contents shrinks.
  void clear() {
    if (size_ == 0) return;
    if (entries_.size() > 64 && entries_.size() > 8 * size_) {
      entries_.assign(std::max<std::size_t>(16, std::bit_ceil(4 * size_)), Entry{});
    } else {
      std::fill(entries_.begin(), entries_.end(), Entry{});
    }
    size_ = 0;
  }
  /// Number of entries.
  [[nodiscard]] std::size_t size() const { return size_; }

 private:
  [[nodiscard]] std::size_t mask() const { return entries_.size() - 1; }
  void grow() {
    std::vector<Entry> old(std::max<std::size_t>(16, 2 * entries_.size()));
    old.swap(entries_);
    for (const Entry& e : old) {
      if (e.size == 0) continue;
      std::size_t i = e.hash & mask();
      while (entries_[i].size != 0) i = (i + 1) & mask();
      entries_[i] = e;
    }
  }
  std::vector<Entry> entries_;
  std::size_t size_ = 0;
};

/// A map from names (views into the source, never empty) to 32-bit values,
/// for the parser's per-function scopes (24-byte entries).
class NameTable {
 public:
  /// The value of `name`, or nullptr when absent.
  [[nodiscard]] std::uint32_t* find(std::string_view name) {
    Entry* e = slots_.find(name_hash(name), [&](const Entry& x) { return x.view() == name; });
    return e != nullptr ? &e->value : nullptr;
  }
  /// Whether `name` is present.
  [[nodiscard]] bool contains(std::string_view name) { return find(name) != nullptr; }
  /// The value of `name` and whether it was inserted now (with `value`); an existing value is kept.
  std::pair<std::uint32_t*, bool> try_emplace(std::string_view name, std::uint32_t value) {
    const auto [e, inserted] =
        slots_.insert(Entry{name.data(), static_cast<std::uint32_t>(name.size()), value, name_hash(name)},
                      [&](const Entry& x) { return x.view() == name; });
    return {&e->value, inserted};
  }
  /// Removes every name; a table much larger than its contents shrinks.
  void clear() { slots_.clear(); }
  /// Number of names.
  [[nodiscard]] std::size_t size() const { return slots_.size(); }

 private:
  struct Entry {
    const char* data = nullptr;
    std::uint32_t size = 0;  // 0: an empty slot
    std::uint32_t value = 0;
    std::uint32_t hash = 0;  // most mismatches never read the name
    [[nodiscard]] std::string_view view() const { return {data, size}; }
  };
  FlatNameSlots<Entry> slots_;
};

/// A set of names held in a text arena (a function's `names`), each as its
/// offset and length (12-byte entries), so that the arena may move as it grows.
class ArenaNameSet {
 public:
  /// Whether `name` is in the set; `arena` is the text the offsets point into.
  [[nodiscard]] bool contains(std::string_view arena, std::string_view name) {
    return slots_.find(name_hash(name), [&](const Entry& e) { return arena.substr(e.begin, e.size) == name; }) !=
           nullptr;
  }
  /// Adds the name at `arena[begin, begin + size)` (non-empty; kept once).
  void insert(std::string_view arena, std::uint32_t begin, std::uint32_t size) {
    const std::string_view name = arena.substr(begin, size);
    (void)slots_.insert(Entry{begin, size, name_hash(name)},
                        [&](const Entry& e) { return arena.substr(e.begin, e.size) == name; });
  }
  /// Number of names.
  [[nodiscard]] std::size_t size() const { return slots_.size(); }

 private:
  struct Entry {
    std::uint32_t begin = 0;
    std::uint32_t size = 0;  // 0: an empty slot
    std::uint32_t hash = 0;
  };
  FlatNameSlots<Entry> slots_;
};

}  // namespace kildall::ir::detail
