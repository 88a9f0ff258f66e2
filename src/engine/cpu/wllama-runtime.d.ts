// The CPU engine's runtime (wllama.wasm with SIMD 4-bit kernels), made by the Vite plugin in
// scripts/runtime-kernels/vite-plugin.ts: the URL the page fetches it from.
declare module "virtual:wllama-runtime" {
  const url: string;
  export default url;
}
