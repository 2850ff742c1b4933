// The cubin reader (cubin.h says what it reads and where the format facts
// come from). Every offset and size read from the file is checked against
// the buffer before use, whatever the section's type (a NOBITS section has
// no bytes in the file, so nothing of it is read), and every allocation is
// bounded by the file size before it is made.
#include "codeobj/cubin.h"
#include "codeobj/le_bytes.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
  kElfHeaderSize = 64,
  kShdrSize = 64,
  kSymSize = 24,
  kShtSymtab = 2,
  kShtNobits = 8,
  kSttFunc = 2,
  kSttObject = 1,
  // .nv.info attribute formats and the attributes read.
  kFmtNval = 1,
  kFmtBval = 2,
  kFmtHval = 3,
  kFmtSval = 4,
  kAttrMaxThreads = 0x05,
  kAttrReqntid = 0x10,
  kAttrFrameSize = 0x11,
  kAttrKparamInfo = 0x17,
  kAttrCbankParamSize = 0x19,
  kAttrRegcount = 0x2f,
  // Bytes of one KPARAM_INFO attribute: a kernel's .nv.info section of n
  // bytes describes at most n / 16 parameters, which bounds the table.
  kKparamBytes = 16,
};

typedef struct section_s {
  const char *name; // NUL-terminated inside the file, or ""
  uint32_t type, link, info;
  // sh_size: a NOBITS section's size in memory (.nv.shared.<kernel>).
  uint64_t size;
  // The section's bytes in the file: `file_size` bytes at `bytes`, 0 bytes
  // for a NOBITS section. Readers use only these.
  const uint8_t *bytes;
  uint64_t file_size;
} section_t;

typedef struct cubin_s {
  const uint8_t *data;
  uint64_t size;
  section_t *sections;
  uint32_t section_count;
  const uint8_t *symbols; // SHT_SYMTAB entries
  uint64_t symbol_count;
  const section_t *symbol_names; // the symbol table's string table
} cubin_t;

// A NUL-terminated string at `offset` of string section `strtab`, or NULL.
static const char *string_at(const section_t *strtab, uint64_t offset) {
  if (offset >= strtab->file_size)
    return NULL;
  const char *start = (const char *)strtab->bytes + offset;
  if (!memchr(start, '\0', strtab->file_size - offset))
    return NULL;
  return start;
}

static uq_status_t read_sections(cubin_t *c) {
  const uint8_t *h = c->data;
  uint64_t shoff = rd64(h + 40);
  uint16_t shentsize = rd16(h + 58), shnum = rd16(h + 60),
           shstrndx = rd16(h + 62);
  if (shentsize != kShdrSize || shnum == 0 || shstrndx >= shnum ||
      !range_ok(shoff, (uint64_t)shnum * kShdrSize, c->size))
    return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                          "bad section header table (%u entries of %u bytes "
                          "at %" PRIu64 ")",
                          shnum, shentsize, shoff);
  c->sections = calloc(shnum, sizeof(*c->sections));
  if (!c->sections)
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED,
                          "cannot allocate %u sections", shnum);
  c->section_count = shnum;
  for (uint32_t i = 0; i < shnum; ++i) {
    const uint8_t *s = c->data + shoff + (uint64_t)i * kShdrSize;
    section_t *out = &c->sections[i];
    out->type = rd32(s + 4);
    uint64_t offset = rd64(s + 24);
    out->size = rd64(s + 32);
    out->link = rd32(s + 40);
    out->info = rd32(s + 44);
    // A NOBITS section occupies no bytes of the file, but its offset must
    // still lie in it: no type exempts a section from the file's bounds.
    out->file_size = out->type == kShtNobits ? 0 : out->size;
    if (!range_ok(offset, out->file_size, c->size))
      return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                            "section %u (%" PRIu64 " bytes at %" PRIu64
                            ") lies outside the %" PRIu64 "-byte file",
                            i, out->file_size, offset, c->size);
    out->bytes = c->data + offset;
  }
  const section_t *names = &c->sections[shstrndx];
  if (names->type == kShtNobits)
    return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS, "no section name table");
  for (uint32_t i = 0; i < shnum; ++i) {
    const uint8_t *s = c->data + shoff + (uint64_t)i * kShdrSize;
    const char *name = string_at(names, rd32(s));
    c->sections[i].name = name ? name : "";
  }
  for (uint32_t i = 0; i < shnum; ++i) {
    const section_t *s = &c->sections[i];
    if (s->type != kShtSymtab)
      continue;
    if (s->link >= shnum || c->sections[s->link].type == kShtNobits)
      return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                            "symbol table without a string table");
    c->symbols = s->bytes;
    c->symbol_count = s->file_size / kSymSize;
    c->symbol_names = &c->sections[s->link];
  }
  if (!c->symbols)
    return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS, "cubin has no symbol table");
  return UQ_OK;
}

// The section index that symbol `index` is defined in, or UINT32_MAX.
static uint32_t symbol_section(const cubin_t *c, uint64_t index) {
  if (index >= c->symbol_count)
    return UINT32_MAX;
  return rd16(c->symbols + index * kSymSize + 6);
}

// One .nv.info attribute.
typedef struct attr_s {
  uint8_t format, attribute;
  const uint8_t *value; // SVAL: `length` bytes; B/HVAL: 2 bytes; NVAL: none
  uint32_t length;
} attr_t;

// Steps through a .nv.info section: 1 and the next attribute, 0 at the
// end, -1 when the section is malformed.
static int next_attr(const uint8_t *data, uint64_t size, uint64_t *pos,
                     attr_t *out) {
  if (*pos == size)
    return 0;
  if (size - *pos < 4)
    return -1;
  const uint8_t *p = data + *pos;
  out->format = p[0];
  out->attribute = p[1];
  switch (out->format) {
  case kFmtNval:
  case kFmtBval:
  case kFmtHval:
    out->value = p + 2;
    out->length = 2;
    *pos += 4;
    return 1;
  case kFmtSval:
    out->length = rd16(p + 2);
    out->value = p + 4;
    if (out->length > size - *pos - 4)
      return -1;
    *pos += 4 + (uint64_t)out->length;
    return 1;
  default:
    return -1;
  }
}

// The attributes of kernel `ki`'s own `.nv.info.<name>` section: its
// parameters (into `args`, `capacity` entries: the section's bytes / 16)
// and block size.
static uq_status_t parse_kernel_info(const section_t *info,
                                     uq_kernel_info_t *ki, uq_kernarg_t *args,
                                     uint32_t capacity) {
  uint64_t pos = 0;
  attr_t a;
  int step;
  int have_param_size = 0;
  while ((step = next_attr(info->bytes, info->file_size, &pos, &a)) > 0) {
    if (a.attribute == kAttrKparamInfo && a.format == kFmtSval) {
      if (a.length != 12)
        return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                              "KPARAM_INFO of %u bytes, expected 12", a.length);
      uint32_t ordinal = rd16(a.value + 4), offset = rd16(a.value + 6);
      uint32_t size = (rd32(a.value + 8) >> 18) & 0x3fff;
      if (ordinal >= capacity)
        return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                              "parameter ordinal %u out of range", ordinal);
      uq_kernarg_t *arg = &args[ordinal];
      if (arg->value_kind[0])
        return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                              "parameter %u described twice", ordinal);
      arg->offset = offset;
      arg->size = size;
      arg->kind = UQ_KERNARG_PARAM;
      snprintf(arg->value_kind, sizeof(arg->value_kind), "param");
      if (ordinal + 1 > ki->arg_count)
        ki->arg_count = ordinal + 1;
    } else if (a.attribute == kAttrCbankParamSize && a.format == kFmtHval) {
      ki->kernarg_segment_size = rd16(a.value);
      have_param_size = 1;
    } else if ((a.attribute == kAttrMaxThreads ||
                a.attribute == kAttrReqntid) &&
               a.format == kFmtSval && a.length == 12) {
      uint64_t threads =
          (uint64_t)rd32(a.value) * rd32(a.value + 4) * rd32(a.value + 8);
      if (threads == 0 || threads > 1024)
        return UQ_MAKE_STATUS(
            UQ_STATUS_DATA_LOSS, "block size %u x %u x %u is not in 1..1024",
            rd32(a.value), rd32(a.value + 4), rd32(a.value + 8));
      if (a.attribute == kAttrReqntid)
        for (int d = 0; d < 3; ++d)
          ki->reqd_workgroup_size[d] = rd32(a.value + 4 * d);
      ki->max_flat_workgroup_size = (uint32_t)threads;
    }
  }
  if (step < 0)
    return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS, "malformed %s", info->name);
  for (uint32_t i = 0; i < ki->arg_count; ++i)
    if (!args[i].value_kind[0])
      return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                            "parameter %u of %u has no KPARAM_INFO", i,
                            ki->arg_count);
  if (!have_param_size && ki->arg_count)
    return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS, "no CBANK_PARAM_SIZE");
  uint32_t align = 1;
  for (uint32_t i = 0; i < ki->arg_count; ++i) {
    if ((uint64_t)args[i].offset + args[i].size > ki->kernarg_segment_size)
      return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                            "parameter %u at offset %u of %u bytes exceeds "
                            "the %u-byte parameter block",
                            i, args[i].offset, args[i].size,
                            ki->kernarg_segment_size);
    while (align < 8 && align < args[i].size)
      align *= 2;
  }
  ki->kernarg_segment_align = align;
  return UQ_OK;
}

// REGCOUNT and FRAME_SIZE from the global .nv.info, in one pass over it:
// `kernel_of_text[i]` is the index of the kernel whose .text section is i
// (UINT32_MAX for none), so the work is linear in the file whatever the
// number of kernels.
static uq_status_t parse_function_info(const cubin_t *c,
                                       const uint32_t *kernel_of_text,
                                       uq_code_object_t *co,
                                       uint8_t *have_registers) {
  for (uint32_t i = 0; i < c->section_count; ++i) {
    const section_t *s = &c->sections[i];
    if (strcmp(s->name, ".nv.info") != 0)
      continue;
    if (s->type == kShtNobits)
      return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                            ".nv.info has no bytes in the file (SHT_NOBITS)");
    uint64_t pos = 0;
    attr_t a;
    int step;
    while ((step = next_attr(s->bytes, s->file_size, &pos, &a)) > 0) {
      if (a.format != kFmtSval || a.length != 8 ||
          (a.attribute != kAttrRegcount && a.attribute != kAttrFrameSize))
        continue;
      uint32_t text = symbol_section(c, rd32(a.value));
      uint32_t k = text < c->section_count ? kernel_of_text[text] : UINT32_MAX;
      if (k == UINT32_MAX)
        continue;
      if (a.attribute == kAttrRegcount) {
        co->kernels[k].vgpr_count = rd32(a.value + 4);
        have_registers[k] = 1;
      } else {
        co->kernels[k].private_segment_fixed_size = rd32(a.value + 4);
      }
    }
    if (step < 0)
      return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS, "malformed .nv.info");
  }
  for (size_t k = 0; k < co->kernel_count; ++k)
    if (!have_registers[k])
      return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS, "no REGCOUNT for kernel %s",
                            co->kernels[k].name);
  return UQ_OK;
}

static int compare_kernel_names(const void *a, const void *b) {
  const uq_kernel_info_t *const *x = a, *const *y = b;
  return strcmp((*x)->name, (*y)->name);
}

static int find_kernel_name(const void *key, const void *element) {
  const uq_kernel_info_t *const *k = element;
  return strcmp(key, (*k)->name);
}

// Static shared memory: the size of each kernel's NOBITS section
// `.nv.shared.<name>`. Kernels are looked up by name in a sorted index
// (which also finds a kernel described twice), so the work stays
// O(n log n) in the number of sections.
static uq_status_t read_shared_sizes(const cubin_t *c, uq_code_object_t *co,
                                     uq_kernel_info_t **by_name) {
  for (size_t k = 0; k < co->kernel_count; ++k)
    by_name[k] = &co->kernels[k];
  qsort(by_name, co->kernel_count, sizeof(*by_name), compare_kernel_names);
  for (size_t k = 1; k < co->kernel_count; ++k)
    if (strcmp(by_name[k - 1]->name, by_name[k]->name) == 0)
      return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS, "kernel %s described twice",
                            by_name[k]->name);
  for (uint32_t i = 0; i < c->section_count; ++i) {
    const section_t *s = &c->sections[i];
    if (strncmp(s->name, ".nv.shared.", 11) != 0)
      continue;
    uq_kernel_info_t **found =
        co->kernel_count ? bsearch(s->name + 11, by_name, co->kernel_count,
                                   sizeof(*by_name), find_kernel_name)
                         : NULL;
    if (!found)
      continue;
    if (s->size > UINT32_MAX)
      return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                            "kernel %s: %s of %" PRIu64 " bytes",
                            (*found)->name, s->name, s->size);
    (*found)->group_segment_fixed_size = (uint32_t)s->size;
  }
  return UQ_OK;
}

// Counts the kernels (one `.nv.info.<name>` section each) and the
// parameter slots their sections can describe (16 bytes each), refusing
// sections without bytes and overlapping ones: the slots of sections that
// do not overlap fit in the file, which bounds the allocation by the file.
static uq_status_t count_kernels(const cubin_t *c, size_t *out_count,
                                 size_t *out_params) {
  size_t count = 0;
  uint64_t params = 0;
  for (uint32_t i = 0; i < c->section_count; ++i) {
    const section_t *s = &c->sections[i];
    if (strncmp(s->name, ".nv.info.", 9) != 0)
      continue;
    if (s->type == kShtNobits)
      return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                            "%s has no bytes in the file (SHT_NOBITS)",
                            s->name);
    ++count;
    params += s->file_size / kKparamBytes;
  }
  if (params > c->size / kKparamBytes)
    return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                          "the .nv.info sections overlap: %" PRIu64
                          " parameters in a %" PRIu64 "-byte file",
                          params, c->size);
  *out_count = count;
  *out_params = (size_t)params;
  return UQ_OK;
}

// The value of the 4-byte object symbol `name` (a .const global of the
// PTX, in a .nv.constant section), in *out_value; 0 when there is none.
static uq_status_t read_u32_symbol(const cubin_t *c, const char *name,
                                   uint32_t *out_value) {
  *out_value = 0;
  for (uint64_t i = 0; i < c->symbol_count; ++i) {
    const uint8_t *sym = c->symbols + i * kSymSize;
    const char *sym_name = string_at(c->symbol_names, rd32(sym));
    if (!sym_name || strcmp(sym_name, name) != 0 ||
        (sym[4] & 0xf) != kSttObject)
      continue;
    uint32_t index = rd16(sym + 6);
    uint64_t value = rd64(sym + 8), bytes = rd64(sym + 16);
    if (index >= c->section_count || bytes != 4 ||
        !range_ok(value, 4, c->sections[index].file_size))
      return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                            "symbol %s is not 4 initialized bytes", name);
    *out_value = rd32(c->sections[index].bytes + value);
    return UQ_OK;
  }
  return UQ_OK;
}

// Each kernel's own section: its name, .text section and parameters.
static uq_status_t read_kernels(const cubin_t *c, uq_code_object_t *co,
                                uint32_t *kernel_of_text) {
  size_t next_param = 0;
  for (uint32_t i = 0; i < c->section_count; ++i) {
    const section_t *info = &c->sections[i];
    if (strncmp(info->name, ".nv.info.", 9) != 0)
      continue;
    uq_kernel_info_t *ki = &co->kernels[co->kernel_count];
    const char *name = info->name + 9;
    if (strlen(name) >= sizeof(ki->name) || info->info >= c->section_count)
      return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                            "%s: name too long or no text section", info->name);
    if (kernel_of_text[info->info] != UINT32_MAX)
      return UQ_MAKE_STATUS(
          UQ_STATUS_DATA_LOSS, "%s: text section %u belongs to kernel %s too",
          info->name, info->info, co->kernels[kernel_of_text[info->info]].name);
    snprintf(ki->name, sizeof(ki->name), "%s", name);
    snprintf(ki->symbol, sizeof(ki->symbol), "%s", name);
    ki->wavefront_size = 32;
    ki->max_flat_workgroup_size = 1024;
    uint32_t capacity = (uint32_t)(info->file_size / kKparamBytes);
    uq_kernarg_t *args = co->args + next_param;
    next_param += capacity;
    ki->args = args;
    UQ_RETURN_IF_ERROR(parse_kernel_info(info, ki, args, capacity), "kernel %s",
                       name);
    kernel_of_text[info->info] = (uint32_t)co->kernel_count++;
  }
  return UQ_OK;
}

uq_status_t uq_cubin_parse(const uint8_t *data, size_t size,
                           uq_code_object_t *co) {
  cubin_t c = {.data = data, .size = size};
  if (size < kElfHeaderSize ||
      memcmp(data,
             "\x7f"
             "ELF",
             4) != 0 ||
      data[4] != 2 || data[5] != 1)
    return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                          "not a little-endian ELF64 file");
  if (rd16(data + 18) != UQ_ELF_MACHINE_CUDA)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "ELF machine %u is not "
                          "EM_CUDA",
                          rd16(data + 18));
  // e_flags: the SM version in bits 8-15 from ELF ABI version 8 (what CUDA
  // 13 writes: 0x6005a04 for sm_90), in bits 0-7 before.
  uint32_t flags = rd32(data + 48);
  uint32_t sm = data[8] >= 8 ? (flags >> 8) & 0xff : flags & 0xff;
  snprintf(co->target, sizeof(co->target), "nvptx64-nvidia-cuda--sm_%u", sm);
  co->version = data[8];
  size_t count = 0, total_params = 0;
  uint32_t *kernel_of_text = NULL;
  uint8_t *have_registers = NULL;
  uq_kernel_info_t **by_name = NULL;
  uq_status_t status = read_sections(&c);
  if (!status)
    status = count_kernels(&c, &count, &total_params);
  if (!status) {
    co->kernels = calloc(count ? count : 1, sizeof(*co->kernels));
    co->args = calloc(total_params ? total_params : 1, sizeof(*co->args));
    co->image = malloc(size ? size : 1);
    kernel_of_text = malloc(c.section_count * sizeof(*kernel_of_text));
    have_registers = calloc(count ? count : 1, 1);
    by_name = calloc(count ? count : 1, sizeof(*by_name));
    if (!co->kernels || !co->args || !co->image || !kernel_of_text ||
        !have_registers || !by_name)
      status = UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED,
                              "cannot allocate %zu kernels", count);
  }
  if (!status) {
    memcpy(co->image, data, size);
    co->image_size = size;
    for (uint32_t i = 0; i < c.section_count; ++i)
      kernel_of_text[i] = UINT32_MAX;
  }
  uint32_t dynamic_shared = 0, walk_group_tiles = 0, cluster_merge = 0;
  uint32_t pipeline_stages = 0;
  if (!status)
    status = read_u32_symbol(&c, "uq_dynamic_shared_bytes", &dynamic_shared);
  if (!status)
    status = read_u32_symbol(&c, "uq_walk_group_tiles", &walk_group_tiles);
  if (!status)
    status = read_u32_symbol(&c, "uq_cluster_merge", &cluster_merge);
  if (!status)
    status = read_u32_symbol(&c, "uq_pipeline_stages", &pipeline_stages);
  if (!status)
    status = read_kernels(&c, co, kernel_of_text);
  if (!status)
    status = parse_function_info(&c, kernel_of_text, co, have_registers);
  if (!status)
    status = read_shared_sizes(&c, co, by_name);
  for (size_t k = 0; !status && k < co->kernel_count; ++k) {
    co->kernels[k].dynamic_shared_bytes = dynamic_shared;
    co->kernels[k].walk_group_tiles = walk_group_tiles;
    co->kernels[k].cluster_merge = cluster_merge != 0;
    co->kernels[k].pipeline_stages = pipeline_stages;
  }
  free(by_name);
  free(have_registers);
  free(kernel_of_text);
  free(c.sections);
  return status;
}
