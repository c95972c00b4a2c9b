module {
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
}
