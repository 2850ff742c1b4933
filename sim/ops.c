// The instruction table: ops.def expanded into uq_sim_op_info, and the
// mnemonic lookup the decoder uses.
#include <string.h>

#include "sim/internal.h"

// ops.def spells the type and flags columns without their prefixes.
#define U UQ_OPT_U
#define I UQ_OPT_I
#define F UQ_OPT_F
#define E32 UQ_OPF_E32
#define E64 UQ_OPF_E64
#define DPP UQ_OPF_DPP
#define SDWA UQ_OPF_SDWA
#define NODST UQ_OPF_NODST
#define DST2 UQ_OPF_DST2
#define VOP3B UQ_OPF_VOP3B
#define SIMM16 UQ_OPF_SIMM16
#define S0_64 UQ_OPF_S0_64
#define S1_64 UQ_OPF_S1_64
#define S2_64 UQ_OPF_S2_64
#define PACKED UQ_OPF_PACKED
#define D16 UQ_OPF_D16
#define OMOD UQ_OPF_OMOD
#define CMP UQ_OPF_CMP
#define DS2 UQ_OPF_DS2
#define ST64 UQ_OPF_ST64
#define SCC UQ_OPF_SCC
#define EXEC UQ_OPF_EXEC
#define PC UQ_OPF_PC
#define LOAD UQ_OPF_LOAD
#define STORE UQ_OPF_STORE
#define BUFFER UQ_OPF_BUFFER
#define GLOBAL UQ_OPF_GLOBAL
#define FLAT UQ_OPF_FLAT
#define HI16 UQ_OPF_HI16

const uq_sim_op_info_t uq_sim_op_info[UQ_OP_COUNT] = {
    [UQ_OP_UNKNOWN] = {"<unknown>", UQ_SIM_CLASS_OTHER, 32, U, 0, 0},
#define X(e, n, c, w, t, s, f) [UQ_OP_##e] = {n, UQ_SIM_CLASS_##c, w, t, s, f},
#include "sim/ops.def"
#undef X
};

uq_sim_op_t uq_sim_op_lookup(const char *name) {
  for (int i = 1; i < UQ_OP_COUNT; ++i)
    if (strcmp(uq_sim_op_info[i].name, name) == 0)
      return (uq_sim_op_t)i;
  return UQ_OP_UNKNOWN;
}
