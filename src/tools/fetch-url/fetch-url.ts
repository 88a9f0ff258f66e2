import { z } from "zod";
import { defineTool } from "toolcall-middleware/tools/define-tool.ts";

export class FetchUrlError extends Error {
  override name = "FetchUrlError";
}

export const DEFAULT_FETCH_TIMEOUT_MS = 15_000;
export const DEFAULT_MAX_TEXT_CHARS = 12_000;
/** Bytes read from the body at most: enough for the text limit after markup is stripped. */
const MAX_BODY_BYTES = 2_000_000;

export const CORS_EXPLANATION =
  "the site does not allow reading it from a browser page (CORS) or the network is unreachable";

export interface FetchUrlOptions {
  fetch?: typeof fetch;
  timeoutMs?: number;
  maxChars?: number;
}

export interface FetchedPage {
  url: string;
  status: number;
  contentType: string;
  title?: string;
  text: string;
  truncated: boolean;
  note?: string;
}

function parseHttpUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new FetchUrlError(`'${raw}' is not a valid URL. Give a full address such as https://example.com/page.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new FetchUrlError(`Only http and https URLs can be fetched (got ${url.protocol.replace(/:$/, "")}).`);
  }
  return url;
}

/** Reads at most `limit` bytes of the body as text, cancelling the rest of the download. */
async function readBody(response: Response, limit: number): Promise<{ text: string; cut: boolean }> {
  if (!response.body) return { text: await response.text(), cut: false };
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    text += decoder.decode(value, { stream: true });
    if (bytes >= limit) {
      await reader.cancel().catch(() => undefined);
      return { text, cut: true };
    }
  }
  return { text: text + decoder.decode(), cut: false };
}

const TEXTUAL = /^(?:text\/|application\/(?:json|xml|xhtml\+xml|javascript|ld\+json|rss\+xml|atom\+xml)|[^;]*\+(?:json|xml))/i;

export async function fetchReadable(rawUrl: string, signal: AbortSignal, options: FetchUrlOptions = {}): Promise<FetchedPage> {
  const url = parseHttpUrl(rawUrl);
  const timeoutMs = options.timeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS;
  const maxChars = options.maxChars ?? DEFAULT_MAX_TEXT_CHARS;
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const timeout = AbortSignal.timeout(timeoutMs);
  const combined = AbortSignal.any([signal, timeout]);

  let response: Response;
  let body: { text: string; cut: boolean };
  try {
    response = await doFetch(url.href, { signal: combined, redirect: "follow", headers: { accept: "text/html, text/plain;q=0.9, */*;q=0.5" } });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new FetchUrlError(`${url.href} answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}.`);
    }
    body = await readBody(response, MAX_BODY_BYTES);
  } catch (error) {
    if (error instanceof FetchUrlError) throw error;
    if (signal.aborted) throw signal.reason;
    if (timeout.aborted) throw new FetchUrlError(`${url.href} did not answer within ${timeoutMs / 1000} s.`);
    // Browsers report CORS refusals and network failures alike, as a bare TypeError.
    if (error instanceof TypeError) throw new FetchUrlError(`Could not read ${url.href}: ${CORS_EXPLANATION}. (${error.message})`);
    throw error;
  }

  const contentType = response.headers.get("content-type") ?? "";
  if (contentType && !TEXTUAL.test(contentType)) {
    throw new FetchUrlError(`${url.href} is not a text page (content type ${contentType}); only HTML and text can be read.`);
  }
  const isHtml = /html/i.test(contentType) || (!contentType && /^\s*<(?:!doctype|html)/i.test(body.text));
  // The HTML reader loads when a page is first read, not with the tool list.
  const { collapseWhitespace, htmlToReadableText } = await import("./readable-text.ts");
  const page = isHtml ? htmlToReadableText(body.text) : { text: collapseWhitespace(body.text) };
  const truncated = page.text.length > maxChars || body.cut;
  const text = page.text.length > maxChars ? page.text.slice(0, maxChars) : page.text;
  return {
    url: response.url || url.href,
    status: response.status,
    contentType,
    ...(page.title ? { title: page.title } : {}),
    text,
    truncated,
    ...(truncated ? { note: `The text was cut to the first ${text.length} characters of a longer page.` } : {}),
  };
}

export const fetchUrlParameters = z.object({
  url: z.string().describe("The http(s) address of the page"),
});

export function createFetchUrlTool(options: FetchUrlOptions = {}) {
  const maxChars = options.maxChars ?? DEFAULT_MAX_TEXT_CHARS;
  return defineTool({
    name: "fetch_url",
    description: `Fetch a web page (http or https) and return its readable text (up to ${maxChars} characters). Many sites refuse to be read from a browser page (CORS); then this fails with an explanation.`,
    parameters: fetchUrlParameters,
    execute: async ({ url }, { signal }) => fetchReadable(url, signal, options),
  });
}
