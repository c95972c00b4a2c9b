// The seed article's branching program with the noisy ops replaced by arith
// ops on i5, so it runs without the noisy dialect.
func.func @test_single_insertion_branching() -> i5 {
  %0 = arith.constant 3 : i5
  %1 = arith.constant 4 : i5
  %2 = arith.addi %0, %0 : i5
  %3 = arith.addi %1, %1 : i5
  %4 = arith.muli %2, %3 : i5
  %b1 = arith.addi %4, %3 : i5
  %b2 = arith.addi %b1, %3 : i5
  %c1 = arith.subi %4, %2 : i5
  %c2 = arith.subi %c1, %3 : i5
  %x3 = arith.addi %b2, %c2 : i5
  return %x3 : i5
}
