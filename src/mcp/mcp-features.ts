// What the lab uses of an MCP server beyond its tools — resources, resource templates, prompts,
// log messages — as the panel shows them, and the bounds that keep a hostile server's answer
// (100,000 resources, a 50 MB resource) from filling the page.

export interface McpResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

export interface McpResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

export interface McpPromptArgument {
  name: string;
  description?: string;
  required?: boolean;
}

export interface McpPrompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: McpPromptArgument[];
}

/** A list as kept: the first `LISTED_ITEMS` and how many the server named in all. */
export interface BoundedList<T> {
  items: T[];
  /** How many the server listed (more than `items.length` when it was cut). */
  total: number;
  /** Why listing stopped early (a page limit, a repeated cursor), if it did. */
  note?: string;
}

export const LISTED_ITEMS = 2_000;

/** What is kept of one resource's text: enough for any prompt a small model reads, and no page freeze. */
export const MAX_RESOURCE_CHARS = 200_000;

export interface ReadResource {
  uri: string;
  mimeType?: string;
  /** The text (cut at MAX_RESOURCE_CHARS), or a description of binary content. */
  text: string;
  /** The text's full length when it was cut. */
  fullLength?: number;
  binary: boolean;
}

export interface McpLogEntry {
  at: number;
  level: string;
  logger?: string;
  text: string;
}

export const MAX_LOG_ENTRIES = 200;
const MAX_LOG_TEXT = 2_000;

export function logText(data: unknown): string {
  const text = typeof data === "string" ? data : JSON.stringify(data) ?? String(data);
  return text.length > MAX_LOG_TEXT ? `${text.slice(0, MAX_LOG_TEXT)}… (${text.length.toLocaleString("en-US")} characters, cut)` : text;
}

/** A resource's contents as the lab keeps them: text cut at the bound, binary described. */
export function keptContents(contents: ReadonlyArray<{ uri: string; mimeType?: string; text?: string; blob?: string }>): ReadResource[] {
  return contents.map((item) => {
    if (typeof item.text === "string") {
      const cut = item.text.length > MAX_RESOURCE_CHARS;
      return {
        uri: item.uri,
        ...(item.mimeType ? { mimeType: item.mimeType } : {}),
        text: cut ? item.text.slice(0, MAX_RESOURCE_CHARS) : item.text,
        ...(cut ? { fullLength: item.text.length } : {}),
        binary: false,
      };
    }
    const bytes = Math.floor(((item.blob ?? "").length * 3) / 4);
    return {
      uri: item.uri,
      ...(item.mimeType ? { mimeType: item.mimeType } : {}),
      text: `[binary ${item.mimeType ?? "content"}, ${bytes.toLocaleString("en-US")} B: not put into a prompt]`,
      binary: true,
    };
  });
}

/** The variable names of an RFC 6570 URI template (`{id}`, `{+path}`, `{?q,lang}`), in order. */
export function templateVariables(uriTemplate: string): string[] {
  const names: string[] = [];
  for (const match of uriTemplate.matchAll(/\{([^}]{1,200})\}/g)) {
    const body = (match[1] ?? "").replace(/^[+#./;?&]/, "");
    for (const part of body.split(",")) {
      const name = part.replace(/(\*|:\d+)$/, "").trim();
      if (name && !names.includes(name)) names.push(name);
    }
  }
  return names.slice(0, 50);
}

const escapeAttribute = (text: string) => text.replace(/[&"<>]/g, (c) => ({ "&": "&amp;", '"': "&quot;", "<": "&lt;", ">": "&gt;" })[c] ?? c);

export const ATTACHMENT_OPEN = "<mcp-resource";
export const ATTACHMENT_CLOSE = "</mcp-resource>";

/**
 * A resource as it goes into a message: wrapped in a marked block naming the server and the
 * address, which the prompt view draws as coming from that server. A closing marker inside the
 * text is broken, so a resource cannot end its block early and pass text off as the person's.
 */
export function attachmentBlock(serverName: string, resource: ReadResource): string {
  const body = resource.text.replaceAll(ATTACHMENT_CLOSE, "</mcp-resource\u200b>");
  const cut = resource.fullLength ? `\n[cut: the first ${MAX_RESOURCE_CHARS.toLocaleString("en-US")} of ${resource.fullLength.toLocaleString("en-US")} characters]` : "";
  return `${ATTACHMENT_OPEN} server="${escapeAttribute(serverName)}" uri="${escapeAttribute(resource.uri)}">\n${body}${cut}\n${ATTACHMENT_CLOSE}`;
}

/** One prompt message's content as text: text as it is, an embedded resource as its attachment block, other media described. */
function promptContentText(content: unknown, serverName: string): string {
  const part = content as { type?: string; text?: string; resource?: { uri: string; text?: string; blob?: string; mimeType?: string } };
  if (part.type === "text" && typeof part.text === "string") return part.text.length > MAX_RESOURCE_CHARS ? `${part.text.slice(0, MAX_RESOURCE_CHARS)}\n[cut: the first ${MAX_RESOURCE_CHARS.toLocaleString("en-US")} of ${part.text.length.toLocaleString("en-US")} characters]` : part.text;
  if (part.type === "resource" && part.resource) {
    const [kept] = keptContents([part.resource]);
    return kept ? attachmentBlock(serverName, kept) : "";
  }
  return `[${typeof part.type === "string" ? part.type.slice(0, 40) : "unknown"} content: not put into a message]`;
}

/** A prompt's messages (from `prompts/get`) as text for the message box. */
export function promptMessagesText(messages: ReadonlyArray<{ role: string; content: unknown }>, serverName: string): string {
  const parts = messages.map((message) => {
    const text = promptContentText(message.content, serverName);
    return messages.length > 1 || message.role !== "user" ? `${message.role}: ${text}` : text;
  });
  return parts.join("\n\n");
}

/** The most messages of one prompt put into the conversation (a server may return thousands). */
export const MAX_PROMPT_TURNS = 50;

/**
 * A prompt's messages as turns of the conversation, each in the role the server gave it and
 * marked as coming from that server's prompt (one `insertion` for all of them).
 */
export function promptMessagesAsTurns(
  messages: ReadonlyArray<{ role: string; content: unknown }>,
  origin: { server: string; prompt: string; insertion: string },
): Array<{ role: "user" | "assistant"; content: string; source: { kind: "mcp-prompt"; server: string; prompt: string; insertion: string } }> {
  const source = { kind: "mcp-prompt" as const, ...origin };
  return messages.slice(0, MAX_PROMPT_TURNS).map((message) => ({
    role: message.role === "assistant" ? "assistant" : "user",
    content: promptContentText(message.content, origin.server),
    source,
  }));
}
