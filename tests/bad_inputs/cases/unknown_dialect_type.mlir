func.func @f(%a: !foo.bar) -> i32 {
  %c = arith.constant 0 : i32
  return %c : i32
}
