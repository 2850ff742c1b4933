// uq-run --steps: the serving loop. Each step stores one new token per
// sequence through uq_plan_store, then decodes and reduces, and checks both
// against the host oracles.
#ifndef UQ_TOOLS_UQ_RUN_STEPS_H_
#define UQ_TOOLS_UQ_RUN_STEPS_H_

#include <stdint.h>

#include "tools/uq-run/problem.h"
#include "uq/uqrt.h"

#ifdef __cplusplus
extern "C" {
#endif

// Runs `steps` steps on `plan` over the problem already uploaded to
// `device` (its shape must reserve `steps` tokens per sequence). Per step:
// random bf16 K/V for every sequence's next position; the store kernel
// writes them into the device cache and the host encoder into the
// problem's cache (the oracle); the whole device cache must equal it byte
// for byte; then decode + reduce is compared with the kernel-faithful
// reference under `rule` over `walk`. Prints one line per step (and the
// sim counters of all three kernels where the backend counts). Sets
// *out_failed when a step's cache or output is wrong; a status for errors.
uq_status_t uq_run_steps(uq_context_t *context, uq_plan_t *plan,
                         uq_problem_t *problem,
                         const uq_problem_device_t *device, uint32_t steps,
                         uq_fp8_overflow_t rule, const uq_launch_walk_t *walk,
                         int *out_failed);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // UQ_TOOLS_UQ_RUN_STEPS_H_
