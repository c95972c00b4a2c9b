func.func @f0(%a0: i8) -> i1 {
  %k1 = arith.constant false
  %v0 = arith.extsi %k1 : i1 to i2
  %v2 = arith.constant -128 : i8
  %v3 = arith.cmpi ne, %v2, %v2 : i8
  %k5 = arith.constant 0 : i8
  %v4 = func.call @f0(%k5) : (i8) -> i1
  %k6 = arith.constant false
  cf.cond_br %v4, ^bb2(%k6 : i1), ^bb1
^bb1:
  %v7 = arith.constant -16 : i8
  %k9 = arith.constant 1 : i8
  %v8 = arith.cmpi eq, %k9, %v7 : i8
  %k11 = arith.constant true
  %v10 = arith.subi %k6, %k11 : i1
  cf.br ^bb2(%k11 : i1)
^bb2(%b2_0: i1):
  %v12 = arith.extui %v4 : i1 to i4
  %v13 = arith.extui %k1 : i1 to i4
  return %b2_0 : i1
}
func.func @f1() -> i1 {
  %k1 = arith.constant 0 : i8
  %v0 = arith.divui %k1, %k1 : i8
  cf.br ^bb1(%v0 : i8)
^bb1(%b1_0: i8):
  %v2 = arith.cmpi sgt, %b1_0, %k1 : i8
  %v3 = arith.select %v2, %v2, %v2 : i1
  cf.br ^bb1(%v0 : i8)
^bb2(%b2_0: i1):
  %v4 = func.call @f1() : () -> i1
  %v5 = arith.cmpi sge, %v4, %v4 : i1
  %v6 = func.call @f1() : () -> i1
  %k7 = arith.constant false
  return %k7 : i1
}
