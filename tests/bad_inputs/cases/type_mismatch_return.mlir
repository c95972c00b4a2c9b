func.func @f(%a: i32) -> i64 {
  return %a : i32
}
