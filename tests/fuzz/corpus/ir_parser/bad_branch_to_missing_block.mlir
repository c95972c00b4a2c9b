func.func @f(%a: i32) -> i32 {
  cf.br ^nowhere
^bb1:
  return %a : i32
}
