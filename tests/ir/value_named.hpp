// Test support for the IR tests: a value looked up by its source name.
#pragma once

#include <doctest/doctest.h>

#include <string_view>

#include <kildall/ir/module.hpp>

/// The value named `%name` in `fn` (fails the test when there is none).
inline kildall::ir::ValueId value_named(const kildall::ir::Function& fn, std::string_view name) {
  for (kildall::ir::ValueId v = 0; v < fn.values.size(); ++v)
    if (fn.value_name(v) == name) return v;
  FAIL("no value named " << name);
  return kildall::ir::no_index;
}
