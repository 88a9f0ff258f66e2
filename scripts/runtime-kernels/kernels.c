// Dot products of llama.cpp's quantized weight blocks with its 8-bit activation blocks, written
// with WebAssembly SIMD for the page's runtime. The shipped wllama.wasm runs the 4-bit ones in plain
// scalar code and q8_0's half-vectorised: Emscripten's CMake toolchain reports the processor as
// "x86", so ggml does not take its WebAssembly branch and builds its generic kernels
// (docs/cpu-engine.md, "Where the time goes"). patch-runtime.ts puts these bodies in place of
// those functions.
//
// Built twice by build-kernels.sh: kernels.wasm with WebAssembly SIMD alone, and
// kernels-relaxed.wasm with relaxed SIMD's 8-bit dot product as well (one instruction for 16
// products where plain SIMD widens to 16 bits first), for browsers that have it.
//
// Results are bit-identical to the generic kernels in both builds: the integer part of each block
// is exact in any order (the relaxed dot product is exact too, since its second operand, a nibble,
// has its top bit clear), and the floating-point part is the generic kernels' operations in their
// order: four blocks' terms are computed side by side, lane by lane as the scalar code would, and
// added into the sum one block after the other. WebAssembly has no fused multiply-add to contract
// them into (build with -ffp-contract=off all the same). Each function keeps the signature of the
// one it replaces; none calls anything or touches a global, so its body means the same inside the
// runtime (build-kernels.sh checks that).
#include <stddef.h>
#include <stdint.h>
#include <wasm_simd128.h>

typedef struct { uint16_t d, m; uint8_t qs[16]; } block_q4_1;
typedef struct { uint16_t d, s; int8_t qs[32]; } block_q8_1;
typedef struct { uint16_t d; uint8_t qs[16]; } block_q4_0;
typedef struct { uint16_t d; int8_t qs[32]; } block_q8_0;

// IEEE half to float, exact for every value: the half's exponent and mantissa bits moved into a
// float's and scaled by 2^112 (the difference of the two biases), which also turns a half's
// subnormals into the right normal floats; infinities and NaNs keep the all-ones exponent.
static inline float half_to_float(uint16_t half) {
  uint32_t bits = (uint32_t)(half & 0x7fff) << 13;
  float value;
  __builtin_memcpy(&value, &bits, 4);
  value *= 0x1p112f;
  uint32_t out;
  __builtin_memcpy(&out, &value, 4);
  if ((half & 0x7c00) == 0x7c00) out = bits | 0x7f800000u;
  out |= (uint32_t)(half & 0x8000) << 16;
  __builtin_memcpy(&value, &out, 4);
  return value;
}

// Four halves (the low 16 bits of each lane) to four floats, by the same steps as half_to_float.
static inline v128_t halves_to_floats(v128_t halves) {
  const v128_t bits = wasm_i32x4_shl(wasm_v128_and(halves, wasm_i32x4_splat(0x7fff)), 13);
  v128_t value = wasm_f32x4_mul(bits, wasm_f32x4_splat(0x1p112f));
  const v128_t special = wasm_i32x4_eq(wasm_v128_and(halves, wasm_i32x4_splat(0x7c00)), wasm_i32x4_splat(0x7c00));
  value = wasm_v128_bitselect(wasm_v128_or(bits, wasm_i32x4_splat(0x7f800000)), value, special);
  return wasm_v128_or(value, wasm_i32x4_shl(wasm_v128_and(halves, wasm_i32x4_splat(0x8000)), 16));
}

// i32x4 partial sums of one block's 32 products: low nibbles against the first 16 activations,
// high nibbles against the last 16.
static inline v128_t nibble_dot_lanes(v128_t packed, const int8_t *activations) {
  const v128_t low = wasm_v128_and(packed, wasm_i8x16_splat(0x0f));
  const v128_t high = wasm_u8x16_shr(packed, 4);
  const v128_t first = wasm_v128_load(activations);
  const v128_t second = wasm_v128_load(activations + 16);
#ifdef __wasm_relaxed_simd__
  // Deterministic: the second operand (a nibble, 0..15) has its top bit clear.
  return wasm_i32x4_relaxed_dot_i8x16_i7x16_add(second, high, wasm_i32x4_relaxed_dot_i8x16_i7x16_add(first, low, wasm_i32x4_const_splat(0)));
#else
  return wasm_i32x4_add(
      wasm_i32x4_add(wasm_i32x4_dot_i16x8(wasm_u16x8_extend_low_u8x16(low), wasm_i16x8_extend_low_i8x16(first)),
                     wasm_i32x4_dot_i16x8(wasm_u16x8_extend_high_u8x16(low), wasm_i16x8_extend_high_i8x16(first))),
      wasm_i32x4_add(wasm_i32x4_dot_i16x8(wasm_u16x8_extend_low_u8x16(high), wasm_i16x8_extend_low_i8x16(second)),
                     wasm_i32x4_dot_i16x8(wasm_u16x8_extend_high_u8x16(high), wasm_i16x8_extend_high_i8x16(second))));
#endif
}

// One block's lane sums added up (the blocks left over after the groups of four).
static inline int32_t lanes_sum(v128_t v) {
  return wasm_i32x4_extract_lane(v, 0) + wasm_i32x4_extract_lane(v, 1) + wasm_i32x4_extract_lane(v, 2) + wasm_i32x4_extract_lane(v, 3);
}

// Four blocks' lane sums to one vector of four block sums (integer, exact in any order).
static inline v128_t four_sums(v128_t a, v128_t b, v128_t c, v128_t d) {
  const v128_t ab = wasm_i32x4_add(wasm_i32x4_shuffle(a, b, 0, 4, 1, 5), wasm_i32x4_shuffle(a, b, 2, 6, 3, 7));
  const v128_t cd = wasm_i32x4_add(wasm_i32x4_shuffle(c, d, 0, 4, 1, 5), wasm_i32x4_shuffle(c, d, 2, 6, 3, 7));
  return wasm_i32x4_add(wasm_i32x4_shuffle(ab, cd, 0, 1, 4, 5), wasm_i32x4_shuffle(ab, cd, 2, 3, 6, 7));
}

// i32x4 partial sums of one 8-bit block's 32 activations.
static inline v128_t activation_sum_lanes(const int8_t *activations) {
  const v128_t first = wasm_v128_load(activations);
  const v128_t second = wasm_v128_load(activations + 16);
  return wasm_i32x4_extadd_pairwise_i16x8(wasm_i16x8_add(wasm_i16x8_extadd_pairwise_i8x16(first), wasm_i16x8_extadd_pairwise_i8x16(second)));
}

// The sum with four blocks' terms added one after the other, in the generic kernels' order.
static inline float add_in_order(float sum, v128_t terms) {
  sum += wasm_f32x4_extract_lane(terms, 0);
  sum += wasm_f32x4_extract_lane(terms, 1);
  sum += wasm_f32x4_extract_lane(terms, 2);
  sum += wasm_f32x4_extract_lane(terms, 3);
  return sum;
}

// A 32-bit word from any address (a block's two adjacent halves).
static inline uint32_t load32(const void *at) { uint32_t v; __builtin_memcpy(&v, at, 4); return v; }

// In place of ggml_vec_dot_q4_1_q8_1: sum over blocks of (d_x * d_y) * dot + m_x * s_y.
__attribute__((export_name("q4_1_q8_1_dot")))
void q4_1_q8_1_dot(int n, float *result, size_t bs, const void *vx, size_t bx, const void *vy, size_t by, int nrc) {
  (void)bs, (void)bx, (void)by, (void)nrc;
  const block_q4_1 *x = vx;
  const block_q8_1 *y = vy;
  const int blocks = n / 32;
  float sum = 0;
  int block = 0;
  for (; block + 4 <= blocks; block += 4) {
    const v128_t dots = wasm_f32x4_convert_i32x4(four_sums(
        nibble_dot_lanes(wasm_v128_load(x[block].qs), y[block].qs), nibble_dot_lanes(wasm_v128_load(x[block + 1].qs), y[block + 1].qs),
        nibble_dot_lanes(wasm_v128_load(x[block + 2].qs), y[block + 2].qs), nibble_dot_lanes(wasm_v128_load(x[block + 3].qs), y[block + 3].qs)));
    // Each block's (d, m) and (d, s) pairs, one 32-bit word each.
    const v128_t xdm = wasm_u32x4_make(load32(&x[block]), load32(&x[block + 1]), load32(&x[block + 2]), load32(&x[block + 3]));
    const v128_t yds = wasm_u32x4_make(load32(&y[block]), load32(&y[block + 1]), load32(&y[block + 2]), load32(&y[block + 3]));
    const v128_t low16 = wasm_i32x4_splat(0xffff);
    const v128_t xd = halves_to_floats(wasm_v128_and(xdm, low16)), xm = halves_to_floats(wasm_u32x4_shr(xdm, 16));
    const v128_t yd = halves_to_floats(wasm_v128_and(yds, low16)), ys = halves_to_floats(wasm_u32x4_shr(yds, 16));
    const v128_t terms = wasm_f32x4_add(wasm_f32x4_mul(wasm_f32x4_mul(xd, yd), dots), wasm_f32x4_mul(xm, ys));
    sum = add_in_order(sum, terms);
  }
  for (; block < blocks; block++) {
    const int32_t dot = lanes_sum(nibble_dot_lanes(wasm_v128_load(x[block].qs), y[block].qs));
    sum += (half_to_float(x[block].d) * half_to_float(y[block].d)) * (float)dot + half_to_float(x[block].m) * half_to_float(y[block].s);
  }
  *result = sum;
}

// In place of ggml_vec_dot_q4_0_q8_0: sum over blocks of (dot of (nibble - 8) and y) * d_x * d_y.
__attribute__((export_name("q4_0_q8_0_dot")))
void q4_0_q8_0_dot(int n, float *result, size_t bs, const void *vx, size_t bx, const void *vy, size_t by, int nrc) {
  (void)bs, (void)bx, (void)by, (void)nrc;
  const block_q4_0 *x = vx;
  const block_q8_0 *y = vy;
  const int blocks = n / 32;
  float sum = 0;
  int block = 0;
  // q4_0's nibbles are offset by 8: the dot of (nibble - 8) and y is dot(nibble, y) - 8 * sum(y).
#define Q4_0_LANES(b) wasm_i32x4_sub(nibble_dot_lanes(wasm_v128_load(x[b].qs), y[b].qs), wasm_i32x4_shl(activation_sum_lanes(y[b].qs), 3))
  for (; block + 4 <= blocks; block += 4) {
    const v128_t dots = wasm_f32x4_convert_i32x4(four_sums(Q4_0_LANES(block), Q4_0_LANES(block + 1), Q4_0_LANES(block + 2), Q4_0_LANES(block + 3)));
    const v128_t xd = halves_to_floats(wasm_u32x4_make(x[block].d, x[block + 1].d, x[block + 2].d, x[block + 3].d));
    const v128_t yd = halves_to_floats(wasm_u32x4_make(y[block].d, y[block + 1].d, y[block + 2].d, y[block + 3].d));
    const v128_t terms = wasm_f32x4_mul(wasm_f32x4_mul(dots, xd), yd);
    sum = add_in_order(sum, terms);
  }
  for (; block < blocks; block++) {
    const int32_t dot = lanes_sum(Q4_0_LANES(block));
    sum += (float)dot * half_to_float(x[block].d) * half_to_float(y[block].d);
  }
#undef Q4_0_LANES
  *result = sum;
}

// i32x4 partial sums of one block's 32 products of signed 8-bit values (both operands may hold
// -128, so no 7-bit shortcut: widened to 16 bits and dotted in pairs).
static inline v128_t signed_dot_lanes(const int8_t *a, const int8_t *b) {
  const v128_t a0 = wasm_v128_load(a), a1 = wasm_v128_load(a + 16);
  const v128_t b0 = wasm_v128_load(b), b1 = wasm_v128_load(b + 16);
  return wasm_i32x4_add(
      wasm_i32x4_add(wasm_i32x4_dot_i16x8(wasm_i16x8_extend_low_i8x16(a0), wasm_i16x8_extend_low_i8x16(b0)),
                     wasm_i32x4_dot_i16x8(wasm_i16x8_extend_high_i8x16(a0), wasm_i16x8_extend_high_i8x16(b0))),
      wasm_i32x4_add(wasm_i32x4_dot_i16x8(wasm_i16x8_extend_low_i8x16(a1), wasm_i16x8_extend_low_i8x16(b1)),
                     wasm_i32x4_dot_i16x8(wasm_i16x8_extend_high_i8x16(a1), wasm_i16x8_extend_high_i8x16(b1))));
}

// In place of ggml_vec_dot_q8_0_q8_0: sum over blocks of dot * (d_x * d_y).
__attribute__((export_name("q8_0_q8_0_dot")))
void q8_0_q8_0_dot(int n, float *result, size_t bs, const void *vx, size_t bx, const void *vy, size_t by, int nrc) {
  (void)bs, (void)bx, (void)by, (void)nrc;
  const block_q8_0 *x = vx;
  const block_q8_0 *y = vy;
  const int blocks = n / 32;
  float sum = 0;
  int block = 0;
  for (; block + 4 <= blocks; block += 4) {
    const v128_t dots = wasm_f32x4_convert_i32x4(four_sums(signed_dot_lanes(x[block].qs, y[block].qs), signed_dot_lanes(x[block + 1].qs, y[block + 1].qs),
                                                           signed_dot_lanes(x[block + 2].qs, y[block + 2].qs), signed_dot_lanes(x[block + 3].qs, y[block + 3].qs)));
    const v128_t xd = halves_to_floats(wasm_u32x4_make(x[block].d, x[block + 1].d, x[block + 2].d, x[block + 3].d));
    const v128_t yd = halves_to_floats(wasm_u32x4_make(y[block].d, y[block + 1].d, y[block + 2].d, y[block + 3].d));
    const v128_t terms = wasm_f32x4_mul(dots, wasm_f32x4_mul(xd, yd));
    sum = add_in_order(sum, terms);
  }
  for (; block < blocks; block++) {
    const int32_t dot = lanes_sum(signed_dot_lanes(x[block].qs, y[block].qs));
    sum += (float)dot * (half_to_float(x[block].d) * half_to_float(y[block].d));
  }
  *result = sum;
}
