// A dot product of length 8 written as a chain, as a loop unrolls it: every
// product has noise 24, so the chain ((p0 + p1) + p2) + ... needs a
// reduce_noise every second add (3); rebalanced into a tree it needs 2.
//   kildall-opt --noisy-rebalance --noisy-reduce-noise dot_product.mlir
func.func @dot(%a0: i5, %a1: i5, %a2: i5, %a3: i5, %a4: i5, %a5: i5, %a6: i5, %a7: i5, %b: i5) -> i5 {
  %x = noisy.encode %b : i5 -> !noisy.i32
  %e0 = noisy.encode %a0 : i5 -> !noisy.i32
  %e1 = noisy.encode %a1 : i5 -> !noisy.i32
  %e2 = noisy.encode %a2 : i5 -> !noisy.i32
  %e3 = noisy.encode %a3 : i5 -> !noisy.i32
  %e4 = noisy.encode %a4 : i5 -> !noisy.i32
  %e5 = noisy.encode %a5 : i5 -> !noisy.i32
  %e6 = noisy.encode %a6 : i5 -> !noisy.i32
  %e7 = noisy.encode %a7 : i5 -> !noisy.i32
  %p0 = noisy.mul %e0, %x : !noisy.i32
  %p1 = noisy.mul %e1, %x : !noisy.i32
  %s1 = noisy.add %p0, %p1 : !noisy.i32
  %p2 = noisy.mul %e2, %x : !noisy.i32
  %s2 = noisy.add %s1, %p2 : !noisy.i32
  %p3 = noisy.mul %e3, %x : !noisy.i32
  %s3 = noisy.add %s2, %p3 : !noisy.i32
  %p4 = noisy.mul %e4, %x : !noisy.i32
  %s4 = noisy.add %s3, %p4 : !noisy.i32
  %p5 = noisy.mul %e5, %x : !noisy.i32
  %s5 = noisy.add %s4, %p5 : !noisy.i32
  %p6 = noisy.mul %e6, %x : !noisy.i32
  %s6 = noisy.add %s5, %p6 : !noisy.i32
  %p7 = noisy.mul %e7, %x : !noisy.i32
  %s7 = noisy.sub %s6, %p7 : !noisy.i32
  %r = noisy.decode %s7 : !noisy.i32 -> i5
  return %r : i5
}
