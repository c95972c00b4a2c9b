// Reproducer (fuzz_ir_parser, out-of-memory): one use of a large numeric value
// name makes OpAsmParser::lookup_slot (include/kildall/ir/parser.hpp) resize its
// dense numeric-name table to the number: 999999999 -> 4 GB for a 60-byte input.
// Expected: the diagnostic for the undefined value, in constant memory.
func.func @f() -> i32 {
  return %999999999 : i32
}
