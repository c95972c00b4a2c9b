func.func @f(%a: i32) -> i32 {
  %p = arith.cmpi slt, %a, %a : i32
  return %p : i32
}
