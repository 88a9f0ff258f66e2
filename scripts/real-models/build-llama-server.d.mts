// Types of build-llama-server.mjs for the TypeScript that uses it.
export function llamaServerRoot(): string;
/** The binary already built for this source and processor; undefined when there is none (nothing is built). */
export function builtLlamaServer(): string | undefined;
export function ensureLlamaServer(): { binary: string; commit: string };
