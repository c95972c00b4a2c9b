func.func @f(%a: index) -> i1 {
  %x = index.cmp less(%a, %a)
  return %x : i1
}
