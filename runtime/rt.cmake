# libuqrt: the shared library servers link (public headers under
# runtime/include/uq), its embedded code objects, install rules, a CMake
# package (uqrtConfig.cmake) and a pkg-config file (uqrt.pc).
#
# Included from runtime/CMakeLists.txt, after format/ and reference/.

# libuqrt needs only libc, libm, libdl and pthread where it is deployed: the
# simulator (and with it LLVM) is the separate module libuqrt_sim.so.
set(_uqrt_deps uq_base uq_codeobj)

# --- Embedded code objects -------------------------------------------------
# One uq-compile run over kernels/ writes the code objects and their
# manifests to BUILD/kernels (the kernel tests and benchmarks read them
# there) and runtime/embedded.h's typed records. The variant set is declared
# once, in kernels/ (uq.variants): the generated C file stands for every
# code object the run writes. A kernel that does not compile fails the build:
# libuqrt never ships without its kernels.
set(UQ_KERNELS_DIR "${CMAKE_BINARY_DIR}/kernels" CACHE INTERNAL "")
# The kernel source: the kernels/ folder, or another copy of it for timing
# experiments (scripts/sm90-ablate.py builds libuqrt from edited copies).
set(UQ_KERNEL_SOURCE_DIR "${PROJECT_SOURCE_DIR}/kernels" CACHE PATH
    "The kernel source folder that libuqrt embeds")
file(GLOB_RECURSE _uq_kernel_files CONFIGURE_DEPENDS
     "${UQ_KERNEL_SOURCE_DIR}/*.mlir")
set(UQRT_EMBEDDED_C "${CMAKE_CURRENT_BINARY_DIR}/uqrt_embedded.c")
# With a CUDA toolkit the same run also builds the sm_90a cubins, which are
# embedded too (the CUDA backend runs them; uq-bench-cuda and the CUDA tests
# read them from BUILD/kernels); without one the build says so once
# (top-level CMakeLists.txt) and libuqrt carries the gfx950 objects only.
set(_uq_compile_targets --target=gfx950)
# The held variants (an entry's `held = 1`: compiled but not yet checked on
# their hardware, docs/design.md "Held variants") go into a candidate
# library built for a GPU run (scripts/gpu-bundle-check.sh NAME=BUILD_DIR),
# never into the default one.
option(UQ_HELD_VARIANTS "Also embed the held kernel variants (a candidate library)" OFF)
if(UQ_HELD_VARIANTS)
  list(APPEND _uq_compile_targets --held)
endif()
set(UQ_CUBINS "" CACHE INTERNAL "")
if(UQ_CUDA_DIR)
  set(UQ_CUBINS
      "${UQ_KERNELS_DIR}/decode_sm90_d64_qg_max8.cubin"
      "${UQ_KERNELS_DIR}/decode_sm90_d64_qg_max16.cubin"
      "${UQ_KERNELS_DIR}/decode_sm90_d128_qg_max8.cubin"
      "${UQ_KERNELS_DIR}/decode_sm90_d128_qg_max16.cubin"
      "${UQ_KERNELS_DIR}/decode_sm90_d256_qg_max8.cubin"
      "${UQ_KERNELS_DIR}/decode_sm90_d256_qg_max16.cubin"
      "${UQ_KERNELS_DIR}/reduce_sm90_d64.cubin"
      "${UQ_KERNELS_DIR}/reduce_sm90_d128.cubin"
      "${UQ_KERNELS_DIR}/reduce_sm90_d256.cubin"
      "${UQ_KERNELS_DIR}/store_sm90_d64.cubin"
      "${UQ_KERNELS_DIR}/store_sm90_d128.cubin"
      "${UQ_KERNELS_DIR}/store_sm90_d256.cubin" CACHE INTERNAL "")
  list(REMOVE_ITEM _uq_compile_targets --target=gfx950)
  list(APPEND _uq_compile_targets "--cuda=${UQ_CUDA_DIR}") # every target
endif()
add_custom_command(
  OUTPUT "${UQRT_EMBEDDED_C}" ${UQ_CUBINS}
  COMMAND "${CMAKE_COMMAND}" -E make_directory "${UQ_KERNELS_DIR}"
  COMMAND uq-compile --quiet ${_uq_compile_targets}
          "${UQ_KERNEL_SOURCE_DIR}"
          -o "${UQ_KERNELS_DIR}" "--embed-c=${UQRT_EMBEDDED_C}"
  DEPENDS uq-compile ${_uq_kernel_files}
  COMMENT "Compiling kernels/ and embedding its code objects in libuqrt"
  VERBATIM)
add_custom_target(uq_kernel_objects DEPENDS "${UQRT_EMBEDDED_C}")
if(UQ_CUDA_DIR)
  add_custom_target(uq_cubins ALL DEPENDS ${UQ_CUBINS})
endif()

# The HIP backend needs only the HIP headers at build time (Debian's
# libamdhip64-dev); the runtime library is loaded with dlopen.
set(_uqrt_hip_sources hip/hip_disabled.c)
if(UQ_ENABLE_HIP)
  find_path(UQ_HIP_INCLUDE_DIR hip/hip_runtime_api.h PATHS /opt/rocm/include)
  if(UQ_HIP_INCLUDE_DIR)
    set(_uqrt_hip_sources hip/hip_symbols.c hip/hip_device.c)
  else()
    message(WARNING "uqrt: HIP headers not found; building without the HIP backend")
  endif()
endif()

# The CUDA backend needs nothing of CUDA to build: libcuda.so.1 is loaded
# with dlopen and its few types are declared in cuda/cuda_symbols.h.
option(UQ_ENABLE_CUDA "Build the CUDA backend (loads libcuda.so.1 at run time)" ON)
set(_uqrt_cuda_sources cuda/cuda_disabled.c)
if(UQ_ENABLE_CUDA)
  set(_uqrt_cuda_sources cuda/cuda_symbols.c cuda/cuda_device.c)
endif()

add_library(uqrt SHARED
  api/context.c
  api/memory.c
  plan/checks.c
  plan/config.c
  plan/create.c
  plan/kernel_args.c
  plan/launch.c
  plan/launch_policy.c
  plan/launch_traits.c
  plan/run.c
  plan/store.c
  plan/variants.c
  plan/views.c
  plan/workspace.c
  ${_uqrt_hip_sources}
  ${_uqrt_cuda_sources}
  api/sim_loader.c
  host_backend/host_device.c
  host_backend/host_decode.c
  "${UQRT_EMBEDDED_C}")
target_include_directories(uqrt
  PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/runtime/include>
         $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/base/include>
         $<INSTALL_INTERFACE:include>
  PRIVATE ${PROJECT_SOURCE_DIR})
if(UQ_HIP_INCLUDE_DIR AND UQ_ENABLE_HIP)
  target_include_directories(uqrt SYSTEM PRIVATE "${UQ_HIP_INCLUDE_DIR}")
endif()
find_package(Threads REQUIRED)
target_link_libraries(uqrt PRIVATE ${_uqrt_deps} Threads::Threads ${CMAKE_DL_LIBS} m)
# The host API (uq/format.h, reference.h, policy.h) is exported whole, not
# only the parts the backends happen to call: its objects go in entire.
target_sources(uqrt PRIVATE $<TARGET_OBJECTS:uq_format>
                            $<TARGET_OBJECTS:uq_policy>
                            $<TARGET_OBJECTS:uq_reference>)
# Only the public API leaves the library.
set_target_properties(uqrt PROPERTIES
  C_VISIBILITY_PRESET hidden
  VERSION ${PROJECT_VERSION} SOVERSION 0
  LINK_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/api/uqrt.map")
target_link_options(uqrt PRIVATE
  "-Wl,--version-script=${CMAKE_CURRENT_SOURCE_DIR}/api/uqrt.map")

# --- The simulator module -------------------------------------------------
# Loaded by libuqrt on demand (api/sim_loader.c) from the directory libuqrt
# is in, so it is built into the same directory (this one) and installed
# beside it, in its own component uqrt_sim: a GPU server installs only uqrt.
add_library(uqrt_sim MODULE sim_backend/sim_device.c sim_backend/sim_module.c)
target_include_directories(uqrt_sim PRIVATE ${PROJECT_SOURCE_DIR}
                                            ${PROJECT_SOURCE_DIR}/runtime/include)
target_link_libraries(uqrt_sim PRIVATE uq_sim uq_base)
set_target_properties(uqrt_sim PROPERTIES
  C_VISIBILITY_PRESET hidden
  LINK_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/sim_backend/sim_module.map")
target_link_options(uqrt_sim PRIVATE
  "-Wl,--version-script=${CMAKE_CURRENT_SOURCE_DIR}/sim_backend/sim_module.map")
# Whoever links libuqrt and runs the sim backend needs the module built.
add_dependencies(uqrt uqrt_sim)

# --- Install, CMake package, pkg-config -----------------------------------
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)
# Everything below is in the `uqrt` install component:
#   cmake --install BUILD --component uqrt --prefix PREFIX
install(TARGETS uqrt EXPORT uqrtTargets COMPONENT uqrt
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS uqrt_sim COMPONENT uqrt_sim
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES
  ${PROJECT_SOURCE_DIR}/runtime/include/uq/uqrt.h
  ${PROJECT_SOURCE_DIR}/runtime/include/uq/dtype.h
  ${PROJECT_SOURCE_DIR}/base/include/uq/status.h
  ${PROJECT_SOURCE_DIR}/runtime/include/uq/format.h
  ${PROJECT_SOURCE_DIR}/runtime/include/uq/reference.h
  ${PROJECT_SOURCE_DIR}/runtime/include/uq/policy.h
  ${PROJECT_SOURCE_DIR}/runtime/include/uq/variant.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/uq COMPONENT uqrt)
# The Python package, pure Python over ctypes: it finds the library two
# directories up (PREFIX/LIBDIR/python3/site-packages/uqrt -> LIBDIR).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/python/uqrt
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/python3/site-packages COMPONENT uqrt
  PATTERN __pycache__ EXCLUDE)
install(EXPORT uqrtTargets NAMESPACE uqrt:: COMPONENT uqrt
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/uqrt)
configure_package_config_file(
  "${CMAKE_CURRENT_SOURCE_DIR}/api/uqrtConfig.cmake.in"
  "${CMAKE_CURRENT_BINARY_DIR}/uqrtConfig.cmake"
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/uqrt)
write_basic_package_version_file(
  "${CMAKE_CURRENT_BINARY_DIR}/uqrtConfigVersion.cmake"
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES
  "${CMAKE_CURRENT_BINARY_DIR}/uqrtConfig.cmake"
  "${CMAKE_CURRENT_BINARY_DIR}/uqrtConfigVersion.cmake"
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/uqrt COMPONENT uqrt)
# The .pc finds its prefix from its own location (relocatable installs).
file(RELATIVE_PATH UQRT_PC_TO_PREFIX
     "${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/pkgconfig"
     "${CMAKE_INSTALL_PREFIX}")
string(REGEX REPLACE "/$" "" UQRT_PC_TO_PREFIX "${UQRT_PC_TO_PREFIX}")
configure_file("${CMAKE_CURRENT_SOURCE_DIR}/api/uqrt.pc.in"
               "${CMAKE_CURRENT_BINARY_DIR}/uqrt.pc" @ONLY)
install(FILES "${CMAKE_CURRENT_BINARY_DIR}/uqrt.pc"
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT uqrt)
