// What the model reads back from an MCP tool's result: text content as text, structured content
// as JSON, and for images, audio and resources a description (the debugger shows the media
// themselves from the recorded JSON-RPC response). `isError` is kept for the caller, which
// turns it into an error result.

/** The parts of an MCP `CallToolResult` the lab reads; anything else is described, not lost. */
export interface McpCallResult {
  content?: unknown[];
  structuredContent?: unknown;
  isError?: boolean;
  /** Results of protocol version 2024-10-07 and older. */
  toolResult?: unknown;
}

export interface ModelReadableResult {
  text: string;
  isError: boolean;
}

type Block = Record<string, unknown>;

function isBlock(value: unknown): value is Block {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Size of base64 data in readable units (the bytes it decodes to). */
export function base64Size(data: unknown): string {
  if (typeof data !== "string") return "size unknown";
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  const bytes = Math.max(0, Math.floor((data.length * 3) / 4) - padding);
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

const NOT_SEEN = "shown to the person in the debugger; you cannot see its content";

function describeBlock(block: unknown): string {
  if (!isBlock(block)) return `[content the lab cannot read: ${JSON.stringify(block) ?? String(block)}]`;
  const mime = typeof block.mimeType === "string" ? block.mimeType : "unknown type";
  switch (block.type) {
    case "text":
      return typeof block.text === "string" ? block.text : "";
    case "image":
      return `[image (${mime}, ${base64Size(block.data)}): ${NOT_SEEN}]`;
    case "audio":
      return `[audio (${mime}, ${base64Size(block.data)}): ${NOT_SEEN}]`;
    case "resource_link": {
      const name = typeof block.name === "string" ? block.name : "resource";
      const description = typeof block.description === "string" ? `: ${block.description}` : "";
      return `[resource link "${name}" <${String(block.uri)}>${block.mimeType ? ` (${mime})` : ""}${description}]`;
    }
    case "resource": {
      const resource = isBlock(block.resource) ? block.resource : {};
      const resourceMime = typeof resource.mimeType === "string" ? ` (${resource.mimeType})` : "";
      if (typeof resource.text === "string") return `[resource <${String(resource.uri)}>${resourceMime}]\n${resource.text}`;
      return `[resource <${String(resource.uri)}>${resourceMime}, ${base64Size(resource.blob)} of binary data: ${NOT_SEEN}]`;
    }
    default:
      return `[content of type "${String(block.type)}" the lab cannot show the model]`;
  }
}

function sameJson(text: string, value: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
  } catch {
    return false;
  }
}

export function modelReadableResult(result: McpCallResult): ModelReadableResult {
  const isError = result.isError === true;
  const blocks = Array.isArray(result.content) ? result.content : [];
  const parts: string[] = [];
  const structured = result.structuredContent;
  if (structured !== undefined) parts.push(JSON.stringify(structured));
  for (const block of blocks) {
    // Servers that return structured content also send it serialised as text (for older
    // clients); the model reads it once.
    if (structured !== undefined && isBlock(block) && block.type === "text" && typeof block.text === "string" && sameJson(block.text, structured)) continue;
    parts.push(describeBlock(block));
  }
  if (parts.length === 0 && result.toolResult !== undefined) {
    parts.push(typeof result.toolResult === "string" ? result.toolResult : JSON.stringify(result.toolResult));
  }
  const text = parts.join("\n");
  return { text: text || "(the tool returned no content)", isError };
}

/** A resource a tool's result points to (`resource_link`) or carries (`resource`), for its card. */
export interface ResultResource {
  kind: "link" | "embedded";
  uri: string;
  name?: string;
  mimeType?: string;
  /** An embedded resource's text (cut at MAX_RESULT_RESOURCE_CHARS), or undefined for binary ones. */
  text?: string;
}

/** Resources listed per card, and text kept per embedded resource: a result may carry thousands. */
export const MAX_RESULT_RESOURCES = 50;
export const MAX_RESULT_RESOURCE_CHARS = 20_000;

/**
 * The resources in a call's JSON-RPC result, read from its recorded trace (the last response
 * carrying `result.content`): the server's own blocks, not text the model or a tool could fake.
 */
export function resultResources(trace: ReadonlyArray<{ direction: string; message: unknown }> | undefined): ResultResource[] {
  if (!trace) return [];
  for (let index = trace.length - 1; index >= 0; index--) {
    const entry = trace[index]!;
    if (entry.direction !== "received" || !isBlock(entry.message) || !isBlock(entry.message.result)) continue;
    const content = entry.message.result.content;
    if (!Array.isArray(content)) continue;
    const found: ResultResource[] = [];
    for (const block of content) {
      if (found.length >= MAX_RESULT_RESOURCES || !isBlock(block)) continue;
      const inner = block.type === "resource" && isBlock(block.resource) ? block.resource : block;
      if ((block.type !== "resource_link" && block.type !== "resource") || typeof inner.uri !== "string") continue;
      found.push({
        kind: block.type === "resource_link" ? "link" : "embedded",
        uri: inner.uri.slice(0, 2_000),
        ...(typeof inner.name === "string" ? { name: inner.name.slice(0, 200) } : {}),
        ...(typeof inner.mimeType === "string" ? { mimeType: inner.mimeType.slice(0, 100) } : {}),
        ...(block.type === "resource" && typeof inner.text === "string" ? { text: inner.text.slice(0, MAX_RESULT_RESOURCE_CHARS) } : {}),
      });
    }
    return found;
  }
  return [];
}
