// Media an MCP response carried (images, audio, binary resources), found in a recorded
// JSON-RPC message, and the message with their data shortened for reading.

export interface TraceMedia {
  kind: "image" | "audio";
  mimeType: string;
  /** base64 */
  data: string;
}

type Block = Record<string, unknown>;

function contentBlocks(message: unknown): Block[] {
  const content = (message as { result?: { content?: unknown } } | null)?.result?.content;
  return Array.isArray(content) ? content.filter((block): block is Block => typeof block === "object" && block !== null) : [];
}

/** Images and audio in a response's content, as far as the log kept their data. */
export function mediaIn(message: unknown): TraceMedia[] {
  return contentBlocks(message).flatMap((block): TraceMedia[] => {
    if ((block.type === "image" || block.type === "audio") && typeof block.data === "string" && typeof block.mimeType === "string" && /^[A-Za-z0-9+/=\s]+$/.test(block.data)) {
      return [{ kind: block.type, mimeType: block.mimeType, data: block.data }];
    }
    return [];
  });
}

const SHOWN_CHARS = 120;

/** A copy with long base64 fields cut, for the JSON view (the media are shown beside it). */
export function shortenData(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shortenData);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) =>
        (key === "data" || key === "blob") && typeof item === "string" && item.length > SHOWN_CHARS
          ? [key, `${item.slice(0, SHOWN_CHARS)}… (${item.length} characters)`]
          : [key, shortenData(item)],
      ),
    );
  }
  return value;
}
