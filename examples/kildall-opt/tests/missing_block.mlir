func.func @f(%a: i32) -> i32 {
  cf.br ^exit(%a : i32)
}
