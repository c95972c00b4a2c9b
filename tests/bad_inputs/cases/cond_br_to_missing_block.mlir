func.func @f(%a: i32, %c: i1) -> i32 {
  cf.cond_br %c, ^bb1, ^missing
^bb1:
  return %a : i32
}
