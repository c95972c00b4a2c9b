func.func @f(%a: i65) -> i65 {
  return %a : i65
}
