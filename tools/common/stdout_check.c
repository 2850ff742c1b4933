// The exit-time check of stdout (stdout_check.h). stdio buffers what a tool
// prints, so a full disk or /dev/full shows only at the flush: without the
// check the tool reports success for output nobody got.
#include "tools/common/stdout_check.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *g_tool = "uq";

static void check_stdout(void) {
  // A write that failed earlier set the error flag and dropped its bytes;
  // the flush below may then have nothing left to fail on, so the flag
  // counts on its own. Cleared first, so a failing flush sets errno anew.
  int failed = ferror(stdout);
  const char *reason = "an earlier write failed";
  clearerr(stdout);
  if (fflush(stdout) != 0 || fclose(stdout) != 0) {
    failed = 1;
    reason = strerror(errno);
  }
  if (!failed)
    return;
  fprintf(stderr, "%s: error: cannot write to stdout: %s\n", g_tool, reason);
  // The status must change even when main returned 0; exit() from an
  // atexit handler is undefined, _exit is not.
  _exit(1);
}

void uq_tool_check_stdout_at_exit(const char *tool) {
  g_tool = tool;
  atexit(check_stdout);
}
