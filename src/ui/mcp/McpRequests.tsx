// Requests from MCP servers that wait for the person, one dialog at a time, the server named:
// an elicitation (a form to fill, or an address to open — opened only by the person's click), a
// sampling request (the lab's model asked to generate), or a destructive tool about to run.
// Each button answers as the spec says: accept, decline, cancel (closing the dialog).
import { useEffect, useId, useMemo, useState } from "react";
import { useLabStores, useMcpServers } from "../../app/lab-stores-context.tsx";
import type { McpRequest } from "../../mcp/mcp-servers.ts";
import { visibleBidi, visibleName } from "../bidi/VisibleBidi.tsx";
import "./mcp.css";

type FormRequest = Extract<McpRequest, { kind: "elicit-form" }>;
type FieldSchema = {
  type?: string;
  title?: string;
  description?: string;
  enum?: unknown[];
  oneOf?: Array<{ const?: unknown; title?: string }>;
  items?: { enum?: unknown[]; anyOf?: Array<{ const?: unknown; title?: string }> };
  default?: unknown;
  minimum?: number;
  maximum?: number;
  format?: string;
};
type Value = string | boolean | string[];

/** A form of at most this many fields: a server may send a schema of thousands. */
const MAX_FIELDS = 40;

function choicesOf(field: FieldSchema): Array<{ value: string; label: string }> | null {
  if (field.oneOf) return field.oneOf.slice(0, 200).map((o) => ({ value: String(o.const), label: o.title ?? String(o.const) }));
  if (field.enum) return field.enum.slice(0, 200).map((v) => ({ value: String(v), label: String(v) }));
  if (field.items?.anyOf) return field.items.anyOf.slice(0, 200).map((o) => ({ value: String(o.const), label: o.title ?? String(o.const) }));
  if (field.items?.enum) return field.items.enum.slice(0, 200).map((v) => ({ value: String(v), label: String(v) }));
  return null;
}

function initialValue(field: FieldSchema): Value {
  if (field.type === "boolean") return field.default === true;
  if (field.type === "array") return Array.isArray(field.default) ? field.default.map(String) : [];
  return field.default !== undefined ? String(field.default) : "";
}

/** The form's values as the schema's types, or what is wrong. */
function typedContent(fields: Array<[string, FieldSchema]>, values: Record<string, Value>, required: readonly string[]): { content: Record<string, unknown> } | { error: string } {
  const content: Record<string, unknown> = {};
  for (const [name, field] of fields) {
    const value = values[name];
    const label = field.title ?? name;
    if (field.type === "boolean") {
      content[name] = value === true;
      continue;
    }
    if (Array.isArray(value)) {
      if (value.length > 0) content[name] = value;
      else if (required.includes(name)) return { error: `${label}: choose at least one.` };
      continue;
    }
    const text = String(value ?? "").trim();
    if (!text) {
      if (required.includes(name)) return { error: `${label} is required.` };
      continue;
    }
    if (field.type === "number" || field.type === "integer") {
      const number = Number(text);
      if (!Number.isFinite(number) || (field.type === "integer" && !Number.isInteger(number))) return { error: `${label}: write ${field.type === "integer" ? "a whole number" : "a number"}.` };
      if (field.minimum !== undefined && number < field.minimum) return { error: `${label}: at least ${field.minimum}.` };
      if (field.maximum !== undefined && number > field.maximum) return { error: `${label}: at most ${field.maximum}.` };
      content[name] = number;
    } else content[name] = text;
  }
  return { content };
}

function ElicitForm({ request }: { request: FormRequest }) {
  const { answer } = useLabStores().mcp.actions;
  const formId = useId();
  const properties = request.schema.properties as Record<string, FieldSchema> | undefined;
  const fields = useMemo(() => Object.entries(properties ?? {}).slice(0, MAX_FIELDS), [properties]);
  const required = request.schema.required ?? [];
  const [values, setValues] = useState<Record<string, Value>>(() => Object.fromEntries(fields.map(([name, field]) => [name, initialValue(field)])));
  const [error, setError] = useState<string | null>(null);
  const set = (name: string, value: Value) => setValues((before) => ({ ...before, [name]: value }));
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        const typed = typedContent(fields, values, required);
        if ("error" in typed) return setError(typed.error);
        answer(request.id, { kind: "elicit", result: { action: "accept", content: typed.content as Record<string, string | number | boolean | string[]> } });
      }}
    >
      <div className="mcp-dialog-fields">
        {fields.map(([name, field]) => {
          const id = `${formId}-${name}`;
          const label = `${field.title ?? name}${required.includes(name) ? " *" : ""}`;
          const choices = choicesOf(field);
          const value = values[name];
          return (
            <div className="mcp-field" key={name} data-testid="mcp-elicit-field" data-name={name}>
              {field.type === "boolean" ? (
                <label className="mcp-keep">
                  <input type="checkbox" checked={value === true} onChange={(e) => set(name, e.target.checked)} /> {visibleName(label)}
                </label>
              ) : (
                <>
                  <label htmlFor={id}>{visibleName(label)}</label>
                  {field.type === "array" && choices ? (
                    <div className="mcp-choices" id={id}>
                      {choices.map((choice) => (
                        <label key={choice.value} className="mcp-keep">
                          <input
                            type="checkbox"
                            checked={Array.isArray(value) && value.includes(choice.value)}
                            onChange={(e) => set(name, e.target.checked ? [...(value as string[]), choice.value] : (value as string[]).filter((v) => v !== choice.value))}
                          />
                          {visibleName(choice.label)}
                        </label>
                      ))}
                    </div>
                  ) : choices ? (
                    <select id={id} value={String(value)} onChange={(e) => set(name, e.target.value)}>
                      <option value="">—</option>
                      {choices.map((choice) => (
                        <option key={choice.value} value={choice.value}>
                          {choice.label}
                        </option>
                      ))}
                    </select>
                  ) : (
                    <input
                      id={id}
                      type={field.type === "number" || field.type === "integer" ? "number" : field.format === "date" ? "date" : "text"}
                      step={field.type === "number" ? "any" : undefined}
                      value={String(value)}
                      onChange={(e) => set(name, e.target.value)}
                    />
                  )}
                </>
              )}
              {field.description && <span className="mcp-muted">{visibleBidi(field.description.slice(0, 500))}</span>}
            </div>
          );
        })}
        {Object.keys(properties ?? {}).length > MAX_FIELDS && <p className="mcp-muted">The server asked for {Object.keys(properties ?? {}).length} fields; the first {MAX_FIELDS} are shown.</p>}
      </div>
      {error && (
        <p className="mcp-error" role="alert" data-testid="mcp-elicit-error">
          {error}
        </p>
      )}
      <div className="mcp-dialog-buttons">
        <button type="submit" className="primary" data-testid="mcp-elicit-accept">
          Send
        </button>
        <DeclineOrCancel requestId={request.id} />
      </div>
    </form>
  );
}

/** An elicitation's two ways of saying no, as the spec tells them apart: "decline" (the person said no) and "cancel" (dismissed without a choice). */
function DeclineOrCancel({ requestId }: { requestId: McpRequest["id"] }) {
  const { answer } = useLabStores().mcp.actions;
  return (
    <>
      <button type="button" data-testid="mcp-elicit-decline" onClick={() => answer(requestId, { kind: "elicit", result: { action: "decline" } })}>
        Decline
      </button>
      <button type="button" data-testid="mcp-elicit-cancel" onClick={() => answer(requestId, { kind: "elicit", result: { action: "cancel" } })}>
        Cancel
      </button>
    </>
  );
}

function openableUrl(text: string): URL | null {
  try {
    const url = new URL(text);
    return url.protocol === "https:" || url.protocol === "http:" ? url : null;
  } catch {
    return null;
  }
}

function RequestBody({ request }: { request: McpRequest }) {
  const { answer } = useLabStores().mcp.actions;
  const [dontAsk, setDontAsk] = useState(false);
  switch (request.kind) {
    case "elicit-form":
      return <ElicitForm request={request} />;
    case "elicit-url": {
      const url = openableUrl(request.url);
      return (
        <>
          <p className="mcp-muted">The server asks you to open this address (nothing is opened until you click):</p>
          <p className="mono mcp-dialog-url" data-testid="mcp-elicit-url">
            {visibleBidi(request.url.slice(0, 2_000))}
          </p>
          {url ? (
            <p className="mcp-muted">
              It leads to <strong>{url.host}</strong>.
            </p>
          ) : (
            <p className="mcp-error">The lab opens only http:// and https:// addresses; this one can only be declined.</p>
          )}
          <div className="mcp-dialog-buttons">
            <button
              type="button"
              className="primary"
              data-testid="mcp-elicit-open"
              disabled={!url}
              onClick={() => {
                if (url) window.open(url.href, "_blank", "noopener,noreferrer");
                answer(request.id, { kind: "elicit", result: { action: "accept" } });
              }}
            >
              Open {url?.host ?? ""}
            </button>
            <DeclineOrCancel requestId={request.id} />
          </div>
        </>
      );
    }
    case "sampling":
      return (
        <>
          <p className="mcp-muted">
            While running <span className="mono">{visibleName(request.toolName)}</span>, the server asks the lab's model to write a reply (at most {request.maxTokens.toLocaleString("en-US")} tokens;{" "}
            {request.size.toLocaleString("en-US")} characters of prompt). Approved, it runs as a nested run under that call, shown in the debugger.
          </p>
          {request.systemPrompt && (
            <div className="mcp-dialog-message">
              <span className="mcp-muted">system</span>
              <pre className="mono">{visibleBidi(request.systemPrompt)}</pre>
            </div>
          )}
          {request.messages.map((message, index) => (
            <div className="mcp-dialog-message" key={index} data-testid="mcp-sampling-message">
              <span className="mcp-muted">{message.role}</span>
              <pre className="mono">{visibleBidi(message.text)}</pre>
            </div>
          ))}
          <div className="mcp-dialog-buttons">
            <button type="button" className="primary" data-testid="mcp-sampling-approve" onClick={() => answer(request.id, { kind: "approve", approved: true })}>
              Approve
            </button>
            <button type="button" data-testid="mcp-sampling-refuse" onClick={() => answer(request.id, { kind: "approve", approved: false })}>
              Refuse
            </button>
          </div>
        </>
      );
    case "destructive":
      return (
        <>
          <p className="mcp-muted">
            The server marks <span className="mono">{visibleName(request.toolName)}</span> as destructive (it may change or delete things). The model called it with:
          </p>
          <pre className="mono mcp-dialog-args">{visibleBidi(JSON.stringify(request.args, null, 2).slice(0, 4_000))}</pre>
          <label className="mcp-keep">
            <input type="checkbox" data-testid="mcp-destructive-dont-ask" checked={dontAsk} onChange={(e) => setDontAsk(e.target.checked)} />
            Don't ask again for this server (until the tab closes)
          </label>
          <div className="mcp-dialog-buttons">
            <button type="button" className="primary" data-testid="mcp-destructive-run" onClick={() => answer(request.id, { kind: "approve", approved: true, dontAskAgain: dontAsk })}>
              Run it
            </button>
            <button type="button" data-testid="mcp-destructive-refuse" onClick={() => answer(request.id, { kind: "approve", approved: false })}>
              Don't run
            </button>
          </div>
        </>
      );
  }
}

const TITLES: Record<McpRequest["kind"], string> = {
  "elicit-form": "asks you for information",
  "elicit-url": "asks you to open an address",
  sampling: "asks the lab's model to generate",
  destructive: "tool wants to run",
};

/** The dialog for the oldest waiting request; Esc answers it as dismissed (cancel, refuse). */
export function McpRequests() {
  const requests = useMcpServers((s) => s.requests);
  const { answer } = useLabStores().mcp.actions;
  const request = requests[0];
  const titleId = useId();
  useEffect(() => {
    if (!request) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      event.stopPropagation();
      answer(request.id, request.kind.startsWith("elicit") ? { kind: "elicit", result: { action: "cancel" } } : { kind: "approve", approved: false });
    };
    window.addEventListener("keydown", onKey, true);
    return () => window.removeEventListener("keydown", onKey, true);
  }, [request, answer]);
  if (!request) return null;
  return (
    <div className="mcp-dialog-backdrop">
      <div className="mcp-dialog" role="dialog" aria-modal="true" aria-labelledby={titleId} data-testid="mcp-request-dialog" data-kind={request.kind}>
        <h2 id={titleId} className="mcp-dialog-title">
          <span data-testid="mcp-request-server">{visibleName(request.serverName)}</span> {TITLES[request.kind]}
        </h2>
        {"message" in request && <p className="mcp-dialog-text">{visibleBidi(request.message)}</p>}
        <RequestBody key={request.id} request={request} />
        {requests.length > 1 && <p className="mcp-muted">{requests.length - 1} more waiting.</p>}
      </div>
    </div>
  );
}
