func.func @f(%a: i32) -> i64 {
  %x = arith.extsi %a, %a : i32 to i64
  return %x : i64
}
