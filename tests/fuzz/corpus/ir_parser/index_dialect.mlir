func.func @index_ops(%a: index, %b: index, %n: i32) -> (index, i1) {
  %c1 = index.constant 1
  %big = index.constant 0xfffffffe
  %t = index.bool.constant true
  %0 = index.minu %a, %big
  %1 = index.add %0, %c1
  %2 = index.floordivs %1, %b {note = "x"}
  %3 = index.casts %n : i32 to index
  %4 = index.shl %3, %c1
  %5 = index.cmp uge(%4, %2)
  %6 = arith.andi %5, %t : i1
  return %4, %6 : index, i1
}
