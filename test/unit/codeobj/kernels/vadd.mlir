// A vector add written in MLIR and compiled by mlir-opt (convert-gpu-to-rocdl,
// rocdl-attach-target, gpu-module-to-binary): the loader must read what the
// real compiler path emits, hidden arguments and all.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @vadd(%a: memref<1024xf32>, %b: memref<1024xf32>, %c: memref<1024xf32>, %n: i32) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %bid = gpu.block_id x
      %tid = gpu.thread_id x
      %bdim = arith.constant 64 : index
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %x = memref.load %a[%i] : memref<1024xf32>
      %y = memref.load %b[%i] : memref<1024xf32>
      %s = arith.addf %x, %y : f32
      memref.store %s, %c[%i] : memref<1024xf32>
      gpu.return
    }
  }
}
