// The HIP runtime search without a GPU: which libraries libuqrt tries and in
// what order (ROCm 5-7 sonames and /opt/rocm/lib), and that the loader takes
// the first candidate that loads. Compiled with runtime/hip/hip_symbols.c.
#define _GNU_SOURCE // dladdr
#include <dlfcn.h>
#include <string.h>

#include "runtime/hip/hip_symbols.h"
#include "uq_test.h"

static int index_of(const char *name) {
  for (int i = 0; i < UQ_HIP_DEFAULT_LIBRARY_COUNT; ++i)
    if (strcmp(uq_hip_default_libraries[i], name) == 0)
      return i;
  return -1;
}

// Every ROCm 5-7 soname is tried, newest first, both on the loader's path
// and under /opt/rocm/lib; the loader's path comes first.
static int test_default_order(void) {
  static const char *const sonames[] = {"libamdhip64.so", "libamdhip64.so.7",
                                        "libamdhip64.so.6", "libamdhip64.so.5"};
  int previous = -1;
  for (size_t i = 0; i < sizeof(sonames) / sizeof(sonames[0]); ++i) {
    int bare = index_of(sonames[i]);
    char rocm[64];
    snprintf(rocm, sizeof(rocm), "/opt/rocm/lib/%s", sonames[i]);
    int under_rocm = index_of(rocm);
    printf("  %-18s #%d, %-31s #%d\n", sonames[i], bare, rocm, under_rocm);
    UQ_EXPECT(bare > previous);
    UQ_EXPECT(under_rocm >= (int)(sizeof(sonames) / sizeof(sonames[0])));
    previous = bare;
  }
  return 0;
}

// With no library named, the first default that dlopen can open is the one
// loaded (on the test machines: Debian's libamdhip64, without a GPU).
static int test_first_loadable_is_used(void) {
  int first = -1;
  for (int i = 0; i < UQ_HIP_DEFAULT_LIBRARY_COUNT && first < 0; ++i) {
    void *handle = dlopen(uq_hip_default_libraries[i], RTLD_NOW | RTLD_LOCAL);
    if (handle) {
      first = i;
      dlclose(handle);
    }
  }
  uq_hip_symbols_t symbols;
  uq_status_t status = uq_hip_symbols_initialize(NULL, &symbols);
  if (first < 0) {
    printf("  no HIP runtime here: %s\n", uq_status_message(status));
    int code = uq_status_consume_code(status);
    UQ_EXPECT_EQ_INT(code, UQ_STATUS_UNAVAILABLE);
    return UQ_TEST_SKIP;
  }
  UQ_EXPECT_OK(status);
  Dl_info expected, loaded;
  void *handle = dlopen(uq_hip_default_libraries[first], RTLD_NOW | RTLD_LOCAL);
  void *symbol = dlsym(handle, "hipGetDeviceCount");
  UQ_EXPECT(dladdr(symbol, &expected) != 0);
  void *ours;
  memcpy(&ours, &symbols.hipGetDeviceCount, sizeof(ours));
  UQ_EXPECT(dladdr(ours, &loaded) != 0);
  printf("  loaded %s (%s)\n", uq_hip_default_libraries[first],
         loaded.dli_fname);
  UQ_EXPECT_STREQ(loaded.dli_fname, expected.dli_fname);
  dlclose(handle);
  uq_hip_symbols_deinitialize(&symbols);
  return 0;
}

static const uq_test_case_t tests[] = {
    {"default_order", test_default_order},
    {"first_loadable_is_used", test_first_loadable_is_used},
    {0, 0}};

int main(int argc, char **argv) { return uq_test_main(argc, argv, tests); }
