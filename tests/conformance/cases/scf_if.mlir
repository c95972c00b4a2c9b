// scf.if: a constant condition picks its arm; equal arms fold; an unknown
// condition with different arms stays.
func.func @if_constant_condition(%a: i32) -> i32 {
  %true = arith.constant true
  %c1 = arith.constant 1 : i32
  %r = scf.if %true -> (i32) {
    %two = arith.addi %c1, %c1 : i32
    scf.yield %two : i32
  } else {
    scf.yield %a : i32
  }
  return %r : i32
}

func.func @if_same_arms(%c: i1) -> i32 {
  %c3 = arith.constant 3 : i32
  %r = scf.if %c -> (i32) {
    scf.yield %c3 : i32
  } else {
    %one = arith.constant 1 : i32
    %two = arith.constant 2 : i32
    %three = arith.addi %one, %two : i32
    scf.yield %three : i32
  }
  return %r : i32
}

func.func @if_unknown(%c: i1, %a: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %r = scf.if %c -> (i32) {
    scf.yield %c1 : i32
  } else {
    scf.yield %a : i32
  }
  return %r : i32
}
