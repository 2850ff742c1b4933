// The decoder on instruction words built to reach LLVM's disassembler where
// it has crashed (reserved SDWA selectors, f8f6f4 MFMAs with scalar or
// literal sources, v_mfma_ld_scale_b32 with them, v_madak_f16 with the
// literal 0xFF), far faster than sim_mutation_test's load-and-launch: each
// word must decode or fail with a status. Words are real instructions of the
// given code objects with one or two bytes changed, random words of every
// encoding family (with the special source values 0xF9..0xFF and small
// literals LLVM treats apart) and random scaled MFMA pairs. A batch of windows
// runs in a child process, so a crash inside LLVM, which no sanitizer can turn
// into a status, still names its word: the batch is replayed a window a
// child and the crashing window printed.
//
//   sim_decoder_fuzz_test [--seconds S] OBJECT.hsaco...
//
// Seeded by uq_test_seed (printed); S seconds in all (default 5).
#define _POSIX_C_SOURCE 200809L // clock_gettime, fork
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "codeobj/codeobj.h"
#include "first_entry.h"
#include "sim/internal.h"
#include "tools/common/file_util.h"
#include "uq_test.h"

enum { WINDOW = 16, BATCH = 4096 };

// Encoding families: the fixed high bits and their count (gfx9's VOP2,
// VOPC, VOP1, SOP2, SOPK, SOP1, SOPC, SOPP, SMEM, VOP3/VOP3P, DS, FLAT,
// MUBUF, MTBUF, MIMG, EXP, VINTRP).
static const uint32_t kFamilies[][2] = {
    {0x0u, 1},        {0x7Cu << 25, 7},  {0x7Eu << 25, 7},  {0x2u << 30, 2},
    {0xBu << 28, 4},  {0x17Du << 23, 9}, {0x17Eu << 23, 9}, {0x17Fu << 23, 9},
    {0x30u << 26, 6}, {0x34u << 26, 6},  {0x36u << 26, 6},  {0x37u << 26, 6},
    {0x38u << 26, 6}, {0x3Au << 26, 6},  {0x3Cu << 26, 6},  {0x31u << 26, 6},
    {0x35u << 26, 6},
};

typedef struct corpus_s {
  const uint8_t *code; // the objects' code, concatenated
  size_t size;
} corpus_t;

static uint64_t next(uint64_t *s) {
  *s = *s * 6364136223846793005ull + 1442695040888963407ull;
  return *s >> 33;
}

// Window `index` of the run seeded `seed`: the same bytes on every call, so
// a crashing batch replays window by window.
static void make_window(const corpus_t *c, uint64_t seed, uint64_t index,
                        uint8_t out[WINDOW]) {
  // splitmix64 of (seed, index): distinct streams for distinct pairs
  uint64_t s = seed * 0xBF58476D1CE4E5B9ull + index * 0x9E3779B97F4A7C15ull;
  s = (s ^ (s >> 30)) * 0xBF58476D1CE4E5B9ull;
  s = (s ^ (s >> 27)) * 0x94D049BB133111EBull;
  s ^= s >> 31;
  uint32_t w[WINDOW / 4];
  for (int i = 0; i < WINDOW / 4; ++i)
    w[i] = (uint32_t)next(&s);
  if (c->size >= 4 * WINDOW && next(&s) % 2) {
    // A real instruction with one or two of its first 8 bytes changed.
    size_t at = (next(&s) % (c->size / 4 - WINDOW / 4)) * 4;
    memcpy(out, c->code + at, WINDOW);
    for (int n = 1 + (int)(next(&s) % 2); n > 0; --n) {
      int b = (int)(next(&s) % 8);
      out[b] = next(&s) % 2 ? out[b] ^ (uint8_t)(1u << (next(&s) % 8))
                            : (uint8_t)next(&s);
    }
    return;
  }
  size_t nf = sizeof(kFamilies) / sizeof(kFamilies[0]);
  size_t family = next(&s) % (nf + 1);
  if (family == nf) {
    // v_mfma_ld_scale_b32 and a scaled f8f6f4 MFMA, every operand field
    // random: the pair holds most of the crashes found so far
    w[0] = 0xD3AC0000u | (w[0] & 0xFFFFu);
    w[2] = (0xD3ADu + (uint32_t)(next(&s) % 2)) << 16 | (w[2] & 0xFFFFu);
  } else {
    w[0] =
        (w[0] & (0xFFFFFFFFu >> kFamilies[family][1])) | kFamilies[family][0];
  }
  switch (next(&s) % 4) {
  case 0: // SDWA, DPP and the other special 9-bit sources
    w[0] = (w[0] & ~0x1FFu) | (uint32_t)(0xF9 + next(&s) % 7);
    break;
  case 1: // a small literal or second word
    w[1] = (uint32_t)(next(&s) % 0x200);
    break;
  }
  memcpy(out, w, WINDOW);
}

// Decodes windows [first, first + count) of one image in this process.
static void decode_windows(const corpus_t *c, uint64_t seed, uint64_t first,
                           uint64_t count) {
  uint8_t *image = malloc(count * WINDOW);
  if (!image)
    return;
  for (uint64_t i = 0; i < count; ++i)
    make_window(c, seed, first + i, image + i * WINDOW);
  uq_sim_decoder_t *d = NULL;
  uq_status_t st = uq_sim_decoder_create(image, count * WINDOW, &d);
  if (!st) {
    for (uint64_t i = 0; i < count; ++i) {
      const uq_sim_inst_t *in;
      uq_status_free(uq_sim_decoder_get(d, i * WINDOW, &in));
    }
    uq_sim_decoder_destroy(d);
  }
  uq_status_free(st);
  free(image);
}

// Runs decode_windows in a child: 1 when it ended normally.
static int survives(const corpus_t *c, uint64_t seed, uint64_t first,
                    uint64_t count) {
  fflush(stdout);
  pid_t pid = fork();
  if (pid < 0)
    return 1; // no child: the batch is skipped, not failed
  if (pid == 0) {
    decode_windows(c, seed, first, count);
    _exit(0);
  }
  int status = 0;
  if (waitpid(pid, &status, 0) != pid)
    return 1;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

// Appends the code of the object at `path` (its kernels' image from the
// first entry on) to the corpus.
static int add_object(const char *path, uint8_t **code, size_t *size) {
  char *text = NULL;
  size_t n = 0;
  uq_status_t st = uq_file_read(path, &text, &n);
  uq_code_object_t *co = NULL;
  if (!st)
    st = uq_code_object_load((const uint8_t *)text, n, &co);
  if (st) {
    fprintf(stderr, "%s: %s\n", path, uq_status_message(st));
    uq_status_free(st);
    free(text);
    return 1;
  }
  size_t image_size = 0;
  const uint8_t *image = uq_code_object_image(co, &image_size);
  uint64_t lo = uq_test_first_entry(co);
  lo = (lo < image_size ? lo : image_size) & ~(uint64_t)3;
  uint8_t *grown = realloc(*code, *size + (image_size - lo));
  if (grown) {
    memcpy(grown + *size, image + lo, image_size - lo);
    *code = grown;
    *size += image_size - lo;
  }
  uq_code_object_destroy(co);
  free(text);
  return grown ? 0 : 1;
}

int main(int argc, char **argv) {
  double seconds = 5;
  int first = 1;
  if (first + 1 < argc && strcmp(argv[first], "--seconds") == 0) {
    seconds = atof(argv[first + 1]);
    first += 2;
  }
  if (first == argc || argv[first][0] == '-') {
    fprintf(stderr, "usage: %s [--seconds S] OBJECT.hsaco...\n", argv[0]);
    return 2;
  }
  uint8_t *code = NULL;
  size_t size = 0;
  for (int i = first; i < argc; ++i)
    if (add_object(argv[i], &code, &size))
      return 1;
  corpus_t c = {code, size};
  uint64_t seed = uq_test_seed(); // printed: replayable
  double start = now_s();
  uint64_t batches = 0;
  for (; now_s() - start < seconds; ++batches) {
    if (survives(&c, seed, batches * BATCH, BATCH))
      continue;
    for (uint64_t i = batches * BATCH; i < (batches + 1) * BATCH; ++i) {
      if (survives(&c, seed, i, 1))
        continue;
      uint8_t w[WINDOW];
      make_window(&c, seed, i, w);
      printf("the decoder crashed on window %llu:", (unsigned long long)i);
      for (int b = 0; b < WINDOW; b += 4) {
        uint32_t word;
        memcpy(&word, w + b, 4);
        printf(" %08x", word);
      }
      printf("\n");
      free(code);
      return 1;
    }
    printf("batch %llu crashed as a whole, never a window alone\n",
           (unsigned long long)batches);
    free(code);
    return 1;
  }
  printf("%llu windows decoded in %.1f s (%zu bytes of code to mutate); no "
         "crash\n",
         (unsigned long long)(batches * BATCH), now_s() - start, size);
  free(code);
  return 0;
}
