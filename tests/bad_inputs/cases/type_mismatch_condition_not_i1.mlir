func.func @f(%a: i32) -> i32 {
  cf.cond_br %a, ^bb1, ^bb1
^bb1:
  return %a : i32
}
