// The kernel half of folder.test: a gpu.module declaring the helpers.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    func.func private @twice(i32) -> i32
    func.func private @four_times(i32) -> i32
    gpu.func @k(%x: i32) kernel {
      %r = func.call @twice(%x) : (i32) -> i32
      %s = func.call @four_times(%x) : (i32) -> i32
      gpu.return
    }
  }
}
