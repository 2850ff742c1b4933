// Build-time helper for the codeobj tests: copies the first
// `bin = "..."` string of a gpu.binary (as mlir-opt prints it after
// gpu-module-to-binary{format=bin}) to a file, undoing MLIR's escapes
// (\XX hex pairs, plus \\ \" \n \t).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int hex(int c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: extract_binary IN.mlir OUT.hsaco\n");
    return 2;
  }
  FILE *in = fopen(argv[1], "rb");
  if (!in) {
    fprintf(stderr, "extract_binary: error: cannot open '%s'\n", argv[1]);
    return 1;
  }
  size_t cap = 1 << 16, len = 0;
  char *text = malloc(cap);
  size_t got;
  while (text && (got = fread(text + len, 1, cap - len, in)) > 0) {
    len += got;
    if (len == cap) {
      char *grown = realloc(text, cap *= 2);
      if (!grown) {
        free(text);
        text = NULL;
      }
      text = grown;
    }
  }
  fclose(in);
  if (!text) {
    fprintf(stderr, "extract_binary: error: out of memory\n");
    return 1;
  }
  const char *key = "bin = \"";
  char *start = NULL;
  for (size_t i = 0; i + strlen(key) <= len; ++i)
    if (memcmp(text + i, key, strlen(key)) == 0) {
      start = text + i + strlen(key);
      break;
    }
  if (!start) {
    fprintf(stderr, "extract_binary: error: no bin = \"...\" in '%s'\n",
            argv[1]);
    free(text);
    return 1;
  }
  FILE *out = fopen(argv[2], "wb");
  if (!out) {
    fprintf(stderr, "extract_binary: error: cannot write '%s'\n", argv[2]);
    free(text);
    return 1;
  }
  const char *end = text + len;
  int ok = 0;
  for (const char *p = start; p < end; ++p) {
    int c = (unsigned char)*p;
    if (c == '"') {
      ok = 1;
      break;
    }
    if (c == '\\' && p + 1 < end) {
      int h = p + 2 < end ? hex(p[1]) : -1, l = p + 2 < end ? hex(p[2]) : -1;
      if (h >= 0 && l >= 0) {
        c = h * 16 + l;
        p += 2;
      } else {
        ++p;
        c = *p == 'n' ? '\n' : *p == 't' ? '\t' : (unsigned char)*p;
      }
    }
    fputc(c, out);
  }
  int bad = fclose(out) != 0 || !ok;
  free(text);
  if (bad) {
    fprintf(stderr, "extract_binary: error: unterminated string in '%s'\n",
            argv[1]);
    remove(argv[2]);
    return 1;
  }
  return 0;
}
