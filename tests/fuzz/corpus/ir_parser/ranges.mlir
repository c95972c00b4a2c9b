// Integer range demo (the seed article's example): an i8 sign-extended to
// i32 and doubled stays within 9 signed bits, so comparisons against
// constants outside that range are decided.
func.func @ranges(%x: i8) -> i1 {
  %1 = arith.extsi %x : i8 to i32
  %2 = arith.addi %1, %1 : i32
  %big = arith.constant 300 : i32
  %small = arith.constant -300 : i32
  %lt = arith.cmpi slt, %2, %big : i32
  %gt = arith.cmpi sgt, %2, %small : i32
  %both = arith.andi %lt, %gt : i1
  %zero = arith.constant 0 : i32
  %unknown = arith.cmpi sge, %2, %zero : i32
  %r = arith.ori %both, %unknown : i1
  return %r : i1
}
