// MessagePack decoding (format: github.com/msgpack/msgpack/blob/master/
// spec.md). Two passes over the input: the first checks every header and
// counts the objects (each takes at least one byte, so the count is at most
// the input size); the second fills one array of that many nodes, children
// of a container in consecutive nodes, without recursion (nesting depth is
// bounded by the input, not by the C stack).
#include "codeobj/msgpack.h"

#include <stdlib.h>
#include <string.h>

// One object's header: its type, its scalar value or payload, and how many
// child objects follow it (2 per map pair).
typedef struct header_s {
  uq_mp_object_t object;
  uint64_t children;
} header_t;

static uint64_t read_be(const uint8_t *p, unsigned width) {
  uint64_t v = 0;
  for (unsigned i = 0; i < width; ++i)
    v = v << 8 | p[i];
  return v;
}

// Reads the header at *pos and skips its payload. Returns 0, or -1 when the
// byte is unused (0xc1), the input ends early, or a count exceeds what the
// rest of the input could hold.
static int read_header(const uint8_t *data, size_t size, size_t *pos,
                       header_t *out) {
  memset(out, 0, sizeof(*out));
  if (*pos >= size)
    return -1;
  uint8_t b = data[(*pos)++];
  size_t left = size - *pos;
  const uint8_t *p = data + *pos;
  uq_mp_object_t *o = &out->object;
  uint64_t payload = 0; // bytes of STR/BIN/EXT data, or of a fixed scalar
  uint64_t count = 0;   // container elements (pairs for maps)
  unsigned width = 0;   // width of the length or count field
  if (b <= 0x7f) {
    o->type = UQ_MP_UINT, o->via.u64 = b;
  } else if (b >= 0xe0) {
    o->type = UQ_MP_INT, o->via.i64 = (int8_t)b;
  } else if (b <= 0x8f) {
    o->type = UQ_MP_MAP, count = b & 0x0f;
  } else if (b <= 0x9f) {
    o->type = UQ_MP_ARRAY, count = b & 0x0f;
  } else if (b <= 0xbf) {
    o->type = UQ_MP_STR, payload = b & 0x1f;
  } else {
    switch (b) {
    case 0xc0:
      o->type = UQ_MP_NIL;
      break;
    case 0xc2:
    case 0xc3:
      o->type = UQ_MP_BOOL, o->via.boolean = b == 0xc3;
      break;
    case 0xc4:
    case 0xc5:
    case 0xc6: // bin 8/16/32
      o->type = UQ_MP_BIN, width = 1u << (b - 0xc4);
      break;
    case 0xc7:
    case 0xc8:
    case 0xc9: // ext 8/16/32
      o->type = UQ_MP_EXT, width = 1u << (b - 0xc7);
      break;
    case 0xca:
    case 0xcb: // float 32/64
      o->type = UQ_MP_FLOAT, width = b == 0xca ? 4 : 8;
      break;
    case 0xcc:
    case 0xcd:
    case 0xce:
    case 0xcf: // uint 8..64
      o->type = UQ_MP_UINT, width = 1u << (b - 0xcc);
      break;
    case 0xd0:
    case 0xd1:
    case 0xd2:
    case 0xd3: // int 8..64
      o->type = UQ_MP_INT, width = 1u << (b - 0xd0);
      break;
    case 0xd4:
    case 0xd5:
    case 0xd6:
    case 0xd7:
    case 0xd8: // fixext 1..16
      o->type = UQ_MP_EXT, payload = 1u << (b - 0xd4);
      break;
    case 0xd9:
    case 0xda:
    case 0xdb: // str 8/16/32
      o->type = UQ_MP_STR, width = 1u << (b - 0xd9);
      break;
    case 0xdc:
    case 0xdd: // array 16/32
      o->type = UQ_MP_ARRAY, width = b == 0xdc ? 2 : 4;
      break;
    case 0xde:
    case 0xdf: // map 16/32
      o->type = UQ_MP_MAP, width = b == 0xde ? 2 : 4;
      break;
    default:
      return -1; // 0xc1: never used
    }
  }
  if (width) {
    if (left < width)
      return -1;
    uint64_t v = read_be(p, width);
    *pos += width, left -= width, p += width;
    switch (o->type) {
    case UQ_MP_UINT:
      o->via.u64 = v;
      break;
    case UQ_MP_INT: {
      // Sign-extend from `width` bytes; non-negative values are UINT.
      unsigned shift = 64 - 8 * width;
      int64_t s = (int64_t)(v << shift) >> shift;
      if (s >= 0)
        o->type = UQ_MP_UINT, o->via.u64 = (uint64_t)s;
      else
        o->via.i64 = s;
      break;
    }
    case UQ_MP_FLOAT:
      if (width == 4) {
        uint32_t bits = (uint32_t)v;
        float f;
        memcpy(&f, &bits, sizeof(f));
        o->via.f64 = f;
      } else {
        memcpy(&o->via.f64, &v, sizeof(o->via.f64));
      }
      break;
    case UQ_MP_ARRAY:
    case UQ_MP_MAP:
      count = v;
      break;
    default: // STR, BIN, EXT: a length
      payload = v;
      break;
    }
  }
  if (o->type == UQ_MP_EXT)
    ++payload; // the type byte
  if (o->type == UQ_MP_STR || o->type == UQ_MP_BIN || o->type == UQ_MP_EXT) {
    if (payload > left || payload - (o->type == UQ_MP_EXT) > UINT32_MAX)
      return -1;
    o->size = (uint32_t)(payload - (o->type == UQ_MP_EXT));
    o->via.bytes = p + (o->type == UQ_MP_EXT);
    *pos += payload;
  }
  if (o->type == UQ_MP_ARRAY || o->type == UQ_MP_MAP) {
    out->children = o->type == UQ_MP_MAP ? 2 * count : count;
    if (out->children > left) // each child takes at least one byte
      return -1;
    o->size = (uint32_t)count;
  }
  return 0;
}

// Pass 1: the number of objects in the first object, or 0 when malformed.
static size_t count_objects(const uint8_t *data, size_t size) {
  size_t pos = 0, objects = 0;
  uint64_t pending = 1;
  while (pending > 0) {
    header_t h;
    if (read_header(data, size, &pos, &h) != 0)
      return 0;
    ++objects;
    pending = pending - 1 + h.children;
    if (pending > size - pos) // every pending object needs a byte
      return 0;
  }
  return objects;
}

// A container being filled in pass 2.
typedef struct frame_s {
  uq_mp_object_t *items;
  uint64_t count, next;
} frame_t;

uq_status_t uq_msgpack_decode(const uint8_t *data, size_t size,
                              uq_mp_object_t **out_root) {
  *out_root = NULL;
  if (!data && size)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT, "NULL MessagePack data");
  size_t total = count_objects(data, size);
  if (total == 0)
    return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS, "not valid MessagePack");
  uq_mp_object_t *nodes = calloc(total, sizeof(*nodes));
  frame_t *stack = calloc(total, sizeof(*stack));
  if (!nodes || !stack) {
    free(nodes);
    free(stack);
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED,
                          "cannot allocate %zu MessagePack nodes", total);
  }
  size_t pos = 0, used = 1, depth = 0;
  uq_mp_object_t *target = &nodes[0];
  for (;;) {
    header_t h;
    // Pass 1 accepted this input, so neither read nor reservation fails.
    if (read_header(data, size, &pos, &h) != 0 || h.children > total - used) {
      free(nodes);
      free(stack);
      return UQ_MAKE_STATUS(UQ_STATUS_INTERNAL, "MessagePack passes disagree");
    }
    *target = h.object;
    if (h.children) {
      stack[depth++] = (frame_t){&nodes[used], h.children, 0};
      target->via.items = &nodes[used];
      used += h.children;
    }
    while (depth && stack[depth - 1].next == stack[depth - 1].count)
      --depth;
    if (!depth)
      break;
    target = &stack[depth - 1].items[stack[depth - 1].next++];
  }
  free(stack);
  *out_root = nodes;
  return UQ_OK;
}

void uq_msgpack_free(uq_mp_object_t *root) { free(root); }

const uq_mp_object_t *uq_msgpack_map_get(const uq_mp_object_t *map,
                                         const char *key) {
  if (!map || map->type != UQ_MP_MAP)
    return NULL;
  size_t length = strlen(key);
  for (uint32_t i = 0; i < map->size; ++i) {
    const uq_mp_object_t *k = &map->via.items[2 * i];
    if (k->type == UQ_MP_STR && k->size == length &&
        memcmp(k->via.bytes, key, length) == 0)
      return &map->via.items[2 * i + 1];
  }
  return NULL;
}
