func.func @f(%a: i8) -> i32 {
  %x = arith.trunci %a : i8 to i32
  return %x : i32
}
