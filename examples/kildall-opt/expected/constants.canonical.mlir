module {
  func.func @constants(%n: i32) -> i32 {
    %c42_i32 = arith.constant 42 : i32
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    cf.br ^loop(%c0, %c42_i32 : i32, i32)
  ^loop(%i: i32, %acc: i32):
    %next = arith.addi %i, %c1 : i32
    %more = arith.cmpi slt, %next, %n : i32
    cf.cond_br %more, ^loop(%next, %acc : i32, i32), ^exit
  ^exit:
    return %acc : i32
  }
}
