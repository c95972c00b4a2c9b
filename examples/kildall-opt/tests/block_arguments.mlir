func.func @f(%a: i32, %c: i1) -> i32 {
  cf.cond_br %c, ^exit(%a : i32), ^exit
^exit(%r: i32):
  return %r : i32
}
