// The article's second example: two branches grow from one `mul`; each would
// need a reduce_noise of its own (the greedy placement inserts 2), but a
// single one right after the `mul` serves both. `kildall-opt
// --noisy-reduce-noise` inserts exactly that one.
func.func @test_single_insertion_branching() -> i5 {
  %0 = arith.constant 3 : i5
  %1 = arith.constant 4 : i5
  %2 = noisy.encode %0 : i5 -> !noisy.i32
  %3 = noisy.encode %1 : i5 -> !noisy.i32
  // Noise: 12
  %4 = noisy.mul %2, %3 : !noisy.i32
  // Noise: 24

  // branch 1
  %b1 = noisy.add %4, %3 : !noisy.i32
  // Noise: 25
  %b2 = noisy.add %b1, %3 : !noisy.i32
  // Noise: 26
  %b3 = noisy.add %b2, %3 : !noisy.i32
  // Noise: 27
  %b4 = noisy.add %b3, %3 : !noisy.i32
  // Noise: 28

  // branch 2
  %c1 = noisy.sub %4, %2 : !noisy.i32
  // Noise: 25
  %c2 = noisy.sub %c1, %3 : !noisy.i32
  // Noise: 26
  %c3 = noisy.sub %c2, %3 : !noisy.i32
  // Noise: 27
  %c4 = noisy.sub %c3, %3 : !noisy.i32
  // Noise: 28

  %x1 = noisy.decode %b4 : !noisy.i32 -> i5
  %x2 = noisy.decode %c4 : !noisy.i32 -> i5
  %x3 = arith.addi %x1, %x2 : i5
  return %x3 : i5
}
