func.func @f(%a: i32) -> i32 {
  %x = frobnicate %a : i32
  return %x : i32
}
