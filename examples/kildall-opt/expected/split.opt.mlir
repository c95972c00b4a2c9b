module {
  func.func @first() -> i32 {
    %b = arith.constant 36 : i32
    return %b : i32
  }
}
// -----
module {
  func.func @second(%x: i8) -> i1 {
    %true = arith.constant true
    return %true : i1
  }
}
// -----
module {
  func.func @third() {
    return
  }
}
