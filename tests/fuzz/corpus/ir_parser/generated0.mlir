func.func @f0() -> i2 {
  %k1 = arith.constant -2 : i2
  %v0 = arith.maxui %k1, %k1 : i2
  %v2 = arith.shrui %v0, %v0 : i2
  %k3 = arith.constant false
  %k4 = arith.constant 0 : i8
  cf.cond_br %k3, ^bb1(%k4 : i8), ^bb1(%k4 : i8)
^bb1(%b1_0: i8):
  return %k1 : i2
}
func.func @f1() -> i3 {
  %k1 = arith.constant -1 : i2
  %v0 = arith.cmpi sle, %k1, %k1 : i2
  %k3 = arith.constant -2 : i2
  %v2 = arith.remui %k1, %k3 : i2
  %k4 = arith.constant 0 : i8
  %k5 = arith.constant 1 : i8
  cf.cond_br %v0, ^bb2(%k4, %k4 : i8, i8), ^bb2(%k4, %k5 : i8, i8)
^bb1(%b1_0: i8, %b1_1: i1):
  %v6 = arith.maxui %b1_0, %b1_0 : i8
  cf.cond_br %b1_1, ^bb2(%v6, %b1_0 : i8, i8), ^bb2(%k4, %v6 : i8, i8)
^bb2(%b2_0: i8, %b2_1: i8):
  %v7 = arith.constant 3 : i3
  return %v7 : i3
}
