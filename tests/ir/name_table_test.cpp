// Tests kildall/ir/name_table.hpp (the parser's NameTable and the rewriter's ArenaNameSet on one probing core); oracle: std::unordered_map / std::unordered_set fed the same operations.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <kildall/ir/name_table.hpp>

using kildall::ir::detail::ArenaNameSet;
using kildall::ir::detail::NameTable;

namespace {

/// A random short name over a small alphabet (so that names repeat).
std::string random_name(std::mt19937& rng) {
  std::string name = "%";
  const std::size_t length = 1 + rng() % 3;
  for (std::size_t i = 0; i < length; ++i) name += static_cast<char>('a' + rng() % 6);
  return name;
}

}  // namespace

TEST_CASE("NameTable agrees with std::unordered_map over inserts, lookups and clears (20 seeds)") {
  for (unsigned seed = 0; seed < 20; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed);
    std::vector<std::string> source;  // the names' storage (views stay valid: reserved up front)
    source.reserve(20'000);
    NameTable table;
    std::unordered_map<std::string, std::uint32_t> oracle;
    for (std::uint32_t step = 0; step < 20'000; ++step) {
      source.push_back(random_name(rng));
      const std::string_view name = source.back();
      switch (rng() % 8) {
        case 0: {
          const std::uint32_t* found = table.find(name);
          const auto it = oracle.find(std::string(name));
          REQUIRE((found == nullptr) == (it == oracle.end()));
          if (found != nullptr) CHECK(*found == it->second);
          break;
        }
        case 1:
          if (rng() % 50 == 0) {
            table.clear();
            oracle.clear();
          }
          break;
        default: {
          const auto [value, inserted] = table.try_emplace(name, step);
          const auto [it, oracle_inserted] = oracle.try_emplace(std::string(name), step);
          REQUIRE(inserted == oracle_inserted);
          CHECK(*value == it->second);
        }
      }
      REQUIRE(table.size() == oracle.size());
    }
    for (const auto& [name, value] : oracle) {
      REQUIRE(table.contains(name));
      CHECK(*table.find(name) == value);
    }
  }
}

TEST_CASE("ArenaNameSet agrees with std::unordered_set while its arena grows and moves (20 seeds)") {
  for (unsigned seed = 0; seed < 20; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed + 100);
    std::string arena;  // appended to, so it reallocates: the set keeps offsets, never pointers
    ArenaNameSet set;
    std::unordered_set<std::string> oracle;
    for (int step = 0; step < 20'000; ++step) {
      const std::string name = random_name(rng);
      if (rng() % 3 == 0) {
        CHECK(set.contains(arena, name) == oracle.contains(name));
      } else {
        const auto begin = static_cast<std::uint32_t>(arena.size());
        arena += name;
        set.insert(arena, begin, static_cast<std::uint32_t>(name.size()));
        oracle.insert(name);
      }
      REQUIRE(set.size() == oracle.size());
    }
    for (const std::string& name : oracle) CHECK(set.contains(arena, name));
    CHECK_FALSE(set.contains(arena, "%zzzz"));
  }
}
