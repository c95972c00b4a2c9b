module {
  func.func @index_math(%tid: i32, %n: i32) -> (i32, i32, i1, i32) {
    %c32_i32 = arith.constant 32 : i32
    %c12_i32 = arith.constant 12 : i32
    %c0 = arith.constant 0 : i32
    %c1023 = arith.constant 1023 : i32
    %t = kildall.assume %tid in [%c0, %c1023] : i32
    %row = arith.divui %t, %c32_i32 : i32
    %col = arith.remui %t, %c32_i32 : i32
    %last = arith.cmpi ult, %row, %c32_i32 : i32
    %q = arith.divsi %n, %c32_i32 : i32
    %0 = arith.addi %q, %c12_i32 : i32
    return %row, %col, %last, %0 : i32, i32, i1, i32
  }
}
