func.func @f0(%a0: i8, %a1: i8) -> i2 {
  %k1 = arith.constant -8 : i4
  %v0 = arith.shrsi %k1, %k1 : i4
  %k3 = arith.constant true
  %k4 = arith.constant -2 : i2
  %v2 = arith.select %k3, %k4, %k4 : i2
  %v5 = arith.ori %v0, %v0 : i4
  return %v2 : i2
}
