func.func @f(%a: i32, %c: i8) -> i32 {
  %x = arith.select %c, %a, %a : i32
  return %x : i32
}
