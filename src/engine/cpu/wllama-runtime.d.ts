// The CPU engine's runtimes (wllama.wasm with the lab's SIMD kernels), made by the Vite plugin in
// scripts/runtime-kernels/vite-plugin.ts: the URLs the page fetches them from.
declare module "virtual:wllama-runtime" {
  /** Kernels in WebAssembly SIMD: runs wherever wllama runs. */
  export const simdRuntimeUrl: string;
  /** Kernels with relaxed SIMD's 8-bit dot product as well: only where `relaxedSimdWorks()`. */
  export const relaxedSimdRuntimeUrl: string;
}
