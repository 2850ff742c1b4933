// A small MessagePack reader for the AMDHSA metadata note, so that the code-
// object reader (and through it libuqrt) needs no libmsgpackc at run time.
// It decodes one object into a tree of nodes in a single allocation; strings
// and binaries point into the input, which must outlive the tree. Every count
// in the input is checked against the bytes left before anything is sized
// from it, so the allocation is bounded by a small multiple of the input.
#ifndef UQ_CODEOBJ_MSGPACK_H_
#define UQ_CODEOBJ_MSGPACK_H_

#include <stddef.h>
#include <stdint.h>

#include "uq/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum uq_mp_type_e {
  UQ_MP_NIL,
  UQ_MP_BOOL,
  UQ_MP_UINT, // every integer >= 0, whatever its encoding (as msgpack-c)
  UQ_MP_INT,  // negative integers
  UQ_MP_FLOAT,
  UQ_MP_STR,
  UQ_MP_BIN,
  UQ_MP_EXT,
  UQ_MP_ARRAY,
  UQ_MP_MAP,
} uq_mp_type_t;

typedef struct uq_mp_object_s uq_mp_object_t;
struct uq_mp_object_s {
  uq_mp_type_t type;
  // STR/BIN/EXT: bytes; ARRAY: elements; MAP: key-value pairs.
  uint32_t size;
  union {
    int boolean;
    uint64_t u64;
    int64_t i64;
    double f64;
    const uint8_t *bytes;        // STR, BIN, EXT (EXT: after the type byte)
    const uq_mp_object_t *items; // ARRAY: size nodes; MAP: key, value, ...
  } via;
};

// Decodes the first object of [data, data + size) (bytes after it are
// ignored). On success *out_root is the root node; release it with
// uq_msgpack_free. Malformed or truncated input is DATA_LOSS.
UQ_MUST_USE uq_status_t uq_msgpack_decode(const uint8_t *data, size_t size,
                                          uq_mp_object_t **out_root);
void uq_msgpack_free(uq_mp_object_t *root);

// The value of string key `key` in `map`, or NULL when `map` is not a map or
// has no such key.
const uq_mp_object_t *uq_msgpack_map_get(const uq_mp_object_t *map,
                                         const char *key);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // UQ_CODEOBJ_MSGPACK_H_
