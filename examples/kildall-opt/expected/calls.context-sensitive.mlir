module {
  func.func private @inc(%x: i32) -> i32 {
    %one = arith.constant 1 : i32
    %r = arith.addi %x, %one : i32
    return %r : i32
  }
  func.func @main() -> (i32, i32) {
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c2_i32 = arith.constant 2 : i32
    %a = func.call @inc(%c1) : (i32) -> i32
    %c3_i32 = arith.constant 3 : i32
    %b = func.call @inc(%c2) : (i32) -> i32
    return %c2_i32, %c3_i32 : i32, i32
  }
}
