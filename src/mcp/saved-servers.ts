// The MCP server list kept in this browser. Addresses are kept in localStorage; header values
// (tokens) only in sessionStorage — gone when the tab closes — unless the person chose to keep
// them, and then in localStorage, in plain text, as the panel warns. Credentials in an address
// (`?api_key=…`, `user:password@`) are treated like headers: without Keep headers,
// localStorage holds the address without them and the whole address stays for this tab only.
import { urlSecretsOf, urlWithoutSecrets } from "./mask-secrets.ts";

export interface SavedServer {
  id: string;
  url: string;
  keepHeaders: boolean;
  /** Only present when keepHeaders is set. */
  headers?: Record<string, string>;
}

const LIST_KEY = "toolcall-lab.mcp-servers";
const SESSION_HEADERS_KEY = "toolcall-lab.mcp-session-headers";
const SESSION_URLS_KEY = "toolcall-lab.mcp-session-urls";

/** Whether the address carries credentials, which are kept only as headers are. */
export function hasUrlSecrets(url: string): boolean {
  return urlSecretsOf(url).length > 0;
}

export interface ServerRecord {
  id: string;
  url: string;
  keepHeaders: boolean;
  headers: Record<string, string>;
}

function storages(): { local: Storage | null; session: Storage | null } {
  try {
    return { local: globalThis.localStorage ?? null, session: globalThis.sessionStorage ?? null };
  } catch {
    // Storage can be forbidden (privacy settings); the list then lives for this page only.
    return { local: null, session: null };
  }
}

function readJson(storage: Storage | null, key: string): unknown {
  try {
    const text = storage?.getItem(key);
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return undefined;
  }
}

function isHeaders(value: unknown): value is Record<string, string> {
  return typeof value === "object" && value !== null && Object.values(value).every((item) => typeof item === "string");
}

export function loadServers(): ServerRecord[] {
  const { local, session } = storages();
  const list = readJson(local, LIST_KEY);
  const sessionHeaders = readJson(session, SESSION_HEADERS_KEY);
  const sessionUrls = readJson(session, SESSION_URLS_KEY);
  if (!Array.isArray(list)) return [];
  return list.flatMap((item: unknown): ServerRecord[] => {
    const saved = item as Partial<SavedServer> | null;
    if (!saved || typeof saved.id !== "string" || typeof saved.url !== "string") return [];
    const fromSession = typeof sessionHeaders === "object" && sessionHeaders !== null ? (sessionHeaders as Record<string, unknown>)[saved.id] : undefined;
    const headers = saved.keepHeaders && isHeaders(saved.headers) ? saved.headers : isHeaders(fromSession) ? fromSession : {};
    const fullUrl = typeof sessionUrls === "object" && sessionUrls !== null ? (sessionUrls as Record<string, unknown>)[saved.id] : undefined;
    const url = !saved.keepHeaders && typeof fullUrl === "string" && urlWithoutSecrets(fullUrl) === saved.url ? fullUrl : saved.url;
    return [{ id: saved.id, url, keepHeaders: saved.keepHeaders === true, headers }];
  });
}

/** Writes the list; returns an error message when the browser refused to store it. */
export function saveServers(servers: readonly ServerRecord[]): string | null {
  const { local, session } = storages();
  const list: SavedServer[] = servers.map(({ id, url, keepHeaders, headers }) => (keepHeaders ? { id, url, keepHeaders, headers } : { id, url: urlWithoutSecrets(url), keepHeaders }));
  const perTab = servers.filter((server) => !server.keepHeaders);
  const sessionHeaders = Object.fromEntries(perTab.map((server) => [server.id, server.headers]));
  const sessionUrls = Object.fromEntries(perTab.filter((server) => hasUrlSecrets(server.url)).map((server) => [server.id, server.url]));
  try {
    local?.setItem(LIST_KEY, JSON.stringify(list));
    session?.setItem(SESSION_HEADERS_KEY, JSON.stringify(sessionHeaders));
    session?.setItem(SESSION_URLS_KEY, JSON.stringify(sessionUrls));
    return null;
  } catch (error) {
    return `The MCP server list could not be saved in this browser: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** Parses "Name: value" lines; returns the headers or the first line that is not one. */
export function parseHeaderLines(text: string): { headers: Record<string, string> } | { error: string } {
  const headers: Record<string, string> = {};
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (!line) continue;
    const colon = line.indexOf(":");
    const name = colon > 0 ? line.slice(0, colon).trim() : "";
    if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name)) return { error: `"${line}" is not a header: write one "Name: value" per line.` };
    const value = line.slice(colon + 1).trim();
    // fetch refuses header values outside Latin-1 (a pasted "smart" quote or ellipsis).
    if (!/^[\t\x20-\x7e\x80-\xff]*$/.test(value)) return { error: `The value of ${name} has characters an HTTP header cannot carry (only Latin-1 is allowed).` };
    headers[name] = value;
  }
  return { headers };
}
