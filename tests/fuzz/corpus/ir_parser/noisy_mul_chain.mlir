// The article's first example: a chain of multiplications. The noise doubles
// at every step (24, 48, 96, 192), so `kildall-opt --noisy-verify` reports
//   error: 'noisy.mul' op Found op after which the noise exceeds the allowable maximum of 26; it was: 48
// at %5. `--noisy-reduce-noise` makes it legal with a reduce_noise after %4,
// %5 and %6: each mul then multiplies two values of 12 bits (24 <= 26).
func.func @test_op_syntax() -> i5 {
  %0 = arith.constant 3 : i5
  %1 = arith.constant 4 : i5
  %2 = noisy.encode %0 : i5 -> !noisy.i32
  %3 = noisy.encode %1 : i5 -> !noisy.i32
  %4 = noisy.mul %2, %3 : !noisy.i32
  %5 = noisy.mul %4, %4 : !noisy.i32
  %6 = noisy.mul %5, %5 : !noisy.i32
  %7 = noisy.mul %6, %6 : !noisy.i32
  %8 = noisy.decode %7 : !noisy.i32 -> i5
  return %8 : i5
}
