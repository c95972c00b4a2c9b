func.func @f() -> i32 {
  %c = arith.constant 1 : f32
  return %c : i32
}
