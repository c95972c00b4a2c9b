func.func @packs(%a: i32, %b: i32) -> (i32, i32, index) {
  %x, %r:2 = func.call @three(%a, %b) : (i32, i32) -> (i32, i32, i32)
  %f = arith.floordivsi %r#0, %b : i32
  %c = arith.ceildivsi %r#1, %b : i32
  %u = arith.ceildivui %x, %b : i32
  %i = arith.index_cast %f : i32 to index
  %j = arith.index_castui %c : i32 to index
  %k = arith.addi %i, %j : index
  %t = arith.index_cast %k : index to i32
  %s = arith.addi %t, %u : i32
  return %s, %r#1, %k : i32, i32, index
}
func.func private @three(i32, i32) -> (i32, i32, i32)
