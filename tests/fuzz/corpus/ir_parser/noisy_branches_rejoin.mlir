// Control flow: two branches that rejoin through a block argument, then a
// `mul` of the joined value. The block argument takes the larger incoming
// noise (25 from ^left, 24 from ^right), so the mul would reach 25 + 12 = 37:
// one reduce_noise is needed, and the best place is the shared `mul` at the
// top (12 + 1 = 13 on the left, 12 on the right, 13 + 12 = 25 after the join).
func.func @branches_rejoin(%a: i5, %b: i5, %c: i1) -> i5 {
  %ea = noisy.encode %a : i5 -> !noisy.i32
  %eb = noisy.encode %b : i5 -> !noisy.i32
  %m = noisy.mul %ea, %eb : !noisy.i32
  cf.cond_br %c, ^left, ^right
^left:
  %l = noisy.add %m, %eb : !noisy.i32
  cf.br ^join(%l : !noisy.i32)
^right:
  cf.br ^join(%m : !noisy.i32)
^join(%j: !noisy.i32):
  %p = noisy.mul %j, %eb : !noisy.i32
  %r = noisy.decode %p : !noisy.i32 -> i5
  return %r : i5
}
