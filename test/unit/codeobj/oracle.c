// Parser for the llvm-readelf / llvm-objdump text the codeobj tests compare
// against. It knows only the layout those tools print (LLVM 22), which is
// the point: it shares no code with the reader under test.
#include "oracle.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Copies `src` into `dst` of `capacity` bytes, cutting it if it is longer.
static void copy_str(char *dst, size_t capacity, const char *src) {
  size_t i = 0;
  for (; src[i] && i + 1 < capacity; ++i)
    dst[i] = src[i];
  dst[i] = '\0';
}

static void map_put(oracle_map_t *map, const char *key, const char *value) {
  if (map->count >= (int)(sizeof(map->kv) / sizeof(map->kv[0])))
    return;
  oracle_kv_t *kv = &map->kv[map->count++];
  copy_str(kv->key, sizeof(kv->key), key);
  copy_str(kv->value, sizeof(kv->value), value);
}

const char *oracle_get(const oracle_map_t *map, const char *key) {
  for (int i = 0; i < map->count; ++i)
    if (strcmp(map->kv[i].key, key) == 0)
      return map->kv[i].value;
  return NULL;
}

uint64_t oracle_u64(const oracle_map_t *map, const char *key,
                    uint64_t fallback) {
  const char *v = oracle_get(map, key);
  return v ? strtoull(v, NULL, 0) : fallback;
}

static void chomp(char *s) {
  size_t n = strlen(s);
  while (n && isspace((unsigned char)s[n - 1]))
    s[--n] = '\0';
}

// Splits "key: value" (value may be empty); strips YAML quotes.
static int split_key(char *content, char **out_key, char **out_value) {
  char *colon = strstr(content, ":");
  if (!colon)
    return 0;
  *colon = '\0';
  char *v = colon + 1;
  while (*v == ' ')
    ++v;
  size_t n = strlen(v);
  if (n >= 2 && (v[0] == '\'' || v[0] == '"') && v[n - 1] == v[0]) {
    v[n - 1] = '\0';
    ++v;
  }
  *out_key = content;
  *out_value = v;
  return 1;
}

static void parse_flow_list(const char *v, uint64_t *out, int *count) {
  // "[ 64, 2, 1 ]"
  const char *p = v + 1;
  while (*p && *p != ']' && *count < 3) {
    while (*p == ' ' || *p == ',')
      ++p;
    if (*p == ']' || !*p)
      break;
    char *end;
    out[(*count)++] = strtoull(p, &end, 0);
    p = end;
  }
}

// The YAML block llvm-readelf prints for the metadata note.
static void parse_yaml_line(oracle_t *o, char *line, char *list_key,
                            int *in_kernels, int *in_version) {
  int indent = 0;
  while (line[indent] == ' ')
    ++indent;
  char *content = line + indent;
  int dash = 0;
  if (content[0] == '-' && content[1] == ' ') {
    dash = 1;
    content += 2;
    while (*content == ' ')
      ++content;
    indent += 2;
  }
  if (!*content || strcmp(content, "---") == 0)
    return;
  char *key, *value;
  if (indent == 0) {
    *in_kernels = *in_version = 0;
    if (!split_key(content, &key, &value))
      return;
    if (strcmp(key, "amdhsa.kernels") == 0)
      *in_kernels = 1;
    else if (strcmp(key, "amdhsa.version") == 0) {
      *in_version = 1;
      if (value[0] == '[')
        parse_flow_list(value, o->version, &o->version_count);
    } else if (strcmp(key, "amdhsa.target") == 0)
      copy_str(o->target, sizeof(o->target), value);
    return;
  }
  if (*in_version) {
    if (dash && o->version_count < 2)
      o->version[o->version_count++] = strtoull(content, NULL, 0);
    return;
  }
  if (!*in_kernels)
    return;
  if (indent == 4) {
    if (dash) {
      if (o->kernel_count >= 32)
        return;
      ++o->kernel_count;
    }
    if (o->kernel_count == 0 || !split_key(content, &key, &value))
      return;
    oracle_kernel_t *k = &o->kernels[o->kernel_count - 1];
    if (!*value) {
      copy_str(list_key, 64, key);
      return;
    }
    list_key[0] = '\0';
    if (strcmp(key, ".reqd_workgroup_size") == 0 && value[0] == '[')
      parse_flow_list(value, k->reqd_workgroup_size, &k->reqd_count);
    else
      map_put(&k->fields, key, value);
    return;
  }
  if (o->kernel_count == 0)
    return;
  oracle_kernel_t *k = &o->kernels[o->kernel_count - 1];
  if (strcmp(list_key, ".reqd_workgroup_size") == 0 && dash) {
    if (k->reqd_count < 3)
      k->reqd_workgroup_size[k->reqd_count++] = strtoull(content, NULL, 0);
    return;
  }
  if (strcmp(list_key, ".args") == 0 && indent == 8) {
    if (dash && k->arg_count < 40)
      ++k->arg_count;
    if (k->arg_count && split_key(content, &key, &value))
      map_put(&k->args[k->arg_count - 1], key, value);
  }
}

oracle_t *oracle_read(const char *readelf_path, const char *kd_path) {
  FILE *f = fopen(readelf_path, "r");
  if (!f) {
    fprintf(stderr, "oracle: cannot open %s\n", readelf_path);
    return NULL;
  }
  oracle_t *o = calloc(1, sizeof(*o));
  if (!o) {
    fclose(f);
    return NULL;
  }
  char line[1024], table[16] = "", list_key[64] = "";
  int in_yaml = 0, in_kernels = 0, in_version = 0;
  while (fgets(line, sizeof(line), f)) {
    chomp(line);
    if (in_yaml) {
      if (strcmp(line, "...") == 0)
        in_yaml = 0;
      else
        parse_yaml_line(o, line, list_key, &in_kernels, &in_version);
      continue;
    }
    unsigned u;
    char a[160], b[160], c[32], d[32], e[32], g[160];
    unsigned long long x1, x2, x3, x4, x5;
    if (sscanf(line, " ABI Version: %u", &u) == 1) {
      o->abi_version = u;
    } else if (sscanf(line, " Flags: %x", &u) == 1) {
      o->flags = u;
    } else if (strstr(line, "AMDGPU Metadata:")) {
      in_yaml = 1;
    } else if (sscanf(line, "Symbol table '%15[^']'", table) == 1) {
      // following lines belong to this table
    } else if (sscanf(line, " %u: %llx %llu %31s %31s %31s %31s %159s", &u, &x1,
                      &x2, c, d, e, a, g) == 8 &&
               o->symbol_count < 256) {
      oracle_symbol_t *s = &o->symbols[o->symbol_count++];
      copy_str(s->table, sizeof(s->table), table);
      s->index = u;
      s->value = x1;
      s->size = x2;
      copy_str(s->type, sizeof(s->type), c);
      copy_str(s->name, sizeof(s->name), g);
    } else if (sscanf(line, " %15s 0x%llx 0x%llx 0x%*x 0x%llx 0x%llx", a, &x1,
                      &x2, &x3, &x4) == 5 &&
               o->segment_count < 16) {
      oracle_segment_t *s = &o->segments[o->segment_count++];
      copy_str(s->type, sizeof(s->type), a);
      s->offset = x1;
      s->vaddr = x2;
      s->filesz = x3;
      s->memsz = x4;
    } else if (sscanf(line, " [%u] %31s %15s %llx %llx %llx", &u, a, b, &x1,
                      &x2, &x3) == 6 &&
               o->section_count < 40) {
      oracle_section_t *s = &o->sections[o->section_count++];
      s->index = u;
      copy_str(s->name, sizeof(s->name), a);
      copy_str(s->type, sizeof(s->type), b);
      s->address = x1;
      s->offset = x2;
      s->size = x3;
    }
    (void)x5;
  }
  fclose(f);
  f = fopen(kd_path, "r");
  if (!f) {
    fprintf(stderr, "oracle: cannot open %s\n", kd_path);
    free(o);
    return NULL;
  }
  oracle_descriptor_t *kd = NULL;
  while (fgets(line, sizeof(line), f)) {
    chomp(line);
    char name[160], key[64], value[64];
    unsigned long long addr;
    if (sscanf(line, "%llx <%159[^>]>:", &addr, name) == 2) {
      kd = o->descriptor_count < 32 ? &o->descriptors[o->descriptor_count++]
                                    : NULL;
      if (kd)
        copy_str(kd->symbol, sizeof(kd->symbol), name);
    } else if (kd && sscanf(line, " %63s %63s", key, value) == 2 &&
               strncmp(key, ".amdhsa_", 8) == 0 &&
               strcmp(key, ".amdhsa_kernel") != 0) {
      map_put(&kd->directives, key, value);
    }
  }
  fclose(f);
  return o;
}

const oracle_symbol_t *oracle_symbol(const oracle_t *oracle, const char *table,
                                     const char *name) {
  for (int i = 0; i < oracle->symbol_count; ++i)
    if (strcmp(oracle->symbols[i].table, table) == 0 &&
        strcmp(oracle->symbols[i].name, name) == 0)
      return &oracle->symbols[i];
  return NULL;
}

const oracle_section_t *oracle_section(const oracle_t *oracle,
                                       const char *name) {
  for (int i = 0; i < oracle->section_count; ++i)
    if (strcmp(oracle->sections[i].name, name) == 0)
      return &oracle->sections[i];
  return NULL;
}

const oracle_descriptor_t *oracle_descriptor(const oracle_t *oracle,
                                             const char *symbol) {
  for (int i = 0; i < oracle->descriptor_count; ++i)
    if (strcmp(oracle->descriptors[i].symbol, symbol) == 0)
      return &oracle->descriptors[i];
  return NULL;
}
