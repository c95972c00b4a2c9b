// Three modules in one file, separated as mlir-opt's --split-input-file reads them.
func.func @first() -> i32 {
  %a = arith.constant 6 : i32
  %b = arith.muli %a, %a : i32
  return %b : i32
}

// -----

func.func @second(%x: i8) -> i1 {
  %w = arith.extui %x : i8 to i32
  %c = arith.constant 300 : i32
  %lt = arith.cmpi ult, %w, %c : i32
  return %lt : i1
}

// -----

func.func @third() {
  return
}
