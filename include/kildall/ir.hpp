#pragma once
/// \file
/// The reference IR in one include: MLIR-syntax parser and printer, verifier,
/// interpreter, rewriter, its CFG and def-use graph views, and the analyses
/// and rewrites on it (SCCP and integer ranges, `kildall/ir/analysis/`).

#include <kildall/ir/arith.hpp>
#include <kildall/ir/builtin_ops.hpp>
#include <kildall/ir/cfg_view.hpp>
#include <kildall/ir/def_use_view.hpp>
#include <kildall/ir/diagnostics.hpp>
#include <kildall/ir/interpreter.hpp>
#include <kildall/ir/lexer.hpp>
#include <kildall/ir/module.hpp>
#include <kildall/ir/op_definition.hpp>
#include <kildall/ir/op_registry.hpp>
#include <kildall/ir/parser.hpp>
#include <kildall/ir/printer.hpp>
#include <kildall/ir/region_simplification.hpp>
#include <kildall/ir/rewrite_adapter.hpp>
#include <kildall/ir/rewriter.hpp>
#include <kildall/ir/types.hpp>
#include <kildall/ir/verifier.hpp>
#include <kildall/ir/function_regions.hpp>
#include <kildall/ir/function_shape.hpp>
#include <kildall/ir/analysis/int_range.hpp>
#include <kildall/ir/analysis/sccp.hpp>
