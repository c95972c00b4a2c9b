func.func @f(%a: i32) -> i32 {
^entry:
  cf.br ^bb1
^bb1:
  cf.br ^entry
}
