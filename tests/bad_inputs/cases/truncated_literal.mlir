func.func @f(%a: i32) -> i32 {
  %c = arith.constant 12