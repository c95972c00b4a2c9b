func.func @f(%a: i99999999999999999999) -> i32 {
  %c = arith.constant 0 : i32
  return %c : i32
}
