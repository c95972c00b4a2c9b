// A module wrapper, a declaration, multi-result calls, index, numeric names.
module @m {
  func.func private @external(i8) -> i8
  func.func @pair(%x: i32, %y: index) -> (i32, index) {
    %0 = arith.constant 7 : index
    %1 = arith.addi %y, %0 : index
    return %x, %1 : i32, index
  }
  func.func @main(%n: i32) -> i32 {
    %c0 = arith.constant 0 : i32
    %i0 = arith.constant 3 : index
    %r0, %r1 = func.call @pair(%n, %i0) : (i32, index) -> (i32, index)
    %c = arith.cmpi slt, %r0, %c0 : i32
    cf.cond_br %c, ^neg, ^loop(%c0 : i32)
  ^neg:
    %m = arith.subi %c0, %n : i32
    cf.br ^loop(%m : i32)
  ^loop(%i: i32):  // loop header
    %one = arith.constant 1 : i32
    %next = arith.addi %i, %one : i32
    %more = arith.cmpi ult, %next, %n : i32
    cf.cond_br %more, ^loop(%next : i32), ^exit
  ^exit:
    %w = arith.extui %more : i1 to i64
    %t = arith.trunci %w : i64 to i32
    %s = arith.select %more, %t, %next : i32
    return %s : i32
  }
}
