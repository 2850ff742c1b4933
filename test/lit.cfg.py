# lit configuration for uq: IR tests of the dialect and passes, tool tests,
# and ISA tests of the kernels. Paths come from lit.site.cfg.py (generated).
import os

import lit.formats

config.name = "uq"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.uq_build_dir, "test")
# Inputs/: files a test reads, not tests.
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "unit", "CMakeLists.txt",
                   "Inputs"]

llvm_bin = config.uq_llvm_bin
config.environment["PATH"] = os.pathsep.join(
    [llvm_bin, config.environment.get("PATH", "")])

config.substitutions.append(("%uq_opt", config.uq_opt))
config.substitutions.append(("%uq_compile", config.uq_compile))
config.substitutions.append(("%mlir_opt", os.path.join(llvm_bin, "mlir-opt")))
config.substitutions.append(("%irdl", os.path.join(config.uq_source_dir, "dialect", "uq.irdl.mlir")))
config.substitutions.append(("%kernels", os.path.join(config.uq_source_dir, "kernels")))
config.substitutions.append(("%objdump", os.path.join(llvm_bin, "llvm-objdump") + " --mcpu=gfx950"))
config.substitutions.append(("%readelf", os.path.join(llvm_bin, "llvm-readelf")))
config.substitutions.append(("%python", config.python_executable))
config.substitutions.append(("%test_dir", config.test_source_root))
config.substitutions.append(("%uq_source_dir", config.uq_source_dir))
config.substitutions.append(("%uq_build_dir", config.uq_build_dir))

# The sm_90a variants need the CUDA toolkit found at configure time (ptxas).
cuda_dir = getattr(config, "uq_cuda_dir", "")
if cuda_dir and os.path.exists(os.path.join(cuda_dir, "bin", "ptxas")):
    config.available_features.add("cuda")
    config.substitutions.append(("%cuda_dir", cuda_dir))
    config.substitutions.append(("%readme_cuda", "--cuda"))
else:
    config.substitutions.append(("%readme_cuda", ""))
