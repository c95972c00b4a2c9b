func.func @f(%a: i32) -> i64 {
  %r = arith.index_cast %a : i32 to i64
  return %r : i64
}
