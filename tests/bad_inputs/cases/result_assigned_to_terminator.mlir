func.func @f(%a: i32) -> i32 {
  %x = cf.br ^bb1
^bb1:
  return %a : i32
}
