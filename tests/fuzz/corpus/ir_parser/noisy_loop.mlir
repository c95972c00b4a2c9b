// A loop: the accumulator (a block argument) is multiplied by a fresh value
// on every trip. Without a reduce_noise inside the loop its noise grows
// without bound (the analysis widens it); one reduce_noise after the `mul`
// keeps it at 12 on the back edge.
func.func @power(%x: i5, %n: i32) -> i5 {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %ex = noisy.encode %x : i5 -> !noisy.i32
  cf.br ^head(%ex, %zero : !noisy.i32, i32)
^head(%acc: !noisy.i32, %i: i32):
  %done = arith.cmpi sge, %i, %n : i32
  cf.cond_br %done, ^exit, ^body
^body:
  %next = noisy.mul %acc, %ex : !noisy.i32
  %i1 = arith.addi %i, %one : i32
  cf.br ^head(%next, %i1 : !noisy.i32, i32)
^exit:
  %r = noisy.decode %acc : !noisy.i32 -> i5
  return %r : i5
}
