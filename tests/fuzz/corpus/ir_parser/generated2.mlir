func.func @f0(%a0: i4, %a1: i4, %a2: i4) -> i4 {
  %k1 = arith.constant false
  %v0 = arith.extui %k1 : i1 to i2
  %v2 = arith.extsi %a0 : i4 to i5
  %k4 = arith.constant 0 : i4
  %k5 = arith.constant 1 : i4
  %v3 = arith.xori %k4, %k5 : i4
  %v6 = arith.cmpi eq, %a1, %k4 : i4
  %k7 = arith.constant false
  cf.cond_br %k7, ^bb1(%k4 : i4), ^bb1(%k5 : i4)
^bb1(%b1_0: i4):
  %v8 = arith.select %v6, %v3, %v3 : i4
  %k10 = arith.constant 1 : i4
  %v9 = arith.minsi %v3, %k10 : i4
  cf.cond_br %k1, ^bb2(%k7, %v8 : i1, i4), ^bb2(%k7, %v8 : i1, i4)
^bb2(%b2_0: i1, %b2_1: i4):
  %v11 = arith.trunci %v3 : i4 to i3
  %v12 = arith.minsi %k5, %a1 : i4
  %v13 = arith.constant -1 : i4
  return %v3 : i4
}
func.func @f1(%a0: i4, %a1: i4, %a2: i4) -> i4 {
  %v0 = arith.maxsi %a1, %a1 : i4
  %v1 = arith.minsi %a2, %a0 : i4
  %v2 = arith.cmpi eq, %a0, %v1 : i4
  cf.cond_br %v2, ^bb2(%v1 : i4), ^bb2(%v1 : i4)
^bb1(%b1_0: i4):
  %v3 = arith.divsi %a1, %a1 : i4
  %k4 = arith.constant -1 : i4
  cf.cond_br %v2, ^bb2(%k4 : i4), ^bb2(%a2 : i4)
^bb2(%b2_0: i4):
  return %b2_0 : i4
}
func.func @f2(%a0: i4, %a1: i4, %a2: i4) -> i4 {
  %k0 = arith.constant 1 : i4
  return %k0 : i4
}
