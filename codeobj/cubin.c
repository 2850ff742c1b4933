// The cubin reader (cubin.h says what it reads and where the format facts
// come from). Every offset and size read from the file is checked against
// the buffer before use, and every allocation is bounded by the file size.
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
  uint64_t offset, size;
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
static const char *string_at(const cubin_t *c, const section_t *strtab,
                             uint64_t offset) {
  if (offset >= strtab->size)
    return NULL;
  const char *start = (const char *)c->data + strtab->offset + offset;
  if (!memchr(start, '\0', strtab->size - offset))
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
    out->offset = rd64(s + 24);
    out->size = rd64(s + 32);
    out->link = rd32(s + 40);
    out->info = rd32(s + 44);
    if (out->type != kShtNobits && !range_ok(out->offset, out->size, c->size))
      return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                            "section %u lies outside the %" PRIu64 "-byte file",
                            i, c->size);
  }
  const section_t *names = &c->sections[shstrndx];
  if (names->type == kShtNobits)
    return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS, "no section name table");
  for (uint32_t i = 0; i < shnum; ++i) {
    const uint8_t *s = c->data + shoff + (uint64_t)i * kShdrSize;
    const char *name = string_at(c, names, rd32(s));
    c->sections[i].name = name ? name : "";
  }
  for (uint32_t i = 0; i < shnum; ++i) {
    const section_t *s = &c->sections[i];
    if (s->type != kShtSymtab)
      continue;
    if (s->link >= shnum || c->sections[s->link].type == kShtNobits)
      return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                            "symbol table without a string table");
    c->symbols = c->data + s->offset;
    c->symbol_count = s->size / kSymSize;
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

// A kernel is a `.nv.info.<name>` section whose sh_info is its .text
// section; `text` records that index.
typedef struct kernel_slot_s {
  uint32_t text;
  const section_t *info;
} kernel_slot_t;

static uq_status_t parse_kernel_info(const cubin_t *c, const section_t *info,
                                     uq_kernel_info_t *ki, uq_kernarg_t *args,
                                     uint32_t capacity) {
  uint64_t pos = 0;
  attr_t a;
  int step;
  int have_param_size = 0;
  while ((step = next_attr(c->data + info->offset, info->size, &pos, &a)) > 0) {
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

// REGCOUNT and FRAME_SIZE from the global .nv.info, for the kernel whose
// .text section is `text`.
static uq_status_t parse_function_info(const cubin_t *c, uint32_t text,
                                       uq_kernel_info_t *ki) {
  int have_registers = 0;
  for (uint32_t i = 0; i < c->section_count; ++i) {
    const section_t *s = &c->sections[i];
    if (strcmp(s->name, ".nv.info") != 0)
      continue;
    uint64_t pos = 0;
    attr_t a;
    int step;
    while ((step = next_attr(c->data + s->offset, s->size, &pos, &a)) > 0) {
      if (a.format != kFmtSval || a.length != 8 ||
          (a.attribute != kAttrRegcount && a.attribute != kAttrFrameSize) ||
          symbol_section(c, rd32(a.value)) != text)
        continue;
      if (a.attribute == kAttrRegcount) {
        ki->vgpr_count = rd32(a.value + 4);
        have_registers = 1;
      } else {
        ki->private_segment_fixed_size = rd32(a.value + 4);
      }
    }
    if (step < 0)
      return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS, "malformed .nv.info");
  }
  if (!have_registers)
    return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS, "no REGCOUNT for kernel %s",
                          ki->name);
  return UQ_OK;
}

// The value of the 4-byte object symbol `name` (a .const global of the
// PTX, in a .nv.constant section), in *out_value; 0 when there is none.
static uq_status_t read_u32_symbol(const cubin_t *c, const char *name,
                                   uint32_t *out_value) {
  *out_value = 0;
  for (uint64_t i = 0; i < c->symbol_count; ++i) {
    const uint8_t *sym = c->symbols + i * kSymSize;
    const char *sym_name = string_at(c, c->symbol_names, rd32(sym));
    if (!sym_name || strcmp(sym_name, name) != 0 ||
        (sym[4] & 0xf) != kSttObject)
      continue;
    uint32_t index = rd16(sym + 6);
    uint64_t value = rd64(sym + 8), bytes = rd64(sym + 16);
    if (index >= c->section_count || bytes != 4 ||
        c->sections[index].type == kShtNobits ||
        !range_ok(value, 4, c->sections[index].size))
      return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                            "symbol %s is not 4 initialized bytes", name);
    *out_value = rd32(c->data + c->sections[index].offset + value);
    return UQ_OK;
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
  uq_status_t status = read_sections(&c);
  // Kernels: every .nv.info.<name> section.
  size_t count = 0, total_params = 0;
  for (uint32_t i = 0; !status && i < c.section_count; ++i) {
    if (strncmp(c.sections[i].name, ".nv.info.", 9) == 0) {
      ++count;
      total_params += (size_t)(c.sections[i].size / kKparamBytes);
    }
  }
  if (!status) {
    co->kernels = calloc(count ? count : 1, sizeof(*co->kernels));
    co->args = calloc(total_params ? total_params : 1, sizeof(*co->args));
    co->image = malloc(size ? size : 1);
    if (!co->kernels || !co->args || !co->image)
      status = UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED,
                              "cannot allocate %zu kernels", count);
  }
  if (!status) {
    memcpy(co->image, data, size);
    co->image_size = size;
  }
  uint32_t dynamic_shared = 0, walk_group_tiles = 0;
  if (!status)
    status = read_u32_symbol(&c, "uq_dynamic_shared_bytes", &dynamic_shared);
  if (!status)
    status = read_u32_symbol(&c, "uq_walk_group_tiles", &walk_group_tiles);
  size_t next_param = 0;
  for (uint32_t i = 0; !status && i < c.section_count; ++i) {
    const section_t *info = &c.sections[i];
    if (strncmp(info->name, ".nv.info.", 9) != 0)
      continue;
    uq_kernel_info_t *ki = &co->kernels[co->kernel_count];
    const char *name = info->name + 9;
    if (strlen(name) >= sizeof(ki->name) || info->info >= c.section_count) {
      status =
          UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                         "%s: name too long or no text section", info->name);
      break;
    }
    snprintf(ki->name, sizeof(ki->name), "%s", name);
    snprintf(ki->symbol, sizeof(ki->symbol), "%s", name);
    ki->wavefront_size = 32;
    ki->max_flat_workgroup_size = 1024;
    ki->dynamic_shared_bytes = dynamic_shared;
    ki->walk_group_tiles = walk_group_tiles;
    uint32_t capacity = (uint32_t)(info->size / kKparamBytes);
    uq_kernarg_t *args = co->args + next_param;
    next_param += capacity;
    ki->args = args;
    status = parse_kernel_info(&c, info, ki, args, capacity);
    if (!status)
      status = parse_function_info(&c, info->info, ki);
    char shared[160];
    snprintf(shared, sizeof(shared), ".nv.shared.%s", name);
    for (uint32_t j = 0; !status && j < c.section_count; ++j) {
      if (strcmp(c.sections[j].name, shared) != 0)
        continue;
      if (c.sections[j].size > UINT32_MAX)
        status = UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS, "%s of %" PRIu64 " bytes",
                                shared, c.sections[j].size);
      else
        ki->group_segment_fixed_size = (uint32_t)c.sections[j].size;
    }
    if (status)
      status = uq_status_annotate(status, "kernel %s", name);
    else
      ++co->kernel_count;
  }
  free(c.sections);
  return status;
}
