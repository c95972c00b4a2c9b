// Sample input of kildall-mlir-opt (docs/mlir.md). Try:
//   kildall-mlir-opt --kildall-int-range ranges.mlir
//   kildall-mlir-opt --kildall-int-range="compare=true" ranges.mlir
//   kildall-mlir-opt --kildall-sccp --canonicalize ranges.mlir

// Clamping bounds a value; the bounds then decide a comparison and a branch.
func.func @clamp(%x: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c100 = arith.constant 100 : i32
  %c7 = arith.constant 7 : i32
  %low = arith.maxsi %x, %c0 : i32
  %v = arith.minsi %low, %c100 : i32
  %big = arith.cmpi sgt, %v, %c100 : i32
  cf.cond_br %big, ^never, ^ok
^never:
  %w = arith.muli %v, %c7 : i32
  return %w : i32
^ok:
  %r = arith.remui %v, %c7 : i32
  %s = arith.addi %r, %c100 : i32
  return %s : i32
}

// Wrapping: x + 1 with x = INT_MAX - 1 or INT_MAX is either INT_MAX or INT_MIN.
// Both readings of the bits matter: kildall keeps the two values apart.
func.func @wrap(%c: i1) -> i32 {
  %max = arith.constant 2147483647 : i32
  %maxm1 = arith.constant 2147483646 : i32
  %one = arith.constant 1 : i32
  %x = arith.select %c, %max, %maxm1 : i32
  %y = arith.addi %x, %one : i32
  return %y : i32
}

// Constants through branches and block arguments: SCCP proves %sum is 12
// on the only path taken.
func.func @constants(%arg: i32) -> i32 {
  %c3 = arith.constant 3 : i32
  %c4 = arith.constant 4 : i32
  %seven = arith.addi %c3, %c4 : i32
  %yes = arith.cmpi slt, %c3, %c4 : i32
  cf.cond_br %yes, ^then(%seven : i32), ^else(%arg : i32)
^then(%a: i32):
  %five = arith.constant 5 : i32
  %sum = arith.addi %a, %five : i32
  cf.br ^join(%sum : i32)
^else(%b: i32):
  cf.br ^join(%b : i32)
^join(%j: i32):
  %zero = arith.subi %arg, %arg : i32
  %out = arith.addi %j, %zero : i32
  return %out : i32
}

// Multiplying by a multiple of 4 keeps two trailing zero bits: kildall's
// range of %e stops at 2^31 - 4, MLIR's is the full range (compare=true says so).
func.func @even(%x: i32) -> i32 {
  %c4 = arith.constant 4 : i32
  %e = arith.muli %x, %c4 : i32
  return %e : i32
}

// A counted loop. Neither framework narrows a range by the branch condition
// that guards it, so the counter ends up as the full range in both; the
// constants and the comparison with 10 are still exact.
func.func @loop() -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c10 = arith.constant 10 : i32
  cf.br ^head(%c0 : i32)
^head(%i: i32):
  %more = arith.cmpi slt, %i, %c10 : i32
  cf.cond_br %more, ^body, ^exit
^body:
  %next = arith.addi %i, %c1 : i32
  cf.br ^head(%next : i32)
^exit:
  return %i : i32
}
