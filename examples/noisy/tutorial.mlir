// The five reduce_noise tests of the article's tutorial code, in one module.
// The canonical placement (the default optimizer: fewest reductions, then
// reduce as early as possible) of each, as tutorial.expected.mlir pins it:
//   test_insert_noise_reduction_ops_mul        3: after the first three muls (the last may stay at 24)
//   test_insert_noise_reduction_ops_add_none_needed   0: adds grow one bit at a time
//   test_add_after_mul                         1: right after the mul (24 -> 12; the adds then reach 16)
//   test_single_insertion_branching            1: right after the mul, shared by both branches
//   test_double_insertion_branching            3: after the mul, and after the third op of each
//                                                 branch so that the final mul sees 13 + 13
func.func @test_insert_noise_reduction_ops_mul() -> i5 {
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

func.func @test_insert_noise_reduction_ops_add_none_needed() -> i5 {
  %0 = arith.constant 3 : i5
  %1 = arith.constant 4 : i5
  %2 = noisy.encode %0 : i5 -> !noisy.i32
  %3 = noisy.encode %1 : i5 -> !noisy.i32
  %4 = noisy.add %2, %3 : !noisy.i32
  %5 = noisy.add %4, %4 : !noisy.i32
  %6 = noisy.add %5, %5 : !noisy.i32
  %7 = noisy.add %6, %6 : !noisy.i32
  %8 = noisy.decode %7 : !noisy.i32 -> i5
  return %8 : i5
}

func.func @test_add_after_mul() -> i5 {
  %0 = arith.constant 3 : i5
  %1 = arith.constant 4 : i5
  %2 = noisy.encode %0 : i5 -> !noisy.i32
  %3 = noisy.encode %1 : i5 -> !noisy.i32
  %4 = noisy.mul %2, %3 : !noisy.i32
  %5 = noisy.add %4, %3 : !noisy.i32
  %6 = noisy.add %5, %5 : !noisy.i32
  %7 = noisy.add %6, %6 : !noisy.i32
  %8 = noisy.add %7, %7 : !noisy.i32
  %9 = noisy.decode %8 : !noisy.i32 -> i5
  return %9 : i5
}

func.func @test_single_insertion_branching() -> i5 {
  %0 = arith.constant 3 : i5
  %1 = arith.constant 4 : i5
  %2 = noisy.encode %0 : i5 -> !noisy.i32
  %3 = noisy.encode %1 : i5 -> !noisy.i32
  %4 = noisy.mul %2, %3 : !noisy.i32
  %b1 = noisy.add %4, %3 : !noisy.i32
  %b2 = noisy.add %b1, %3 : !noisy.i32
  %b3 = noisy.add %b2, %3 : !noisy.i32
  %b4 = noisy.add %b3, %3 : !noisy.i32
  %c1 = noisy.sub %4, %2 : !noisy.i32
  %c2 = noisy.sub %c1, %3 : !noisy.i32
  %c3 = noisy.sub %c2, %3 : !noisy.i32
  %c4 = noisy.sub %c3, %3 : !noisy.i32
  %x1 = noisy.decode %b4 : !noisy.i32 -> i5
  %x2 = noisy.decode %c4 : !noisy.i32 -> i5
  %x3 = arith.addi %x1, %x2 : i5
  return %x3 : i5
}

func.func @test_double_insertion_branching() -> i5 {
  %0 = arith.constant 3 : i5
  %1 = arith.constant 4 : i5
  %2 = noisy.encode %0 : i5 -> !noisy.i32
  %3 = noisy.encode %1 : i5 -> !noisy.i32
  %4 = noisy.mul %2, %3 : !noisy.i32
  %b1 = noisy.add %4, %3 : !noisy.i32
  %b2 = noisy.add %b1, %3 : !noisy.i32
  %b3 = noisy.add %b2, %3 : !noisy.i32
  %b4 = noisy.add %b3, %3 : !noisy.i32
  %c1 = noisy.add %4, %2 : !noisy.i32
  %c2 = noisy.add %c1, %3 : !noisy.i32
  %c3 = noisy.add %c2, %3 : !noisy.i32
  %c4 = noisy.add %c3, %3 : !noisy.i32
  %exit = noisy.mul %b4, %c4 : !noisy.i32
  %x1 = noisy.decode %exit : !noisy.i32 -> i5
  return %x1 : i5
}
