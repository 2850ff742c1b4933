// The code-object reader: an AMDGPU HSACO (ELF64, amdgcn-amd-amdhsa) parsed
// into a loaded image, kernel descriptors and the AMDHSA metadata note.
//
// The ELF is parsed by hand rather than through LLVM's C object API
// (llvm-c/Object.h): that API exposes sections and symbols but no program
// headers, and the image must be built from the PT_LOAD segments exactly as
// the HSA loader does; it also aborts the process on some malformed inputs,
// while every malformed input here must come back as a status. So every
// offset and size read from the file is checked against the buffer with
// overflow-safe arithmetic (`range_ok`) before it is used, and every
// allocation is bounded by the input size or a fixed limit.
//
// The metadata note is MessagePack, read with our own reader (msgpack.h), so
// that libuqrt needs no libmsgpackc where it is deployed.
#include "codeobj/codeobj.h"
#include "codeobj/cubin.h"
#include "codeobj/le_bytes.h"
#include "codeobj/msgpack.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// ELF constants (System V gABI; AMDGPU values from LLVM AMDGPUUsage,
// "ELF Code Object").
enum {
  kElfHeaderSize = 64,
  kPhdrSize = 56,
  kShdrSize = 64,
  kSymSize = 24,
  kElfClass64 = 2,
  kElfData2Lsb = 1,
  kEtDyn = 3,
  kEmAmdgpu = 224,
  kOsAbiAmdgpuHsa = 64,
  kAbiVersionV5 = 3,
  kAbiVersionV6 = 4,
  kMachMask = 0xff,
  kMachGfx950 = 0x04f,
  kPtLoad = 1,
  kPtNote = 4,
  kShtSymtab = 2,
  kShtStrtab = 3,
  kShtNote = 7,
  kShtNobits = 8,
  kShtDynsym = 11,
  kSttObject = 1,
  kShnUndef = 0,
  kShnLoReserve = 0xff00,
  kNtAmdgpuMetadata = 32,
  kDescriptorSize = 64,
};

// The largest loaded image accepted: far above any kernel we build, small
// enough that a corrupt p_memsz cannot make us allocate without bound.
#define UQ_CODEOBJ_MAX_IMAGE_SIZE ((uint64_t)16 << 20)
// The largest file uq_code_object_load_file reads.
#define UQ_CODEOBJ_MAX_FILE_SIZE ((uint64_t)256 << 20)

typedef struct elf_view_s {
  const uint8_t *data;
  uint64_t size;
} elf_view_t;

void uq_kernel_descriptor_decode(const uint8_t raw[64],
                                 uq_kernel_descriptor_t *out_descriptor) {
  // Offsets from AMDGPUUsage, "Kernel Descriptor for GFX6-GFX12".
  memcpy(out_descriptor->raw, raw, 64);
  out_descriptor->group_segment_fixed_size = rd32(raw + 0);
  out_descriptor->private_segment_fixed_size = rd32(raw + 4);
  out_descriptor->kernarg_size = rd32(raw + 8);
  out_descriptor->kernel_code_entry_byte_offset = (int64_t)rd64(raw + 16);
  out_descriptor->compute_pgm_rsrc3 = rd32(raw + 44);
  out_descriptor->compute_pgm_rsrc1 = rd32(raw + 48);
  out_descriptor->compute_pgm_rsrc2 = rd32(raw + 52);
  out_descriptor->kernel_code_properties = rd16(raw + 56);
  out_descriptor->kernarg_preload = rd16(raw + 58);
}

//===----------------------------------------------------------------------===//
// ELF header, segments and the image
//===----------------------------------------------------------------------===//

static uq_status_t check_header(const elf_view_t *elf, uint32_t *out_version) {
  const uint8_t *h = elf->data;
  if (elf->size < kElfHeaderSize)
    return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                          "truncated ELF header: %" PRIu64 " of 64 bytes",
                          elf->size);
  if (memcmp(h,
             "\x7f"
             "ELF",
             4) != 0)
    return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS, "not an ELF file (bad magic)");
  if (h[4] != kElfClass64)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "ELF class %u is not ELF64", h[4]);
  if (h[5] != kElfData2Lsb)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "ELF data encoding %u is not little-endian", h[5]);
  if (h[6] != 1 || rd32(h + 20) != 1)
    return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS, "bad ELF version %u/%u", h[6],
                          rd32(h + 20));
  uint16_t machine = rd16(h + 18);
  if (machine != kEmAmdgpu)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "ELF machine %u is not EM_AMDGPU (224)", machine);
  if (h[7] != kOsAbiAmdgpuHsa)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "ELF OS ABI %u is not ELFOSABI_AMDGPU_HSA (64)",
                          h[7]);
  if (h[8] == kAbiVersionV5)
    *out_version = 5;
  else if (h[8] == kAbiVersionV6)
    *out_version = 6;
  else
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "ELF ABI version %u is not code object v5 (3) or "
                          "v6 (4)",
                          h[8]);
  uint16_t type = rd16(h + 16);
  if (type != kEtDyn)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "ELF type %u is not ET_DYN: link the object with "
                          "ld.lld -shared",
                          type);
  uint32_t mach = rd32(h + 48) & kMachMask;
  if (mach != kMachGfx950)
    return UQ_MAKE_STATUS(UQ_STATUS_UNIMPLEMENTED,
                          "target EF_AMDGPU_MACH 0x%03x is not gfx950 (0x04f)",
                          mach);
  if (rd16(h + 52) < kElfHeaderSize)
    return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS, "bad ELF header size %u",
                          rd16(h + 52));
  return UQ_OK;
}

// Places every PT_LOAD segment in a zeroed image of the highest end address.
static uq_status_t build_image(const elf_view_t *elf, uq_code_object_t *co) {
  const uint8_t *h = elf->data;
  uint64_t phoff = rd64(h + 32);
  uint16_t phentsize = rd16(h + 54);
  uint16_t phnum = rd16(h + 56);
  if (phnum == 0)
    return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS, "ELF has no program headers");
  if (phentsize != kPhdrSize)
    return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                          "program header size %u is not 56", phentsize);
  if (!range_ok(phoff, (uint64_t)phnum * kPhdrSize, elf->size))
    return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                          "program headers (offset %" PRIu64
                          ", %u entries) run past the end of the file",
                          phoff, phnum);
  uint64_t image_size = 0;
  int loads = 0;
  for (uint16_t i = 0; i < phnum; ++i) {
    const uint8_t *ph = elf->data + phoff + (uint64_t)i * kPhdrSize;
    if (rd32(ph) != kPtLoad)
      continue;
    uint64_t offset = rd64(ph + 8), vaddr = rd64(ph + 16);
    uint64_t filesz = rd64(ph + 32), memsz = rd64(ph + 40);
    if (!range_ok(offset, filesz, elf->size))
      return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                            "PT_LOAD %u (offset %" PRIu64 ", size %" PRIu64
                            ") runs past the end of the file",
                            i, offset, filesz);
    if (filesz > memsz)
      return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                            "PT_LOAD %u file size %" PRIu64
                            " exceeds its memory size %" PRIu64,
                            i, filesz, memsz);
    if (!range_ok(vaddr, memsz, UQ_CODEOBJ_MAX_IMAGE_SIZE))
      return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                            "PT_LOAD %u (vaddr 0x%" PRIx64 ", size %" PRIu64
                            ") exceeds the %" PRIu64 "-byte image limit",
                            i, vaddr, memsz, UQ_CODEOBJ_MAX_IMAGE_SIZE);
    if (vaddr + memsz > image_size)
      image_size = vaddr + memsz;
    ++loads;
  }
  if (loads == 0 || image_size == 0)
    return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS, "ELF has no PT_LOAD segment");
  co->image = calloc(1, (size_t)image_size);
  if (!co->image)
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED,
                          "cannot allocate a %" PRIu64 "-byte image",
                          image_size);
  co->image_size = (size_t)image_size;
  for (uint16_t i = 0; i < phnum; ++i) {
    const uint8_t *ph = elf->data + phoff + (uint64_t)i * kPhdrSize;
    if (rd32(ph) != kPtLoad)
      continue;
    uint64_t offset = rd64(ph + 8), vaddr = rd64(ph + 16);
    uint64_t filesz = rd64(ph + 32);
    if (filesz)
      memcpy(co->image + vaddr, elf->data + offset, (size_t)filesz);
  }
  return UQ_OK;
}

//===----------------------------------------------------------------------===//
// Sections, symbols and notes
//===----------------------------------------------------------------------===//

typedef struct section_s {
  uint32_t type;
  uint32_t link;
  uint64_t offset;
  uint64_t size;
  uint64_t entsize;
} section_t;

typedef struct sections_s {
  const uint8_t *table;
  uint16_t count;
} sections_t;

static section_t section_at(const elf_view_t *elf, const sections_t *sections,
                            uint32_t index) {
  (void)elf;
  const uint8_t *sh = sections->table + (uint64_t)index * kShdrSize;
  section_t s = {rd32(sh + 4), rd32(sh + 40), rd64(sh + 24), rd64(sh + 32),
                 rd64(sh + 56)};
  return s;
}

static uq_status_t read_sections(const elf_view_t *elf,
                                 sections_t *out_sections) {
  const uint8_t *h = elf->data;
  uint64_t shoff = rd64(h + 40);
  uint16_t shentsize = rd16(h + 58);
  uint16_t shnum = rd16(h + 60);
  if (shnum == 0)
    return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                          "ELF has no section headers (needed for symbols)");
  if (shentsize != kShdrSize)
    return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                          "section header size %u is not 64", shentsize);
  if (!range_ok(shoff, (uint64_t)shnum * kShdrSize, elf->size))
    return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                          "section headers (offset %" PRIu64
                          ", %u entries) run past the end of the file",
                          shoff, shnum);
  out_sections->table = elf->data + shoff;
  out_sections->count = shnum;
  return UQ_OK;
}

typedef struct symtab_s {
  const uint8_t *symbols;
  uint64_t count;
  const uint8_t *strings;
  uint64_t strings_size;
} symtab_t;

// Finds the first section of `type` and checks it and its string table.
// Leaves `out_symtab->count` 0 when there is none.
static uq_status_t find_symtab(const elf_view_t *elf,
                               const sections_t *sections, uint32_t type,
                               symtab_t *out_symtab) {
  memset(out_symtab, 0, sizeof(*out_symtab));
  for (uint32_t i = 0; i < sections->count; ++i) {
    section_t s = section_at(elf, sections, i);
    if (s.type != type)
      continue;
    if (s.entsize != kSymSize)
      return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                            "symbol table section %u has entry size %" PRIu64
                            ", not 24",
                            i, s.entsize);
    if (!range_ok(s.offset, s.size, elf->size))
      return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                            "symbol table section %u runs past the end of the "
                            "file",
                            i);
    if (s.link >= sections->count)
      return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                            "symbol table section %u links to section %u of "
                            "%u",
                            i, s.link, sections->count);
    section_t str = section_at(elf, sections, s.link);
    if (str.type != kShtStrtab || !range_ok(str.offset, str.size, elf->size))
      return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                            "string table section %u of symbol table %u is "
                            "bad",
                            s.link, i);
    out_symtab->symbols = elf->data + s.offset;
    out_symtab->count = s.size / kSymSize;
    out_symtab->strings = elf->data + str.offset;
    out_symtab->strings_size = str.size;
    return UQ_OK;
  }
  return UQ_OK;
}

// Finds symbol `name` in `symtab`; returns its entry or NULL.
static const uint8_t *lookup_symbol(const symtab_t *symtab, const char *name) {
  size_t length = strlen(name);
  for (uint64_t i = 0; i < symtab->count; ++i) {
    const uint8_t *sym = symtab->symbols + i * kSymSize;
    uint32_t name_offset = rd32(sym);
    // The name and its terminating NUL must lie inside the string table.
    if (!range_ok(name_offset, (uint64_t)length + 1, symtab->strings_size))
      continue;
    const char *candidate = (const char *)symtab->strings + name_offset;
    if (memcmp(candidate, name, length) == 0 && candidate[length] == '\0')
      return sym;
  }
  return NULL;
}

// Looks for an NT_AMDGPU_METADATA note with owner "AMDGPU" in
// [data, data + size). Notes are padded to `align` (4, or 8 for a segment
// aligned so). Sets *out_desc to NULL when there is none.
static uq_status_t scan_notes(const uint8_t *data, uint64_t size,
                              uint64_t align, const uint8_t **out_desc,
                              uint64_t *out_desc_size) {
  uint64_t pos = 0;
  while (pos < size) {
    if (size - pos < 12)
      return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                            "truncated note header at note offset %" PRIu64,
                            pos);
    uint32_t namesz = rd32(data + pos), descsz = rd32(data + pos + 4);
    uint32_t type = rd32(data + pos + 8);
    uint64_t name_offset = pos + 12;
    if (!range_ok(name_offset, namesz, size))
      return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                            "note name (%u bytes) runs past its section",
                            namesz);
    uint64_t desc_offset = (name_offset + namesz + align - 1) & ~(align - 1);
    if (!range_ok(desc_offset, descsz, size))
      return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                            "note descriptor (%u bytes) runs past its section",
                            descsz);
    const char *name = (const char *)data + name_offset;
    if (type == kNtAmdgpuMetadata && namesz == 7 &&
        memcmp(name, "AMDGPU", 7) == 0) {
      *out_desc = data + desc_offset;
      *out_desc_size = descsz;
      return UQ_OK;
    }
    pos = (desc_offset + descsz + align - 1) & ~(align - 1);
  }
  return UQ_OK;
}

static uq_status_t find_metadata(const elf_view_t *elf,
                                 const sections_t *sections,
                                 const uint8_t **out_desc,
                                 uint64_t *out_desc_size) {
  *out_desc = NULL;
  *out_desc_size = 0;
  // PT_NOTE segments first (what the HSA loader reads), then SHT_NOTE.
  const uint8_t *h = elf->data;
  uint64_t phoff = rd64(h + 32);
  uint16_t phnum = rd16(h + 56);
  for (uint16_t i = 0; i < phnum && !*out_desc; ++i) {
    const uint8_t *ph = elf->data + phoff + (uint64_t)i * kPhdrSize;
    if (rd32(ph) != kPtNote)
      continue;
    uint64_t offset = rd64(ph + 8), filesz = rd64(ph + 32);
    uint64_t align = rd64(ph + 48) == 8 ? 8 : 4;
    if (!range_ok(offset, filesz, elf->size))
      return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                            "PT_NOTE %u runs past the end of the file", i);
    UQ_RETURN_IF_ERROR(
        scan_notes(elf->data + offset, filesz, align, out_desc, out_desc_size),
        "in PT_NOTE %u", i);
  }
  for (uint32_t i = 0; i < sections->count && !*out_desc; ++i) {
    section_t s = section_at(elf, sections, i);
    if (s.type != kShtNote)
      continue;
    if (!range_ok(s.offset, s.size, elf->size))
      return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                            "note section %u runs past the end of the file", i);
    const uint8_t *sh = sections->table + (uint64_t)i * kShdrSize;
    uint64_t align = rd64(sh + 48) == 8 ? 8 : 4;
    UQ_RETURN_IF_ERROR(scan_notes(elf->data + s.offset, s.size, align, out_desc,
                                  out_desc_size),
                       "in note section %u", i);
  }
  if (!*out_desc)
    return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                          "no AMDGPU metadata note (owner \"AMDGPU\", type "
                          "NT_AMDGPU_METADATA 32)");
  return UQ_OK;
}

//===----------------------------------------------------------------------===//
// MessagePack metadata
//===----------------------------------------------------------------------===//

// Reads unsigned integer `key` of `map` into *out; absent and not `required`
// leaves *out 0.
static uq_status_t get_u32(const uq_mp_object_t *map, const char *key,
                           int required, uint32_t *out) {
  *out = 0;
  const uq_mp_object_t *v = uq_msgpack_map_get(map, key);
  if (!v) {
    if (required)
      return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS, "metadata lacks %s", key);
    return UQ_OK;
  }
  if (v->type != UQ_MP_UINT || v->via.u64 > UINT32_MAX)
    return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                          "metadata %s is not an unsigned 32-bit integer", key);
  *out = (uint32_t)v->via.u64;
  return UQ_OK;
}

static uq_status_t get_str(const uq_mp_object_t *map, const char *key,
                           int required, char *out, size_t capacity) {
  out[0] = '\0';
  const uq_mp_object_t *v = uq_msgpack_map_get(map, key);
  if (!v) {
    if (required)
      return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS, "metadata lacks %s", key);
    return UQ_OK;
  }
  if (v->type != UQ_MP_STR)
    return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS, "metadata %s is not a string",
                          key);
  if (v->size >= capacity)
    return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                          "metadata %s is %u bytes, longer than %zu", key,
                          v->size, capacity - 1);
  if (v->size && memchr(v->via.bytes, '\0', v->size))
    return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS, "metadata %s contains a NUL",
                          key);
  memcpy(out, v->via.bytes, v->size);
  out[v->size] = '\0';
  return UQ_OK;
}

static uq_kernarg_kind_t kernarg_kind(const char *value_kind) {
  if (strcmp(value_kind, "by_value") == 0)
    return UQ_KERNARG_BY_VALUE;
  if (strcmp(value_kind, "global_buffer") == 0)
    return UQ_KERNARG_GLOBAL_BUFFER;
  if (strncmp(value_kind, "hidden_", 7) == 0)
    return UQ_KERNARG_HIDDEN;
  return UQ_KERNARG_OTHER;
}

// Returns a failure as is: the caller adds which kernel and argument.
#define RETURN_IF_FAILED(expr)                                                 \
  do {                                                                         \
    uq_status_t failure_ = (expr);                                             \
    if (failure_)                                                              \
      return failure_;                                                         \
  } while (0)

static uq_status_t parse_arg(const uq_mp_object_t *a,
                             uint32_t kernarg_segment_size, uq_kernarg_t *arg) {
  if (a->type != UQ_MP_MAP)
    return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS, "not a map");
  RETURN_IF_FAILED(get_u32(a, ".offset", 1, &arg->offset));
  RETURN_IF_FAILED(get_u32(a, ".size", 1, &arg->size));
  RETURN_IF_FAILED(
      get_str(a, ".value_kind", 1, arg->value_kind, sizeof(arg->value_kind)));
  RETURN_IF_FAILED(get_str(a, ".name", 0, arg->name, sizeof(arg->name)));
  arg->kind = kernarg_kind(arg->value_kind);
  if ((uint64_t)arg->offset + arg->size > kernarg_segment_size)
    return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                          "argument at offset %u of %u bytes exceeds the "
                          "%u-byte kernarg segment",
                          arg->offset, arg->size, kernarg_segment_size);
  return UQ_OK;
}

static uq_status_t parse_kernel(const uq_mp_object_t *k, uq_kernel_info_t *ki,
                                uq_kernarg_t *args) {
  if (k->type != UQ_MP_MAP)
    return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS, "not a map");
  RETURN_IF_FAILED(get_str(k, ".name", 1, ki->name, sizeof(ki->name)));
  static const struct {
    const char *key;
    size_t offset;
    int required;
  } fields[] = {
      {".symbol", 0, 1}, // handled below
      {".kernarg_segment_size",
       offsetof(uq_kernel_info_t, kernarg_segment_size), 1},
      {".kernarg_segment_align",
       offsetof(uq_kernel_info_t, kernarg_segment_align), 1},
      {".group_segment_fixed_size",
       offsetof(uq_kernel_info_t, group_segment_fixed_size), 1},
      {".private_segment_fixed_size",
       offsetof(uq_kernel_info_t, private_segment_fixed_size), 1},
      {".wavefront_size", offsetof(uq_kernel_info_t, wavefront_size), 1},
      {".sgpr_count", offsetof(uq_kernel_info_t, sgpr_count), 1},
      {".vgpr_count", offsetof(uq_kernel_info_t, vgpr_count), 1},
      {".agpr_count", offsetof(uq_kernel_info_t, agpr_count), 0},
      {".sgpr_spill_count", offsetof(uq_kernel_info_t, sgpr_spill_count), 0},
      {".vgpr_spill_count", offsetof(uq_kernel_info_t, vgpr_spill_count), 0},
      {".max_flat_workgroup_size",
       offsetof(uq_kernel_info_t, max_flat_workgroup_size), 1},
  };
  UQ_RETURN_IF_ERROR(get_str(k, ".symbol", 1, ki->symbol, sizeof(ki->symbol)),
                     "kernel %s", ki->name);
  for (size_t i = 1; i < sizeof(fields) / sizeof(fields[0]); ++i) {
    uint32_t value;
    UQ_RETURN_IF_ERROR(get_u32(k, fields[i].key, fields[i].required, &value),
                       "kernel %s", ki->name);
    memcpy((char *)ki + fields[i].offset, &value, sizeof(value));
  }
  if (ki->wavefront_size != 64 && ki->wavefront_size != 32)
    return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                          "kernel %s: wavefront size %u is not 32 or 64",
                          ki->name, ki->wavefront_size);
  const uq_mp_object_t *reqd = uq_msgpack_map_get(k, ".reqd_workgroup_size");
  if (reqd) {
    if (reqd->type != UQ_MP_ARRAY || reqd->size != 3)
      return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                            "kernel %s: .reqd_workgroup_size is not an array "
                            "of 3",
                            ki->name);
    for (int d = 0; d < 3; ++d) {
      const uq_mp_object_t *v = &reqd->via.items[d];
      if (v->type != UQ_MP_UINT || v->via.u64 == 0 || v->via.u64 > 1024)
        return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                              "kernel %s: .reqd_workgroup_size[%d] is not in "
                              "1..1024",
                              ki->name, d);
      ki->reqd_workgroup_size[d] = (uint32_t)v->via.u64;
    }
  }
  const uq_mp_object_t *arg_list = uq_msgpack_map_get(k, ".args");
  ki->args = args;
  if (arg_list) {
    if (arg_list->type != UQ_MP_ARRAY)
      return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                            "kernel %s: .args is not an array", ki->name);
    for (uint32_t i = 0; i < arg_list->size; ++i) {
      UQ_RETURN_IF_ERROR(parse_arg(&arg_list->via.items[i],
                                   ki->kernarg_segment_size, &args[i]),
                         "kernel %s argument %u", ki->name, i);
      ++ki->arg_count;
    }
  }
  return UQ_OK;
}

static uq_status_t parse_metadata(const uint8_t *desc, uint64_t desc_size,
                                  uq_code_object_t *co) {
  uq_mp_object_t *tree = NULL;
  uq_status_t status = uq_msgpack_decode(desc, (size_t)desc_size, &tree);
  if (status)
    return uq_status_annotate(status, "metadata note");
  if (tree->type != UQ_MP_MAP) {
    status = UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS, "metadata is not a map");
    goto done;
  }
  const uq_mp_object_t *version = uq_msgpack_map_get(tree, "amdhsa.version");
  if (!version || version->type != UQ_MP_ARRAY || version->size != 2 ||
      version->via.items[0].type != UQ_MP_UINT ||
      version->via.items[1].type != UQ_MP_UINT ||
      version->via.items[0].via.u64 != 1) {
    status = UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                            "metadata amdhsa.version is missing or not [1, n]");
    goto done;
  }
  status = get_str(tree, "amdhsa.target", 1, co->target, sizeof(co->target));
  if (status)
    goto done;
  const uq_mp_object_t *kernels = uq_msgpack_map_get(tree, "amdhsa.kernels");
  if (!kernels || kernels->type != UQ_MP_ARRAY) {
    status = UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                            "metadata amdhsa.kernels is missing or not an "
                            "array");
    goto done;
  }
  size_t count = kernels->size, total_args = 0;
  for (size_t i = 0; i < count; ++i) {
    const uq_mp_object_t *a =
        uq_msgpack_map_get(&kernels->via.items[i], ".args");
    if (a && a->type == UQ_MP_ARRAY)
      total_args += a->size;
  }
  // Both counts are bounded by the note size (uq_msgpack_decode).
  co->kernels = calloc(count ? count : 1, sizeof(*co->kernels));
  co->args = calloc(total_args ? total_args : 1, sizeof(*co->args));
  if (!co->kernels || !co->args) {
    status = UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED,
                            "cannot allocate %zu kernels", count);
    goto done;
  }
  size_t next_arg = 0;
  for (size_t i = 0; i < count; ++i) {
    status = parse_kernel(&kernels->via.items[i], &co->kernels[i],
                          co->args + next_arg);
    if (status) {
      status = uq_status_annotate(status, "metadata kernel %zu", i);
      goto done;
    }
    next_arg += co->kernels[i].arg_count;
    co->kernel_count = i + 1;
  }
done:
  uq_msgpack_free(tree);
  return status;
}

//===----------------------------------------------------------------------===//
// Kernel descriptors
//===----------------------------------------------------------------------===//

static uq_status_t bind_descriptor(const symtab_t *symtab,
                                   const symtab_t *dynsym,
                                   const uq_code_object_t *co,
                                   uq_kernel_info_t *ki) {
  const uint8_t *sym = lookup_symbol(symtab, ki->symbol);
  if (!sym)
    sym = lookup_symbol(dynsym, ki->symbol);
  if (!sym)
    return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                          "kernel %s: descriptor symbol %s is missing",
                          ki->name, ki->symbol);
  uint8_t info = sym[4];
  uint16_t shndx = rd16(sym + 6);
  uint64_t value = rd64(sym + 8), size = rd64(sym + 16);
  if ((info & 0xf) != kSttObject || size != kDescriptorSize)
    return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                          "kernel %s: %s is not a 64-byte STT_OBJECT (type "
                          "%u, size %" PRIu64 ")",
                          ki->name, ki->symbol, info & 0xf, size);
  if (shndx == kShnUndef || shndx >= kShnLoReserve)
    return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                          "kernel %s: %s is not defined in a section", ki->name,
                          ki->symbol);
  if (!range_ok(value, kDescriptorSize, co->image_size))
    return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                          "kernel %s: descriptor at 0x%" PRIx64
                          " is outside the loaded image",
                          ki->name, value);
  uq_kernel_descriptor_decode(co->image + value, &ki->descriptor);
  ki->descriptor_vaddr = value;
  int64_t entry_offset = ki->descriptor.kernel_code_entry_byte_offset;
  // value < 2^24, so these stay far from int64 overflow.
  int64_t entry = (int64_t)value + (entry_offset > INT32_MAX   ? INT32_MAX
                                    : entry_offset < INT32_MIN ? INT32_MIN
                                                               : entry_offset);
  if (entry < 0 || (uint64_t)entry + 4 > co->image_size)
    return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                          "kernel %s: entry offset %" PRId64
                          " from the descriptor leaves the image",
                          ki->name, entry_offset);
  ki->entry_vaddr = (uint64_t)entry;
  return UQ_OK;
}

//===----------------------------------------------------------------------===//
// Public API
//===----------------------------------------------------------------------===//

uq_status_t uq_code_object_load(const void *data, size_t size,
                                uq_code_object_t **out_code_object) {
  if (!out_code_object)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "out_code_object is NULL");
  *out_code_object = NULL;
  if (!data && size)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT, "data is NULL");
  elf_view_t elf = {data, size};
  uint32_t version = 0;
  if (!data)
    elf.data = (const uint8_t *)"";
  if (elf.size >= kElfHeaderSize &&
      memcmp(elf.data,
             "\x7f"
             "ELF",
             4) == 0 &&
      rd16(elf.data + 18) == UQ_ELF_MACHINE_CUDA) {
    uq_code_object_t *cubin = calloc(1, sizeof(*cubin));
    if (!cubin)
      return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED,
                            "cannot allocate a code object");
    uq_status_t status = uq_cubin_parse(elf.data, elf.size, cubin);
    if (status) {
      uq_code_object_destroy(cubin);
      return uq_status_annotate(status, "cubin");
    }
    *out_code_object = cubin;
    return UQ_OK;
  }
  UQ_RETURN_IF_ERROR(check_header(&elf, &version), "code object");
  uq_code_object_t *co = calloc(1, sizeof(*co));
  if (!co)
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED,
                          "cannot allocate a code object");
  co->version = version;
  sections_t sections;
  symtab_t symtab, dynsym;
  const uint8_t *desc;
  uint64_t desc_size;
  uq_status_t status = build_image(&elf, co);
  if (!status)
    status = read_sections(&elf, &sections);
  if (!status)
    status = find_symtab(&elf, &sections, kShtSymtab, &symtab);
  if (!status)
    status = find_symtab(&elf, &sections, kShtDynsym, &dynsym);
  if (!status && symtab.count == 0 && dynsym.count == 0)
    status = UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS, "ELF has no symbol table");
  if (!status)
    status = find_metadata(&elf, &sections, &desc, &desc_size);
  if (!status)
    status = parse_metadata(desc, desc_size, co);
  for (size_t i = 0; !status && i < co->kernel_count; ++i)
    status = bind_descriptor(&symtab, &dynsym, co, &co->kernels[i]);
  if (status) {
    uq_code_object_destroy(co);
    return uq_status_annotate(status, "code object");
  }
  *out_code_object = co;
  return UQ_OK;
}

uq_status_t uq_code_object_load_file(const char *path,
                                     uq_code_object_t **out_code_object) {
  if (!out_code_object || !path)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT, "NULL argument");
  *out_code_object = NULL;
  FILE *f = fopen(path, "rb");
  if (!f)
    return UQ_MAKE_STATUS(errno == ENOENT ? UQ_STATUS_NOT_FOUND
                                          : UQ_STATUS_INVALID_ARGUMENT,
                          "cannot open '%s': %s", path, strerror(errno));
  uint8_t *buffer = NULL;
  size_t size = 0, capacity = 0;
  uq_status_t status = UQ_OK;
  for (;;) {
    if (size == capacity) {
      if (capacity >= UQ_CODEOBJ_MAX_FILE_SIZE) {
        status = UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                                "'%s' is larger than %" PRIu64 " bytes", path,
                                UQ_CODEOBJ_MAX_FILE_SIZE);
        break;
      }
      capacity = capacity ? capacity * 2 : 65536;
      uint8_t *grown = realloc(buffer, capacity);
      if (!grown) {
        status = UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED,
                                "cannot allocate %zu bytes for '%s'", capacity,
                                path);
        break;
      }
      buffer = grown;
    }
    size_t got = fread(buffer + size, 1, capacity - size, f);
    size += got;
    if (got == 0) {
      // A directory opens but fails to read (EISDIR): a bad path, not data.
      if (ferror(f))
        status = UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                                "cannot read '%s': %s", path, strerror(errno));
      break;
    }
  }
  fclose(f);
  if (!status)
    status = uq_code_object_load(buffer ? buffer : (const uint8_t *)"", size,
                                 out_code_object);
  free(buffer);
  return uq_status_annotate(status, "'%s'", path);
}

void uq_code_object_destroy(uq_code_object_t *code_object) {
  if (!code_object)
    return;
  free(code_object->image);
  free(code_object->kernels);
  free(code_object->args);
  free(code_object);
}

const char *uq_code_object_target(const uq_code_object_t *code_object) {
  return code_object->target;
}

uint32_t uq_code_object_version(const uq_code_object_t *code_object) {
  return code_object->version;
}

size_t uq_code_object_kernel_count(const uq_code_object_t *code_object) {
  return code_object->kernel_count;
}

const uq_kernel_info_t *
uq_code_object_kernel_at(const uq_code_object_t *code_object, size_t index) {
  if (index >= code_object->kernel_count)
    return NULL;
  return &code_object->kernels[index];
}

uq_status_t uq_code_object_find_kernel(const uq_code_object_t *code_object,
                                       const char *name,
                                       const uq_kernel_info_t **out_kernel) {
  if (!out_kernel || !code_object || !name)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT, "NULL argument");
  *out_kernel = NULL;
  for (size_t i = 0; i < code_object->kernel_count; ++i) {
    const uq_kernel_info_t *k = &code_object->kernels[i];
    if (strcmp(k->name, name) == 0 || strcmp(k->symbol, name) == 0) {
      *out_kernel = k;
      return UQ_OK;
    }
  }
  return UQ_MAKE_STATUS(UQ_STATUS_NOT_FOUND,
                        "no kernel named '%s' in the code object", name);
}

const uint8_t *uq_code_object_image(const uq_code_object_t *code_object,
                                    size_t *out_size) {
  if (out_size)
    *out_size = code_object->image_size;
  return code_object->image;
}
