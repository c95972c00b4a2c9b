func.func @f(%a: i1) -> i1 {
  %c = arith.constant -2 : i1
  return %c : i1
}
