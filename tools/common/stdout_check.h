// A tool's standard output is checked when it exits: output that never
// reached its file (`uq-compile --list > /dev/full`, a closed pipe's
// buffered tail) makes the tool fail instead of exiting 0.
#ifndef UQ_TOOLS_COMMON_STDOUT_CHECK_H_
#define UQ_TOOLS_COMMON_STDOUT_CHECK_H_

#ifdef __cplusplus
extern "C" {
#endif

// Registers (atexit) a check that flushes and closes stdout when the tool
// exits; on any write error so far or now it prints "TOOL: error: cannot
// write to stdout: REASON" to stderr and exits with status 1. Call first
// thing in main. `tool` must be static storage.
void uq_tool_check_stdout_at_exit(const char *tool);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // UQ_TOOLS_COMMON_STDOUT_CHECK_H_
