// The index dialect: constants fold through index arithmetic and comparisons.
func.func @index_fold() -> (index, i1) {
  %c3 = index.constant 3
  %c4 = index.constant 4
  %s = index.add %c3, %c4
  %m = index.mul %s, %c3
  %q = index.floordivs %m, %c4
  %p = index.cmp slt(%q, %m)
  return %q, %p : index, i1
}

func.func @index_unknown(%a: index) -> index {
  %c1 = index.constant 1
  %s = index.add %a, %c1
  return %s : index
}
