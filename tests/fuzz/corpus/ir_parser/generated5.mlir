func.func @f0(%a0: i1, %a1: i8) -> (i1, i1) {
  %k1 = arith.constant -991241031 : i32
  %v0 = arith.remsi %k1, %k1 : i32
  %k2 = arith.constant 0 : i32
  %k3 = arith.constant true
  cf.cond_br %a0, ^bb3(%k2, %k3 : i32, i1), ^bb1
^bb1:
  %v4 = arith.extsi %a1 : i8 to i16
  %v5 = arith.maxsi %v0, %k2 : i32
  %v6 = arith.shli %a0, %k3 : i1
  %v7 = arith.divsi %a1, %a1 : i8
  %k8 = arith.constant false
  cf.cond_br %v6, ^bb2(%k3 : i1), ^bb2(%k8 : i1)
^bb2(%b2_0: i1):
  %v9 = arith.addi %k3, %b2_0 : i1
  %v10 = arith.remui %k3, %a0 : i1
  %k11 = arith.constant false
  cf.br ^bb3(%v0, %k11 : i32, i1)
^bb3(%b3_0: i32, %b3_1: i1):
  %k13 = arith.constant -1 : i32
  %v12 = arith.maxui %k13, %k13 : i32
  return %b3_1, %b3_1 : i1, i1
}
