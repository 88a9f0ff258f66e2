// Whether this browser runs relaxed SIMD's 8-bit dot product as the finished standard defines it,
// so the CPU engine can load the runtime whose 4-bit kernels use it (scripts/runtime-kernels).
// Validating a module that uses the instruction says whether it exists; running it on known
// values says whether it means what the kernels rely on (an early draft of the proposal, still
// behind a flag in some engines, ordered its operands otherwise).

/**
 * A module exporting `dot()`: lane 0 of i32x4.relaxed_dot_i8x16_i7x16_add_s on a = (-100, -100,
 * 0…), b = (3, 5, 0…), c = (7, 0, 0, 0), which is -100·3 + -100·5 + 7 = -793.
 */
const PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7f, // type: () -> i32
  0x03, 0x02, 0x01, 0x00, // one function of that type
  0x07, 0x07, 0x01, 0x03, 0x64, 0x6f, 0x74, 0x00, 0x00, // export "dot"
  0x0a, 0x40, 0x01, 0x3e, 0x00, // code: one body of 62 bytes, no locals
  0xfd, 0x0c, 0x9c, 0x9c, ...new Array<number>(14).fill(0), // v128.const a
  0xfd, 0x0c, 0x03, 0x05, ...new Array<number>(14).fill(0), // v128.const b
  0xfd, 0x0c, 0x07, ...new Array<number>(15).fill(0), // v128.const c
  0xfd, 0x93, 0x02, // i32x4.relaxed_dot_i8x16_i7x16_add_s
  0xfd, 0x1b, 0x00, // i32x4.extract_lane 0
  0x0b, // end
]);

export function relaxedSimdWorks(): boolean {
  try {
    if (!WebAssembly.validate(PROBE)) return false;
    const { dot } = new WebAssembly.Instance(new WebAssembly.Module(PROBE)).exports as { dot: () => number };
    return dot() === -793;
  } catch {
    return false;
  }
}
