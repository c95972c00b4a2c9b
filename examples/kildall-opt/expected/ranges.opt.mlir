module {
  func.func @ranges(%x: i8) -> i1 {
    %1 = arith.extsi %x : i8 to i32
    %2 = arith.addi %1, %1 : i32
    %big = arith.constant 300 : i32
    %small = arith.constant -300 : i32
    %lt = arith.constant true
    %gt = arith.constant true
    %both = arith.constant true
    %zero = arith.constant 0 : i32
    %unknown = arith.cmpi sge, %2, %zero : i32
    %r = arith.constant true
    return %r : i1
  }
}
