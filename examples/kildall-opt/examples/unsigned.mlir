// Signed division and comparison of values the user asserts are in [0, 1023] (kildall.assume),
// then constants and identities for --canonicalize.
func.func @index_math(%tid: i32, %n: i32) -> (i32, i32, i1, i32) {
  %c0 = arith.constant 0 : i32
  %c1023 = arith.constant 1023 : i32
  %t = kildall.assume %tid in [%c0, %c1023] : i32
  %c32 = arith.constant 32 : i32
  %row = arith.divsi %t, %c32 : i32
  %col = arith.remsi %t, %c32 : i32
  %last = arith.cmpi slt, %row, %c32 : i32
  %q = arith.divsi %n, %c32 : i32
  %c4 = arith.constant 4 : i32
  %c8 = arith.constant 8 : i32
  %p = arith.addi %c4, %q : i32
  %s = arith.addi %p, %c8 : i32
  %z = arith.subi %s, %s : i32
  %r = arith.ori %col, %z : i32
  return %row, %r, %last, %s : i32, i32, i1, i32
}
