// A second library file: it declares @twice, which steps.mlir defines, as a
// C file declares a function another defines.
func.func private @twice(i32) -> i32

func.func @four_times(%x: i32) -> i32 {
  %t = func.call @twice(%x) : (i32) -> i32
  %r = func.call @twice(%t) : (i32) -> i32
  return %r : i32
}
