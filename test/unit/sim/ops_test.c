// The instruction table (sim/ops.def) against the executor and the tests:
// every row is self-consistent, reaches a handler that models it, and is
// run by a test kernel (kernels/*.s, found by decoding the assembled code
// object, so loops written with .irp count, or a clang-compiled kernel of
// test/foreign) or is on the list below of ops still waiting for one.
#include <stdlib.h>

#include "codeobj/codeobj.h"
#include "sim/internal.h"
#include "uq_test.h"

// Ops no test kernel runs yet. The list only shrinks: a test that adds one
// of these must remove it here (the test fails on a stale entry).
static const char *const kUntested[] = {
#include "ops_untested.inc"
};

static int test_rows(void) {
  for (int op = 1; op < UQ_OP_COUNT; ++op) {
    const uq_sim_op_info_t *r = &uq_sim_op_info[op];
    const char *n = r->name;
    if (!n || !n[0])
      UQ_TEST_FAIL_("row %d has no mnemonic", op);
    if (uq_sim_op_lookup(n) != (uq_sim_op_t)op)
      UQ_TEST_FAIL_("%s: the lookup finds another row (a duplicate?)", n);
    if (r->cls >= UQ_SIM_CLASS_COUNT || r->type > UQ_OPT_F)
      UQ_TEST_FAIL_("%s: class %d type %d", n, r->cls, r->type);
    uint32_t f = r->flags;
    int is_mem = r->cls == UQ_SIM_CLASS_SMEM || r->cls == UQ_SIM_CLASS_VMEM ||
                 r->cls == UQ_SIM_CLASS_LDS;
    if (!is_mem && (f & (UQ_OPF_LOAD | UQ_OPF_STORE | UQ_OPF_BUFFER |
                         UQ_OPF_GLOBAL | UQ_OPF_FLAT | UQ_OPF_DS2)))
      UQ_TEST_FAIL_("%s: memory flags on a non-memory op", n);
    if (is_mem && !(f & (UQ_OPF_LOAD | UQ_OPF_STORE)) &&
        r->cls != UQ_SIM_CLASS_LDS)
      UQ_TEST_FAIL_("%s: a memory op that neither loads nor stores", n);
    if (r->cls == UQ_SIM_CLASS_VMEM) {
      int spaces =
          !!(f & UQ_OPF_BUFFER) + !!(f & UQ_OPF_GLOBAL) + !!(f & UQ_OPF_FLAT);
      int dirs = !!(f & UQ_OPF_LOAD) + !!(f & UQ_OPF_STORE);
      if (spaces != 1 || dirs != 1)
        UQ_TEST_FAIL_("%s: %d address spaces, %d directions", n, spaces, dirs);
      if (r->width % 8 || r->width == 0 || r->width > 128)
        UQ_TEST_FAIL_("%s: width %d", n, r->width);
    }
    if (r->cls == UQ_SIM_CLASS_LDS && (f & (UQ_OPF_LOAD | UQ_OPF_STORE)) &&
        (r->width % 8 || r->width == 0 || r->width > 128))
      UQ_TEST_FAIL_("%s: width %d", n, r->width);
    if ((r->cls == UQ_SIM_CLASS_SALU || r->cls == UQ_SIM_CLASS_VALU) &&
        r->width != 16 && r->width != 32 && r->width != 64)
      UQ_TEST_FAIL_("%s: ALU width %d", n, r->width);
    if ((f & (UQ_OPF_CMP | UQ_OPF_PACKED | UQ_OPF_OMOD | UQ_OPF_VOP3B |
              UQ_OPF_E32 | UQ_OPF_DPP | UQ_OPF_SDWA)) &&
        r->cls != UQ_SIM_CLASS_VALU)
      UQ_TEST_FAIL_("%s: VALU flags outside VALU", n);
    if (f & UQ_OPF_CMP) {
      int is_class = strstr(n, "_class_") != NULL;
      int conds = r->type == UQ_OPT_F && !is_class ? 16 : 8;
      if (r->sub >= conds || (f & UQ_OPF_DPP))
        UQ_TEST_FAIL_("%s: condition %d, or a form the VOPC handler lacks", n,
                      r->sub);
      if (!!(f & UQ_OPF_EXEC) != (strncmp(n, "v_cmpx", 6) == 0))
        UQ_TEST_FAIL_("%s: EXEC flag disagrees with the mnemonic", n);
    }
    if ((f & UQ_OPF_HI16) && !(is_mem && (f & (UQ_OPF_D16 | UQ_OPF_STORE))))
      UQ_TEST_FAIL_("%s: HI16 on an op that moves no 16-bit half", n);
    if (r->cls == UQ_SIM_CLASS_VALU && !(f & UQ_OPF_PACKED) &&
        !(f & (UQ_OPF_E32 | UQ_OPF_E64)))
      UQ_TEST_FAIL_("%s: a VALU row that accepts no encoding", n);
  }
  return 0;
}

// A plausible instruction for row `op`: register operands wide enough for
// any form (64-bit pairs, 8-register MFMA sources), fields that select what
// the handlers model (hwreg MODE).
static void probe_inst(int op, uq_sim_inst_t *in) {
  const uq_sim_op_info_t *r = &uq_sim_op_info[op];
  memset(in, 0, sizeof(*in));
  in->op = (uint16_t)op;
  in->cls = r->cls;
  in->width = r->width;
  in->type = r->type;
  in->sub = r->sub;
  in->flags = r->flags;
  in->size = 8;
  in->pc = 0x100;
  in->text = r->name;
  in->width64 = r->width == 64;
  in->nd = (r->flags & UQ_OPF_NODST)                   ? 0
           : (r->flags & (UQ_OPF_DST2 | UQ_OPF_VOP3B)) ? 2
                                                       : 1;
  int vector = r->cls != UQ_SIM_CLASS_SALU && r->cls != UQ_SIM_CLASS_SMEM &&
               r->cls != UQ_SIM_CLASS_BRANCH;
  in->nopnd = 6;
  for (int i = 0; i < 6; ++i) {
    uq_sim_opnd_t *o = &in->o[i];
    o->kind = vector ? UQ_OPND_VGPR : UQ_OPND_SGPR;
    o->reg = (uint16_t)(16 * i);
    o->count = r->cls == UQ_SIM_CLASS_MFMA ? 8 : (vector ? 4 : 2);
  }
  if (r->cls == UQ_SIM_CLASS_VALU && (r->flags & (UQ_OPF_CMP | UQ_OPF_VOP3B)))
    in->o[r->flags & UQ_OPF_CMP ? 0 : 1].kind = UQ_OPND_SGPR;
  if (r->cls == UQ_SIM_CLASS_SMEM || r->cls == UQ_SIM_CLASS_VMEM)
    in->o[2].kind = UQ_OPND_SGPR, in->o[3].kind = UQ_OPND_SGPR;
  if (op == UQ_OP_S_GETREG_B32 || op == UQ_OP_S_SETREG_B32 ||
      op == UQ_OP_S_SETREG_IMM32_B32)
    in->simm = 1 | 31 << 11; // hwreg(HW_REG_MODE, 0, 32)
}

static int test_handlers(void) {
  for (int op = 1; op < UQ_OP_COUNT; ++op) {
    uq_sim_inst_t in;
    probe_inst(op, &in);
    uq_status_t st = uq_sim_exec_probe(&in);
    if (uq_status_code(st) == UQ_STATUS_UNIMPLEMENTED) {
      fprintf(stderr, "%s\n", uq_status_message(st));
      uq_status_free(st);
      UQ_TEST_FAIL_("row %s has no handler that models it",
                    uq_sim_op_info[op].name);
    }
    uq_status_free(st);
  }
  return 0;
}

// Marks every op that the test kernels' code object contains.
static uq_status_t collect_tested(const char *path, uint8_t *seen) {
  uq_code_object_t *co = NULL;
  UQ_RETURN_IF_ERROR(uq_code_object_load_file(path, &co), "loading %s", path);
  size_t size = 0;
  const uint8_t *image = uq_code_object_image(co, &size);
  uq_sim_decoder_t *d = NULL;
  uq_status_t st = uq_sim_decoder_create(image, size, &d);
  size_t n = uq_code_object_kernel_count(co);
  for (size_t k = 0; !st && k < n; ++k) {
    // From the entry to the end of the kernel: the decoder stops at the
    // first word it cannot decode (padding, the next descriptor).
    uint64_t pc = uq_code_object_kernel_at(co, k)->entry_vaddr;
    for (;;) {
      const uq_sim_inst_t *in = NULL;
      uq_status_t ds = uq_sim_decoder_get(d, pc, &in);
      if (ds) {
        uq_status_free(ds);
        break;
      }
      seen[in->op] = 1;
      if (in->op == UQ_OP_S_ENDPGM && k + 1 == n)
        break;
      pc += in->size;
    }
  }
  uq_sim_decoder_destroy(d);
  uq_code_object_destroy(co);
  return st;
}

static int test_coverage(void) {
  uint8_t seen[UQ_OP_COUNT] = {0};
  // The assembly test kernels, and the kernels clang wrote
  // (test/foreign/foreign_test.c checks those against host computations).
  static const char *const foreign[] = {"softmax", "dequant_fp4", "mfma_scale",
                                        "short_math"};
  uq_status_t st = collect_tested(UQ_SIM_TEST_HSACO, seen);
  for (size_t i = 0; !st && i < sizeof(foreign) / sizeof(foreign[0]); ++i) {
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s.hsaco", UQ_FOREIGN_DIR, foreign[i]);
    st = collect_tested(path, seen);
  }
  if (st) {
    fprintf(stderr, "%s\n", uq_status_message(st));
    uq_status_free(st);
    return 1;
  }
  uint8_t waived[UQ_OP_COUNT] = {0};
  int failures = 0, untested = 0;
  for (size_t i = 0; i < sizeof(kUntested) / sizeof(kUntested[0]); ++i) {
    uq_sim_op_t op = uq_sim_op_lookup(kUntested[i]);
    if (op == UQ_OP_UNKNOWN) {
      fprintf(stderr, "untested list: '%s' is not in ops.def\n", kUntested[i]);
      ++failures;
    } else if (seen[op]) {
      fprintf(stderr, "untested list: '%s' is tested now; remove it\n",
              kUntested[i]);
      ++failures;
    }
    waived[op] = 1;
  }
  for (int op = 1; op < UQ_OP_COUNT; ++op) {
    if (!seen[op] && !waived[op]) {
      fprintf(stderr, "%s: no test kernel runs it\n", uq_sim_op_info[op].name);
      ++failures;
    }
    untested += !seen[op];
  }
  printf("ops: %d rows, %d run by the test kernels, %d waiting for a test\n",
         UQ_OP_COUNT - 1, UQ_OP_COUNT - 1 - untested, untested);
  return failures ? 1 : 0;
}

static const uq_test_case_t tests[] = {
    {"rows", test_rows},
    {"handlers", test_handlers},
    {"coverage", test_coverage},
    {NULL, NULL},
};

int main(int argc, char **argv) { return uq_test_main(argc, argv, tests); }
