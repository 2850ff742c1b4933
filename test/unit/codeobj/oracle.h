// The codeobj tests' independent oracle: what llvm-readelf (-h -l -S -s
// --notes) and llvm-objdump (the disassembled kernel descriptors) print for
// a code object, parsed from their text output.
#ifndef UQ_TEST_UNIT_CODEOBJ_ORACLE_H_
#define UQ_TEST_UNIT_CODEOBJ_ORACLE_H_

#include <stdint.h>

typedef struct oracle_kv_s {
  char key[64];
  char value[128];
} oracle_kv_t;

// Keys and values in the order printed.
typedef struct oracle_map_s {
  oracle_kv_t kv[40];
  int count;
} oracle_map_t;

typedef struct oracle_kernel_s {
  oracle_map_t fields; // scalar keys of one amdhsa.kernels entry
  oracle_map_t args[40];
  int arg_count;
  uint64_t reqd_workgroup_size[3];
  int reqd_count;
} oracle_kernel_t;

typedef struct oracle_descriptor_s {
  char symbol[160];
  oracle_map_t directives; // ".amdhsa_xxx" -> value, as llvm-objdump prints
} oracle_descriptor_t;

typedef struct oracle_symbol_s {
  char table[16]; // ".symtab" or ".dynsym"
  uint32_t index;
  uint64_t value, size;
  char type[16];
  char name[160];
} oracle_symbol_t;

typedef struct oracle_segment_s {
  char type[16];
  uint64_t offset, vaddr, filesz, memsz;
} oracle_segment_t;

typedef struct oracle_section_s {
  uint32_t index;
  char name[32];
  char type[16];
  uint64_t address, offset, size;
} oracle_section_t;

typedef struct oracle_s {
  unsigned abi_version;
  unsigned flags;
  char target[128];
  uint64_t version[2];
  int version_count;
  oracle_kernel_t kernels[32];
  int kernel_count;
  oracle_descriptor_t descriptors[32];
  int descriptor_count;
  oracle_symbol_t symbols[256];
  int symbol_count;
  oracle_segment_t segments[16];
  int segment_count;
  oracle_section_t sections[40];
  int section_count;
} oracle_t;

// Parses the two text files; returns NULL (after printing why) on failure.
// The caller frees the result with free().
oracle_t *oracle_read(const char *readelf_path, const char *kd_path);

// The value of `key`, or NULL.
const char *oracle_get(const oracle_map_t *map, const char *key);
// The value of `key` as an unsigned number; `fallback` when absent.
uint64_t oracle_u64(const oracle_map_t *map, const char *key,
                    uint64_t fallback);

const oracle_symbol_t *oracle_symbol(const oracle_t *oracle, const char *table,
                                     const char *name);
const oracle_section_t *oracle_section(const oracle_t *oracle,
                                       const char *name);
const oracle_descriptor_t *oracle_descriptor(const oracle_t *oracle,
                                             const char *symbol);

#endif // UQ_TEST_UNIT_CODEOBJ_ORACLE_H_
