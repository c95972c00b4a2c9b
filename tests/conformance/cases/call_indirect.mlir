// Function values (as MLIR's func dialect): `func.constant @f` makes one, `func.call_indirect`
// calls it, and function types type them. MLIR 16's SCCP tracks no indirect call: an indirect
// call's results are unknown, and a function a `func.constant` names is a root (its arguments
// unknown), though its direct calls still see its results.
func.func private @target(%x: i32) -> (i32, i32) {
  %c1 = arith.constant 1 : i32
  return %c1, %x : i32, i32
}

func.func private @direct_only(%x: i32) -> i32 {
  return %x : i32
}

func.func private @external(i32) -> i32

func.func @caller(%y: i32) -> (i32, i32, i32, i32) {
  %c5 = arith.constant 5 : i32
  %d:2 = call @target(%c5) : (i32) -> (i32, i32)
  %f = func.constant @target : (i32) -> (i32, i32)
  %i:2 = func.call_indirect %f(%c5) : (i32) -> (i32, i32)
  %k = call @direct_only(%c5) : (i32) -> i32
  return %d#0, %d#1, %i#0, %k : i32, i32, i32, i32
}

func.func @apply(%g: (i32) -> i32, %x: i32) -> i32 {
  %r = call_indirect %g(%x) {tag} : (i32) -> i32
  return %r : i32
}

func.func @pass_function() -> i32 {
  %c3 = arith.constant 3 : i32
  %e = constant @external : (i32) -> i32
  %r = call @apply(%e, %c3) : ((i32) -> i32, i32) -> i32
  return %r : i32
}
