func.func @f() -> i32 {
  %c = arith.constant true : i32
  return %c : i32
}
