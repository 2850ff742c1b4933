// The lowering pipeline from kernels/ to gfx950 code objects and sm_90a
// cubins: variant
// discovery, specialization, upstream conversions and serialization.
#ifndef UQ_LOWERING_PIPELINE_H_
#define UQ_LOWERING_PIPELINE_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

// One kernel variant: a gpu.module, one of its targets and one of its
// `uq.variants` entries. The entries' values are the uq.param bindings; two
// of them also describe what the variant serves: `d` (head dim), `qg_max`
// (query groups 1..qg_max) and `rows` (a decode's query rows: tokens x QG). A
// module with several targets
// (`[#rocdl.target<...>, #nvvm.target<...>]`) has every entry for each; the
// keys of the second and later targets carry the target's tag
// ("store_sm90_d256"), and the module's `uq.target_params` (one dictionary
// per target) adds the bindings that differ by target.
typedef struct uq_variant_s {
  char module[64];      // gpu.module symbol, e.g. "uq_decode"
  char stem[64];        // the module without "uq_" (+ "_<tag>"), e.g. "decode"
  char key[96];         // "decode_d256_rows8": stem + "_<name><value>"...
  char bindings[96];    // uq-specialize options, e.g. "lanes=32,d=256"
  char suffix[64];      // appended to kernel names, e.g. "_sm90_d256"
  char target[16];      // the chip of the target compiled: "gfx950" or "sm_90a"
  int32_t target_index; // which of the gpu.module's targets (0: the first)
  int32_t target_count; // how many it names (0: none, which means gfx950)
  uint32_t head_dim;    // the `d` entry, 0 when absent
  uint32_t qg_max;      // the `qg_max` entry (a decode of `rows`: min(rows,
                        // 16)), 0 when absent
  uint32_t rows;        // the `rows` entry: a decode's query rows per
                        // workgroup (one of `qg_max`: qg_max), 0 when absent
  uint32_t min_rows;    // the `min_rows` entry: the fewest rows (longest
                        // query x QG) of a run the plan gives it, 0: any
  bool held;            // the entry's `held = 1`: written and compiled but
                        // not yet checked on its hardware, so built only on
                        // request (uq-compile --held: a candidate library,
                        // never the default one)
  // The module's uq.kernel_attrs entry (a dictionary the variant's kernels
  // get: its register budget), or a null attribute. Owned by the module's
  // context.
  MlirAttribute kernel_attrs;
} uq_variant_t;

// True for a variant of an NVIDIA (#nvvm.target) gpu.module.
bool uq_variant_is_nvidia(const uq_variant_t *variant);

typedef struct uq_compile_options_s {
  const char *chip;        // "gfx950" (the AMD chipset of the rocdl passes)
  const char *toolkit_dir; // a directory whose llvm/bin/ld.lld is lld
  bool emit_isa;           // assembly text (ISA / PTX) instead of a binary
  const char *cuda_dir;    // CUDA toolkit (bin/ptxas) for NVIDIA variants
} uq_compile_options_t;

// Lists the variants of every gpu.module in `module` (a module without
// `uq.variants` is one variant with no parameters). The caller frees
// *out_variants. Returns false (with a diagnostic) on a malformed
// `uq.variants`.
bool uq_variants_list(MlirModule module, uq_variant_t **out_variants,
                      size_t *out_count);

// The textual pipeline for one variant (mixes uq and upstream passes).
// Writes at most `size` bytes to `out`.
void uq_pipeline_text(const uq_variant_t *variant,
                      const uq_compile_options_t *options, char *out,
                      size_t size);

// Compiles one variant of `module` (left unchanged: a clone is lowered) to a
// code object (or ISA text). On success *out_data (malloc'd, caller frees)
// holds the bytes. On failure returns false; diagnostics went to the
// context's handler and `error` holds a one-line summary.
bool uq_compile_variant(MlirModule module, const uq_variant_t *variant,
                        const uq_compile_options_t *options, uint8_t **out_data,
                        size_t *out_size, char *error, size_t error_size);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // UQ_LOWERING_PIPELINE_H_
