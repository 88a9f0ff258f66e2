// The playground's state as a link: JSON, compressed with deflate-raw (the browser's own
// CompressionStream) and written in base64url after "#pg=". Bounded: a link longer than
// MAX_LINK_CHARS is refused with a message saying how long it would be, since chat apps and
// browsers cut or refuse very long URLs; a link that was cut or edited is reported, not thrown.
// What a link inflates to is bounded too (MAX_STATE_BYTES): a short link of a very repetitive
// text would otherwise inflate a thousand times over (31 KB to 24 MB) and freeze the page.
import { z } from "zod";

export const MAX_LINK_CHARS = 32_000;
export const HASH_PREFIX = "#pg=";
/** The most a link's state may inflate to (its JSON, in UTF-8 bytes); past it inflating stops. */
export const MAX_STATE_BYTES = 1_048_576;

export const playgroundStateSchema = z.object({
  output: z.string(),
  protocol: z.string(),
  /** "built-in", "mcp" or "pasted". */
  toolSource: z.enum(["built-in", "mcp", "pasted"]),
  pastedTools: z.string(),
  chunking: z.union([z.object({ kind: z.literal("whole") }), z.object({ kind: z.literal("char") }), z.object({ kind: z.literal("random"), seed: z.number().int() })]),
  /** Strict reading (links made before the switch have none: lenient). */
  strict: z.boolean().optional(),
});
export type PlaygroundState = z.infer<typeof playgroundStateSchema>;

export type EncodedLink = { hash: string } | { error: string };
export type DecodedLink = { state: PlaygroundState } | { error: string };

async function pipeThrough(bytes: Uint8Array, transform: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(transform);
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Inflates at most `maxBytes`; null when there is more (the rest is never inflated). */
async function inflateAtMost(bytes: Uint8Array, maxBytes: number): Promise<Uint8Array | null> {
  const reader = new Blob([bytes as BlobPart]).stream().pipeThrough(new DecompressionStream("deflate-raw")).getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    parts.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = "";
  for (let at = 0; at < bytes.length; at += 0x8000) binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export async function encodePlaygroundLink(state: PlaygroundState, maxChars = MAX_LINK_CHARS, maxStateBytes = MAX_STATE_BYTES): Promise<EncodedLink> {
  const json = new TextEncoder().encode(JSON.stringify(state));
  // A link the playground would refuse to open is not made.
  if (json.length > maxStateBytes) {
    return { error: `This state is ${json.length.toLocaleString("en")} bytes, over the ${maxStateBytes.toLocaleString("en")} a link may hold (the output is ${state.output.length.toLocaleString("en")} characters). Shorten the output, or share it as a file.` };
  }
  const compressed = await pipeThrough(json, new CompressionStream("deflate-raw"));
  const hash = HASH_PREFIX + toBase64Url(compressed);
  if (hash.length > maxChars) {
    return {
      error: `This state needs a link of ${hash.length.toLocaleString("en")} characters, over the limit of ${maxChars.toLocaleString("en")} (the output is ${state.output.length.toLocaleString("en")} characters). Shorten the output, or share it as a file.`,
    };
  }
  return { hash };
}

/** Reads a "#pg=…" hash; undefined when the hash is not a playground link. */
export async function decodePlaygroundLink(hash: string, maxChars = MAX_LINK_CHARS, maxStateBytes = MAX_STATE_BYTES): Promise<DecodedLink | undefined> {
  if (!hash.startsWith(HASH_PREFIX)) return undefined;
  if (hash.length > maxChars) return { error: `The link is ${hash.length.toLocaleString("en")} characters, over the limit of ${maxChars.toLocaleString("en")}; it was not opened.` };
  try {
    const bytes = await inflateAtMost(fromBase64Url(hash.slice(HASH_PREFIX.length)), maxStateBytes);
    if (bytes === null) return { error: `The link's state inflates to more than ${maxStateBytes.toLocaleString("en")} bytes, the most a playground link may hold; it was not opened.` };
    const parsed = playgroundStateSchema.safeParse(JSON.parse(new TextDecoder().decode(bytes)));
    if (!parsed.success) return { error: `The link's state is not a playground state: ${parsed.error.issues[0]?.message ?? "unknown shape"}.` };
    return { state: parsed.data };
  } catch {
    return { error: "The link could not be read: it was cut short or edited. Ask for the link again." };
  }
}
