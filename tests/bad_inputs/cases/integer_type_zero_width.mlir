func.func @f(%a: i0) -> i0 {
  return %a : i0
}
