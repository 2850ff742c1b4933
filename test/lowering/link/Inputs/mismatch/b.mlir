func.func @twice(%x: i32) -> i32 {
  %r = arith.addi %x, %x : i32
  return %r : i32
}
