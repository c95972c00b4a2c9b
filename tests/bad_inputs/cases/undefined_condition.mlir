func.func @f(%a: i32) -> i32 {
  cf.cond_br %c, ^bb1, ^bb1
^bb1:
  return %a : i32
}
