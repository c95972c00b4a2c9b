func.func @f(%a: i32) -> i1 {
  %p = arith.cmpi sometimes, %a, %a : i32
  return %p : i1
}
