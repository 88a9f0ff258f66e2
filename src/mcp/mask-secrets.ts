// Secrets never reach the event log (which is saved, exported and shared): header values the
// person typed are masked wherever they appear, and so are values under keys that name a secret.
import { MASK, maskText } from "../net/mask-text.ts";
const SECRET_KEY = /^(authorization|proxy-authorization|cookie|set-cookie|password|passwd|secret|client_secret|api[-_]?key|x-api-key|access_token|refresh_token|id_token|token)$/i;
/** Strings longer than this (base64 media, huge texts) are cut in the log. */
export const MAX_LOGGED_STRING = 400_000;

/** `Bearer abc123` → `Bearer ••••`; any other value → `••••`. */
export function maskHeaderValue(value: string): string {
  const scheme = /^(Bearer|Basic|Token)\s+\S/i.exec(value);
  return scheme ? `${scheme[1]} ${MASK}` : MASK;
}

export function maskHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, maskHeaderValue(value)]));
}

/** The secret parts of header values (a bearer token without its scheme), to find in messages. */
export function secretsOf(headers: Record<string, string>): string[] {
  const secrets = new Set<string>();
  for (const value of Object.values(headers)) {
    const trimmed = value.trim();
    if (trimmed.length >= 4) secrets.add(trimmed);
    const token = /^\S+\s+(\S{4,})$/.exec(trimmed)?.[1];
    if (token) secrets.add(token);
  }
  // Longest first, so a whole value is masked before its token part.
  return [...secrets].sort((a, b) => b.length - a.length);
}

export { maskText };

/**
 * A copy of a JSON value with every secret masked in its strings, nothing cut: for what goes on
 * to the model and the log (a tool's result, a server's tool definitions). Unchanged parts are
 * shared, not copied.
 */
export function maskSecretsIn<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  const walk = (item: unknown): unknown => {
    if (typeof item === "string") return maskText(item, secrets);
    if (Array.isArray(item)) return item.map(walk);
    if (typeof item === "object" && item !== null) return Object.fromEntries(Object.entries(item).map(([key, inner]) => [key, walk(inner)]));
    return item;
  };
  return walk(value) as T;
}

function maskString(text: string, secrets: readonly string[]): string {
  const masked = maskText(text, secrets);
  if (masked.length > MAX_LOGGED_STRING) return `${masked.slice(0, 200)}… (${masked.length} characters, too long to keep in the log)`;
  return masked;
}

/** A masked deep copy of a JSON value. */
export function maskSecrets(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === "string") return maskString(value, secrets);
  if (Array.isArray(value)) return value.map((item) => maskSecrets(item, secrets));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, SECRET_KEY.test(key) && typeof item === "string" ? maskHeaderValue(item) : maskSecrets(item, secrets)]),
    );
  }
  return value;
}

const SECRET_PARAM = /key|token|secret|auth|password|passwd|sig|credential/i;

/** Whether a query parameter's name says it carries a credential (`api_key`, `token`, `sig`, …). */
export function isSecretParam(name: string): boolean {
  try {
    return SECRET_PARAM.test(decodeURIComponent(name));
  } catch {
    return SECRET_PARAM.test(name);
  }
}

/** The credentials an address carries: values of credential-like query parameters, a user's password. */
export function urlSecretsOf(text: string): string[] {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return [];
  }
  const secrets = new Set<string>();
  for (const [name, value] of url.searchParams) {
    if (!isSecretParam(name) || value.length < 4) continue;
    secrets.add(value);
    // As written in the address too (percent-encoded), should the server echo it so.
    secrets.add(encodeURIComponent(value));
  }
  for (const part of [url.password, url.username]) {
    if (part.length < 4) continue;
    secrets.add(part);
    try {
      secrets.add(decodeURIComponent(part));
    } catch {
      // kept as written
    }
  }
  return [...secrets].sort((a, b) => b.length - a.length);
}

/**
 * Rewrites an address's query parameters one by one (a parameter becomes a new text, or is left
 * out with undefined) and its user:password part; a text that is not an address is kept as it is.
 */
function rewriteUrl(text: string, param: (pair: string, name: string) => string | undefined, userinfo: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return text;
  }
  const query = url.search
    .slice(1)
    .split("&")
    .filter(Boolean)
    .map((pair) => param(pair, pair.split("=")[0] ?? ""))
    .filter((pair): pair is string => pair !== undefined);
  const user = url.username || url.password ? userinfo : "";
  return `${url.protocol}//${user}${url.host}${url.pathname}${query.length ? `?${query.join("&")}` : ""}${url.hash}`;
}

/** The address without its credentials (credential-like query parameters and user:password left out), to keep where it is stored. */
export function urlWithoutSecrets(text: string): string {
  return rewriteUrl(text, (pair, name) => (isSecretParam(name) ? undefined : pair), "");
}

/**
 * The address as the log and the model may see it: values of query parameters that name a
 * secret (`?api_key=…`, as some hosted servers take them) and any user:password are masked.
 */
export function maskUrl(text: string): string {
  return rewriteUrl(text, (pair, name) => (isSecretParam(name) ? `${name}=${MASK}` : pair), `${MASK}@`);
}
