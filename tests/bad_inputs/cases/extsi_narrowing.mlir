func.func @f(%a: i32) -> i8 {
  %x = arith.extsi %a : i32 to i8
  return %x : i8
}
