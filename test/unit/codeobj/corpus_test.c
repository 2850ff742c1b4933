// The fuzz corpus as a regression suite: every file of
// test/unit/codeobj/corpus/ (the fuzzers' seeds and the inputs that once
// crashed the reader) is loaded; each must parse or fail with a status
// that carries a code and a message, never crash (ASan/UBSan watch), and
// each crash input named in the table must fail with its exact code and a
// fragment of the message that names the problem.
//
// The crash_cubin_* inputs are the cubin reader's probe (cubin_probe.ptx,
// ptxas 13.0) edited as issue 29 found them: .nv.info.uq_probe made
// SHT_NOBITS with its offset past the file, or with a size whose parameter
// table would take 13 GB; seven more sections renamed .nv.info.uq_probe,
// each spanning the whole file.
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codeobj/codeobj.h"
#include "uq_test.h"

static const char *g_dir;

typedef struct corpus_row_s {
  const char *file;
  uq_status_code_t code;
  const char *fragment;
} corpus_row_t;

static const corpus_row_t rows[] = {
    {"crash_cubin_nobits_info_offset", UQ_STATUS_DATA_LOSS,
     "section 10 (0 bytes at 140737488289792) lies outside the 5984-byte "
     "file"},
    {"crash_cubin_nobits_info_size", UQ_STATUS_DATA_LOSS,
     ".nv.info.uq_probe has no bytes in the file (SHT_NOBITS)"},
    {"crash_cubin_overlapping_info", UQ_STATUS_DATA_LOSS,
     "the .nv.info sections overlap"},
};

static const corpus_row_t *row_for(const char *file) {
  for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); ++i)
    if (strcmp(rows[i].file, file) == 0)
      return &rows[i];
  return NULL;
}

static int test_corpus(void) {
  DIR *dir = opendir(g_dir);
  if (!dir)
    UQ_TEST_FAIL_("cannot open %s", g_dir);
  size_t files = 0, refused = 0, matched = 0;
  int failed = 0;
  struct dirent *entry;
  while ((entry = readdir(dir))) {
    if (entry->d_name[0] == '.')
      continue;
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", g_dir, entry->d_name);
    uq_code_object_t *co = NULL;
    uq_status_t status = uq_code_object_load_file(path, &co);
    uq_status_code_t code = uq_status_code(status);
    const char *message = status ? uq_status_message(status) : "";
    const corpus_row_t *row = row_for(entry->d_name);
    int ok = status ? code != UQ_STATUS_OK && message[0] : co != NULL;
    if (row)
      ok = code == row->code && strstr(message, row->fragment);
    if (row || !ok)
      printf("  %-4s %-34s %s: %s\n", ok ? "ok" : "FAIL", entry->d_name,
             uq_status_code_name(code), status ? message : "(parsed)");
    failed += !ok;
    matched += row != NULL;
    refused += status != UQ_OK;
    ++files;
    uq_status_free(status);
    uq_code_object_destroy(co);
  }
  closedir(dir);
  printf("  %zu files, %zu refused cleanly, the rest parsed\n", files, refused);
  UQ_EXPECT_EQ_INT(matched, sizeof(rows) / sizeof(rows[0]));
  UQ_EXPECT_EQ_INT(failed, 0);
  return 0;
}

static const uq_test_case_t tests[] = {{"corpus", test_corpus}, {0, 0}};

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s CORPUS_DIR [TEST...]\n", argv[0]);
    return 2;
  }
  g_dir = argv[1];
  return uq_test_main(argc - 1, argv + 1, tests);
}
