// The lab's q4_1 kernel (scripts/runtime-kernels/kernels.c) taken apart, to measure where a
// decoded token's time in it goes: the whole kernel, its integer part alone (nibble dot products
// and the sums of four blocks, no scales), and its float part alone (the blocks' half-precision
// scales converted and combined, with a constant for the dot products). Built with clang-19 by
// bench/kernel-parts.ts; figures only.
#include "../../scripts/runtime-kernels/kernels.c"

typedef void (*dot_fn)(int, float *, size_t, const void *, size_t, const void *, size_t, int);

static void integer_part(int n, float *result, size_t bs, const void *vx, size_t bx, const void *vy, size_t by, int nrc) {
  (void)bs, (void)bx, (void)by, (void)nrc;
  const block_q4_1 *x = vx;
  const block_q8_1 *y = vy;
  const int blocks = n / 32;
  v128_t sum = wasm_f32x4_splat(0);
  for (int block = 0; block + 4 <= blocks; block += 4)
    sum = wasm_f32x4_add(sum, wasm_f32x4_convert_i32x4(four_sums(
        nibble_dot_lanes(wasm_v128_load(x[block].qs), y[block].qs), nibble_dot_lanes(wasm_v128_load(x[block + 1].qs), y[block + 1].qs),
        nibble_dot_lanes(wasm_v128_load(x[block + 2].qs), y[block + 2].qs), nibble_dot_lanes(wasm_v128_load(x[block + 3].qs), y[block + 3].qs))));
  *result = wasm_f32x4_extract_lane(sum, 0) + wasm_f32x4_extract_lane(sum, 3);
}

static void float_part(int n, float *result, size_t bs, const void *vx, size_t bx, const void *vy, size_t by, int nrc) {
  (void)bs, (void)bx, (void)by, (void)nrc;
  const block_q4_1 *x = vx;
  const block_q8_1 *y = vy;
  const int blocks = n / 32;
  float sum = 0;
  const v128_t dots = wasm_f32x4_splat(3.0f);
  for (int block = 0; block + 4 <= blocks; block += 4) {
    const v128_t xdm = wasm_u32x4_make(load32(&x[block]), load32(&x[block + 1]), load32(&x[block + 2]), load32(&x[block + 3]));
    const v128_t yds = wasm_u32x4_make(load32(&y[block]), load32(&y[block + 1]), load32(&y[block + 2]), load32(&y[block + 3]));
    const v128_t low16 = wasm_i32x4_splat(0xffff);
    const v128_t xd = halves_to_floats(wasm_v128_and(xdm, low16)), xm = halves_to_floats(wasm_u32x4_shr(xdm, 16));
    const v128_t yd = halves_to_floats(wasm_v128_and(yds, low16)), ys = halves_to_floats(wasm_u32x4_shr(yds, 16));
    sum = add_in_order(sum, wasm_f32x4_add(wasm_f32x4_mul(wasm_f32x4_mul(xd, yd), dots), wasm_f32x4_mul(xm, ys)));
  }
  *result = sum;
}

static dot_fn parts[3] = { q4_1_q8_1_dot, integer_part, float_part };

/** Each row of a rows × n matrix dotted with one activation row, `repeats` times, through a function pointer as ggml calls it. */
__attribute__((export_name("rows")))
void rows(int part, int count, int n, const uint8_t *x, const uint8_t *y, float *out, int repeats) {
  const dot_fn dot = parts[part];
  for (int r = 0; r < repeats; r++)
    for (int i = 0; i < count; i++) dot(n, out + i, 0, x + (size_t)i * (size_t)(n / 32) * 20, 0, y, 0, 1);
}

static unsigned char heap[1 << 24];
__attribute__((export_name("heap"))) void *heap_start(void) { return heap; }
