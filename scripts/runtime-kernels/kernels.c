// Dot products of llama.cpp's 4-bit blocks with its 8-bit activation blocks, written with
// WebAssembly SIMD for the page's runtime. The shipped wllama.wasm runs these two in plain scalar
// code: Emscripten's CMake toolchain reports the processor as "x86", so ggml does not take its
// WebAssembly branch and builds its generic kernels, and the compiler does not vectorise the
// 4-bit ones (docs/cpu-engine.md, "Where the time goes"). patch-runtime.ts puts these bodies in
// place of those functions.
//
// Results are bit-identical to the generic kernels: the integer part of each block is exact in any
// order, and the floating-point part is done in the generic kernels' order, one block after the
// other, with the same operations (WebAssembly has no fused multiply-add to contract them into).
// Each function keeps the signature of the one it replaces; none calls anything or touches a
// global, so its body means the same inside the runtime (build-kernels.sh checks that).
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

// The sum of 32 products of unsigned 4-bit values (low nibbles against the first 16 activations,
// high nibbles against the last 16) with signed 8-bit activations, as 16-bit pairwise dots.
static inline int32_t nibble_dot(v128_t packed, const int8_t *activations) {
  const v128_t low = wasm_v128_and(packed, wasm_i8x16_splat(0x0f));
  const v128_t high = wasm_u8x16_shr(packed, 4);
  const v128_t first = wasm_v128_load(activations);
  const v128_t second = wasm_v128_load(activations + 16);
  const v128_t sums = wasm_i32x4_add(
      wasm_i32x4_add(wasm_i32x4_dot_i16x8(wasm_u16x8_extend_low_u8x16(low), wasm_i16x8_extend_low_i8x16(first)),
                     wasm_i32x4_dot_i16x8(wasm_u16x8_extend_high_u8x16(low), wasm_i16x8_extend_high_i8x16(first))),
      wasm_i32x4_add(wasm_i32x4_dot_i16x8(wasm_u16x8_extend_low_u8x16(high), wasm_i16x8_extend_low_i8x16(second)),
                     wasm_i32x4_dot_i16x8(wasm_u16x8_extend_high_u8x16(high), wasm_i16x8_extend_high_i8x16(second))));
  return wasm_i32x4_extract_lane(sums, 0) + wasm_i32x4_extract_lane(sums, 1) + wasm_i32x4_extract_lane(sums, 2) +
         wasm_i32x4_extract_lane(sums, 3);
}

// The sum of one 8-bit block's 32 activations (q4_0's offset of 8 is taken out with it).
static inline int32_t activation_sum(const int8_t *activations) {
  const v128_t first = wasm_v128_load(activations);
  const v128_t second = wasm_v128_load(activations + 16);
  const v128_t pairs = wasm_i16x8_add(wasm_i16x8_extadd_pairwise_i8x16(first), wasm_i16x8_extadd_pairwise_i8x16(second));
  const v128_t quads = wasm_i32x4_extadd_pairwise_i16x8(pairs);
  return wasm_i32x4_extract_lane(quads, 0) + wasm_i32x4_extract_lane(quads, 1) + wasm_i32x4_extract_lane(quads, 2) +
         wasm_i32x4_extract_lane(quads, 3);
}

// In place of ggml_vec_dot_q4_1_q8_1: sum over blocks of (d_x * d_y) * dot + m_x * s_y.
__attribute__((export_name("q4_1_q8_1_dot")))
void q4_1_q8_1_dot(int n, float *result, size_t bs, const void *vx, size_t bx, const void *vy, size_t by, int nrc) {
  (void)bs, (void)bx, (void)by, (void)nrc;
  const block_q4_1 *x = vx;
  const block_q8_1 *y = vy;
  float sum = 0;
  for (int block = 0; block < n / 32; block++) {
    const int32_t dot = nibble_dot(wasm_v128_load(x[block].qs), y[block].qs);
    sum += (half_to_float(x[block].d) * half_to_float(y[block].d)) * (float)dot +
           half_to_float(x[block].m) * half_to_float(y[block].s);
  }
  *result = sum;
}

// In place of ggml_vec_dot_q4_0_q8_0: sum over blocks of (dot of (nibble - 8) and y) * d_x * d_y.
__attribute__((export_name("q4_0_q8_0_dot")))
void q4_0_q8_0_dot(int n, float *result, size_t bs, const void *vx, size_t bx, const void *vy, size_t by, int nrc) {
  (void)bs, (void)bx, (void)by, (void)nrc;
  const block_q4_0 *x = vx;
  const block_q8_0 *y = vy;
  float sum = 0;
  for (int block = 0; block < n / 32; block++) {
    const int32_t dot = nibble_dot(wasm_v128_load(x[block].qs), y[block].qs) - 8 * activation_sum(y[block].qs);
    sum += (float)dot * half_to_float(x[block].d) * half_to_float(y[block].d);
  }
  *result = sum;
}
