"live.user"() {uses = [@f]} : () -> ()
func.func private @f(%x: i32) -> i32 {
  return %x : i32
}
