// A chain of 14 adds: the noise grows by one bit per add, 13 .. 26, which is
// legal: no reduce_noise is needed and none is inserted. (The article's
// objective, which weights its max-auxiliaries, would buy 2 here.)
func.func @add_chain(%a: i5, %b: i5) -> i5 {
  %ea = noisy.encode %a : i5 -> !noisy.i32
  %eb = noisy.encode %b : i5 -> !noisy.i32
  %x1 = noisy.add %ea, %eb : !noisy.i32
  %x2 = noisy.add %x1, %eb : !noisy.i32
  %x3 = noisy.add %x2, %eb : !noisy.i32
  %x4 = noisy.add %x3, %eb : !noisy.i32
  %x5 = noisy.add %x4, %eb : !noisy.i32
  %x6 = noisy.add %x5, %eb : !noisy.i32
  %x7 = noisy.add %x6, %eb : !noisy.i32
  %x8 = noisy.add %x7, %eb : !noisy.i32
  %x9 = noisy.add %x8, %eb : !noisy.i32
  %x10 = noisy.add %x9, %eb : !noisy.i32
  %x11 = noisy.add %x10, %eb : !noisy.i32
  %x12 = noisy.add %x11, %eb : !noisy.i32
  %x13 = noisy.add %x12, %eb : !noisy.i32
  %x14 = noisy.add %x13, %eb : !noisy.i32
  %r = noisy.decode %x14 : !noisy.i32 -> i5
  return %r : i5
}
