func.func @f0(%a0: i4, %a1: i4, %a2: i4) -> i4 {
  %k1 = arith.constant false
  %v0 = arith.select %k1, %a0, %a0 : i4
  %v2 = arith.cmpi sle, %a0, %v0 : i4
  %k3 = arith.constant -8 : i4
  return %k3 : i4
}
