func.func @f() -> i8 {
  %big = arith.constant 256 : i8
  return %big : i8
}
