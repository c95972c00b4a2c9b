module {
  func.func @test_insert_noise_reduction_ops_mul() -> i5 {
    %0 = arith.constant 3 : i5
    %1 = arith.constant 4 : i5
    %2 = noisy.encode %0 : i5 -> !noisy.i32
    %3 = noisy.encode %1 : i5 -> !noisy.i32
    %4 = noisy.mul %2, %3 : !noisy.i32
    %9 = noisy.reduce_noise %4 : !noisy.i32
    %5 = noisy.mul %9, %9 : !noisy.i32
    %10 = noisy.reduce_noise %5 : !noisy.i32
    %6 = noisy.mul %10, %10 : !noisy.i32
    %11 = noisy.reduce_noise %6 : !noisy.i32
    %7 = noisy.mul %11, %11 : !noisy.i32
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
    %10 = noisy.reduce_noise %4 : !noisy.i32
    %5 = noisy.add %10, %3 : !noisy.i32
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
    %5 = noisy.reduce_noise %4 : !noisy.i32
    %b1 = noisy.add %5, %3 : !noisy.i32
    %b2 = noisy.add %b1, %3 : !noisy.i32
    %b3 = noisy.add %b2, %3 : !noisy.i32
    %b4 = noisy.add %b3, %3 : !noisy.i32
    %c1 = noisy.sub %5, %2 : !noisy.i32
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
    %5 = noisy.reduce_noise %4 : !noisy.i32
    %b1 = noisy.add %5, %3 : !noisy.i32
    %b2 = noisy.add %b1, %3 : !noisy.i32
    %b3 = noisy.add %b2, %3 : !noisy.i32
    %6 = noisy.reduce_noise %b3 : !noisy.i32
    %b4 = noisy.add %6, %3 : !noisy.i32
    %c1 = noisy.add %5, %2 : !noisy.i32
    %c2 = noisy.add %c1, %3 : !noisy.i32
    %c3 = noisy.add %c2, %3 : !noisy.i32
    %7 = noisy.reduce_noise %c3 : !noisy.i32
    %c4 = noisy.add %7, %3 : !noisy.i32
    %exit = noisy.mul %b4, %c4 : !noisy.i32
    %x1 = noisy.decode %exit : !noisy.i32 -> i5
    return %x1 : i5
  }
}
