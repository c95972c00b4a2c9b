module {
  func.func @first() -> i32 {
    %a = arith.constant 6 : i32
    %b = arith.constant 36 : i32
    return %b : i32
  }
}
// -----
module {
  func.func @second(%x: i8) -> i1 {
    %w = arith.extui %x : i8 to i32
    %c = arith.constant 300 : i32
    %lt = arith.constant true
    return %lt : i1
  }
}
// -----
module {
  func.func @third() {
    return
  }
}
