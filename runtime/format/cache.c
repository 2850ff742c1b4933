// The paged UltraQuant cache on the host: layout checks, the slot writer (as
// a server stores new tokens) and the slot reader.
#include <stdint.h>
#include <string.h>

#include "runtime/format/internal.h"
#include "uq/format.h"

bool uq_rows_disjoint_(int64_t n_a, int64_t s_a, int64_t n_b, int64_t s_b,
                       int64_t len) {
  // A dimension with one row has no stride to speak of.
  if (n_a <= 1 && n_b <= 1)
    return true;
  if (n_a <= 1)
    return s_b >= len;
  if (n_b <= 1)
    return s_a >= len;
  if (s_a > s_b) { // make (n_a, s_a) the inner dimension
    int64_t tn = n_a, ts = s_a;
    n_a = n_b, s_a = s_b;
    n_b = tn, s_b = ts;
  }
  if (s_a < len)
    return false;
  // The callers checked with uq_span_fits_ that this does not overflow.
  int64_t inner = (n_a - 1) * s_a + len;
  return s_b >= inner;
}

bool uq_span_fits_(int64_t n_a, int64_t s_a, int64_t n_b, int64_t s_b,
                   int64_t len, int64_t elem_size) {
  if (n_a < 1 || n_b < 1 || s_a < 0 || s_b < 0 || len < 0 || elem_size < 1)
    return false;
  int64_t a, b, total;
  if (__builtin_mul_overflow(n_a - 1, s_a, &a) ||
      __builtin_mul_overflow(n_b - 1, s_b, &b) ||
      __builtin_add_overflow(a, b, &total) ||
      __builtin_add_overflow(total, len, &total) ||
      __builtin_mul_overflow(total, elem_size, &total))
    return false;
  return (uint64_t)total <= (uint64_t)SIZE_MAX;
}

uq_status_t uq_cache_layout_validate(const uq_cache_layout_t *layout) {
  if (!layout)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT, "cache layout is NULL");
  if (layout->num_blocks <= 0)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "num_blocks must be positive, got %lld",
                          (long long)layout->num_blocks);
  if (layout->block_size <= 0)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "block_size must be positive, got %d",
                          (int)layout->block_size);
  if (layout->num_kv_heads <= 0)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "num_kv_heads must be positive, got %d",
                          (int)layout->num_kv_heads);
  UQ_RETURN_IF_ERROR(uq_head_dim_check(layout->head_dim), "cache layout");
  if (layout->padded_slot < UQ_SLOT_CONTENT_BYTES(layout->head_dim) ||
      layout->padded_slot % 4 != 0)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "padded_slot must be >= %d (head dim %d) and a "
                          "multiple of 4, got %d",
                          UQ_SLOT_CONTENT_BYTES(layout->head_dim),
                          (int)layout->head_dim, (int)layout->padded_slot);
  int64_t bytes;
  if (__builtin_mul_overflow(layout->num_blocks, (int64_t)layout->block_size,
                             &bytes) ||
      __builtin_mul_overflow(bytes, (int64_t)layout->num_kv_heads, &bytes) ||
      __builtin_mul_overflow(bytes, (int64_t)layout->padded_slot, &bytes) ||
      (uint64_t)bytes > (uint64_t)SIZE_MAX)
    return UQ_MAKE_STATUS(UQ_STATUS_OUT_OF_RANGE,
                          "cache of %lld blocks x %d tokens x %d heads x %d "
                          "bytes does not fit in memory sizes",
                          (long long)layout->num_blocks,
                          (int)layout->block_size, (int)layout->num_kv_heads,
                          (int)layout->padded_slot);
  return UQ_OK;
}

uq_status_t uq_cache_layout_size(const uq_cache_layout_t *layout,
                                 size_t *out_bytes) {
  if (!out_bytes)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT, "out_bytes is NULL");
  UQ_RETURN_IF_ERROR(uq_cache_layout_validate(layout), "invalid cache layout");
  *out_bytes = (size_t)layout->num_blocks * (size_t)layout->block_size *
               (size_t)layout->num_kv_heads * (size_t)layout->padded_slot;
  return UQ_OK;
}

static uq_status_t check_cache(const uq_cache_layout_t *layout,
                               const void *cache, size_t cache_size) {
  size_t need = 0;
  UQ_RETURN_IF_ERROR(uq_cache_layout_size(layout, &need),
                     "while checking the cache");
  if (!cache)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT, "cache is NULL");
  if (cache_size < need)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "cache holds %zu bytes, the layout needs %zu",
                          cache_size, need);
  return UQ_OK;
}

static uq_status_t check_tensor(const char *name, const uint16_t *data,
                                int64_t num_tokens, int64_t stride_token,
                                int64_t num_heads, int64_t stride_head,
                                int32_t head_dim) {
  if (!data)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT, "%s is NULL", name);
  if (stride_token < 0 || stride_head < 0)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "%s strides must be non-negative, got %lld, %lld",
                          name, (long long)stride_token,
                          (long long)stride_head);
  if (!uq_span_fits_(num_tokens, stride_token, num_heads, stride_head, head_dim,
                     2))
    return UQ_MAKE_STATUS(UQ_STATUS_OUT_OF_RANGE,
                          "%s strides span more than memory can hold", name);
  if (!uq_rows_disjoint_(num_tokens, stride_token, num_heads, stride_head,
                         head_dim))
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "%s strides (token %lld, head %lld) make rows of %d "
                          "elements overlap",
                          name, (long long)stride_token, (long long)stride_head,
                          (int)head_dim);
  return UQ_OK;
}

uq_status_t uq_cache_write(const uq_cache_layout_t *layout, uint8_t *cache,
                           size_t cache_size, const uq_kv_tokens_t *tokens) {
  UQ_RETURN_IF_ERROR(check_cache(layout, cache, cache_size), "uq_cache_write");
  if (!tokens)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT, "tokens is NULL");
  if (tokens->num_tokens < 0)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "num_tokens must be >= 0, got %lld",
                          (long long)tokens->num_tokens);
  UQ_RETURN_IF_ERROR(uq_check_dtype_("dtype", tokens->dtype), "uq_cache_write");
  if (tokens->num_tokens == 0)
    return UQ_OK;
  if (!tokens->slot_mapping)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT, "slot_mapping is NULL");
  UQ_RETURN_IF_ERROR(
      uq_check_aligned_("slot_mapping", tokens->slot_mapping, sizeof(int64_t)),
      "uq_cache_write");
  int64_t heads = layout->num_kv_heads;
  UQ_RETURN_IF_ERROR(check_tensor("key", tokens->key, tokens->num_tokens,
                                  tokens->key_stride_token, heads,
                                  tokens->key_stride_head, layout->head_dim),
                     "uq_cache_write");
  UQ_RETURN_IF_ERROR(check_tensor("value", tokens->value, tokens->num_tokens,
                                  tokens->value_stride_token, heads,
                                  tokens->value_stride_head, layout->head_dim),
                     "uq_cache_write");
  int64_t num_slots = layout->num_blocks * layout->block_size;
  for (int64_t t = 0; t < tokens->num_tokens; ++t) {
    if (tokens->slot_mapping[t] >= num_slots)
      return UQ_MAKE_STATUS(UQ_STATUS_OUT_OF_RANGE,
                            "slot_mapping[%lld] = %lld is past the cache's "
                            "%lld slots",
                            (long long)t, (long long)tokens->slot_mapping[t],
                            (long long)num_slots);
  }
  // Everything is checked: write.
  for (int64_t t = 0; t < tokens->num_tokens; ++t) {
    int64_t slot = tokens->slot_mapping[t];
    if (slot < 0)
      continue;
    for (int64_t h = 0; h < heads; ++h) {
      uint8_t *dst = cache + ((size_t)slot * (size_t)heads + (size_t)h) *
                                 (size_t)layout->padded_slot;
      const uint16_t *k = tokens->key + t * tokens->key_stride_token +
                          h * tokens->key_stride_head;
      const uint16_t *v = tokens->value + t * tokens->value_stride_token +
                          h * tokens->value_stride_head;
      uq_format_slot_encode_(layout->head_dim, tokens->dtype, k, v, dst);
    }
  }
  return UQ_OK;
}

uq_status_t uq_cache_read_slot(const uq_cache_layout_t *layout,
                               const uint8_t *cache, size_t cache_size,
                               int64_t block, int32_t offset, int32_t kv_head,
                               float *out_k_rot, float *out_v) {
  UQ_RETURN_IF_ERROR(check_cache(layout, cache, cache_size),
                     "uq_cache_read_slot");
  if (!out_k_rot || !out_v)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "output arrays must not be NULL");
  if (block < 0 || block >= layout->num_blocks || offset < 0 ||
      offset >= layout->block_size || kv_head < 0 ||
      kv_head >= layout->num_kv_heads)
    return UQ_MAKE_STATUS(UQ_STATUS_OUT_OF_RANGE,
                          "slot (block %lld, offset %d, head %d) is outside "
                          "the cache (%lld blocks, %d tokens, %d heads)",
                          (long long)block, (int)offset, (int)kv_head,
                          (long long)layout->num_blocks,
                          (int)layout->block_size, (int)layout->num_kv_heads);
  size_t index = ((size_t)block * (size_t)layout->block_size + (size_t)offset) *
                     (size_t)layout->num_kv_heads +
                 (size_t)kv_head;
  uq_format_slot_decode_(layout->head_dim,
                         cache + index * (size_t)layout->padded_slot, out_k_rot,
                         out_v);
  return UQ_OK;
}
