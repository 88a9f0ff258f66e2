// What a connected server offers besides its tools, in its card: resources (read, attach to the
// message, follow), resource templates (a form for their variables), prompts (fill, insert) and
// the server's log messages. Lists load when their section is opened.
import { useEffect, useRef, useState, type ReactNode } from "react";
import { useLabStores, useRunState } from "../../app/lab-stores-context.tsx";
import { attachmentBlock, MAX_PROMPT_TURNS, promptMessagesAsTurns, promptMessagesText, templateVariables, type BoundedList, type ReadResource } from "../../mcp/mcp-features.ts";
import { MAX_CONNECTION_TRACE, type McpServerView } from "../../mcp/mcp-servers.ts";
import { visibleBidi, visibleName } from "../bidi/VisibleBidi.tsx";
import { ToolTraceView } from "./ToolTraceView.tsx";

type Loaded<T> = { state: "idle" } | { state: "loading" } | { state: "error"; message: string } | { state: "done"; list: BoundedList<T> };

function errorText(error: unknown): string {
  const failure = (error as { failure?: { message?: string } }).failure;
  return failure?.message ?? (error instanceof Error ? error.message : String(error));
}

/** A section that lists something on first opening. */
function Section<T>({ title, testId, load, changes = 0, children }: { title: string; testId: string; load: () => Promise<BoundedList<T>>; changes?: number; children: (items: T[]) => ReactNode }) {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: "idle" });
  // One listing at a time; changes announced meanwhile make one more, however many there were.
  const listing = useRef({ busy: false, again: false });
  const fetchList = () => {
    if (listing.current.busy) {
      listing.current.again = true;
      return;
    }
    listing.current.busy = true;
    setLoaded((before) => (before.state === "done" ? before : { state: "loading" }));
    load()
      .then(
        (list) => setLoaded({ state: "done", list }),
        (error: unknown) => setLoaded({ state: "error", message: errorText(error) }),
      )
      .finally(() => {
        listing.current.busy = false;
        if (listing.current.again) {
          listing.current.again = false;
          fetchList();
        }
      });
  };
  // The server said the list changed: a list already shown is read again.
  const shownChanges = useRef(changes);
  useEffect(() => {
    if (changes === shownChanges.current) return;
    shownChanges.current = changes;
    if (loaded.state === "done") fetchList();
  });
  return (
    <details
      className="mcp-section"
      data-testid={testId}
      onToggle={(event) => {
        if ((event.currentTarget as HTMLDetailsElement).open && loaded.state === "idle") fetchList();
      }}
    >
      <summary>
        {title}
        {loaded.state === "done" && ` (${loaded.list.total.toLocaleString("en-US")})`}
      </summary>
      {loaded.state === "loading" && <p className="mcp-muted">Listing…</p>}
      {loaded.state === "error" && (
        <p className="mcp-error" role="alert">
          {loaded.message}{" "}
          <button type="button" className="mcp-link" onClick={fetchList}>
            Try again
          </button>
        </p>
      )}
      {loaded.state === "done" && (
        <>
          {loaded.list.items.length === 0 ? <p className="mcp-muted">None.</p> : children(loaded.list.items)}
          {loaded.list.total > loaded.list.items.length && (
            <p className="mcp-muted" data-testid="mcp-list-cut">
              The first {loaded.list.items.length.toLocaleString("en-US")} of {loaded.list.total.toLocaleString("en-US")} are shown.
            </p>
          )}
          {loaded.list.note && <p className="mcp-warning">{loaded.list.note}</p>}
          <button type="button" className="mcp-link" onClick={fetchList}>
            List again
          </button>
        </>
      )}
    </details>
  );
}

/** Read, preview and attach one address's contents (an embedded resource is shown as it came, not read again). */
export function ResourceActions({ server, uri, follow, embedded }: { server: McpServerView; uri: () => Promise<string>; follow?: boolean; embedded?: ReadResource }) {
  const actions = useLabStores().mcp.actions;
  const [read, setRead] = useState<ReadResource[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [following, setFollowing] = useState(false);
  const name = server.serverName ?? new URL(server.url).host;
  const readNow = async (): Promise<ReadResource[] | null> => {
    setBusy(true);
    setError(null);
    try {
      const contents = embedded ? [embedded] : await actions.readResource(server.id, await uri());
      setRead(contents);
      return contents;
    } catch (failure) {
      setError(errorText(failure));
      return null;
    } finally {
      setBusy(false);
    }
  };
  const attach = async () => {
    const contents = await readNow();
    const text = contents?.filter((item) => !item.binary);
    if (!contents) return;
    if (!text?.length) return setError("This resource has no text to put into a message (binary content only).");
    actions.insertIntoComposer(text.map((item) => attachmentBlock(name, item)).join("\n"));
  };
  return (
    <>
      <div className="mcp-item-buttons">
        <button type="button" data-testid="mcp-resource-read" disabled={busy} onClick={() => void readNow()}>
          {embedded ? "Open" : "Read"}
        </button>
        <button type="button" data-testid="mcp-resource-attach" disabled={busy} title="Put its text into the message box, marked as from this server" onClick={() => void attach()}>
          Attach to message
        </button>
        {follow && (
          <button
            type="button"
            data-testid="mcp-resource-follow"
            disabled={busy || following}
            onClick={() => {
              void uri()
                .then((address) => actions.subscribe(server.id, address))
                .then(
                  () => setFollowing(true),
                  (failure: unknown) => setError(errorText(failure)),
                );
            }}
          >
            {following ? "Following" : "Follow updates"}
          </button>
        )}
      </div>
      {error && (
        <p className="mcp-error" role="alert" data-testid="mcp-resource-error">
          {error}
        </p>
      )}
      {read?.map((item, index) => (
        <pre key={index} className="mcp-preview mono" data-testid="mcp-resource-preview">
          {visibleBidi(item.text.slice(0, 4_000))}
          {item.text.length > 4_000 ? `\n… (${item.text.length.toLocaleString("en-US")} characters kept)` : ""}
          {item.fullLength ? `\n[cut: the server sent ${item.fullLength.toLocaleString("en-US")} characters]` : ""}
        </pre>
      ))}
    </>
  );
}

function TemplateForm({ server, uriTemplate }: { server: McpServerView; uriTemplate: string }) {
  const actions = useLabStores().mcp.actions;
  const variables = templateVariables(uriTemplate);
  const [values, setValues] = useState<Record<string, string>>({});
  return (
    <>
      <div className="mcp-inline-form">
        {variables.map((variable) => (
          <input
            key={variable}
            aria-label={variable}
            placeholder={variable}
            data-testid="mcp-template-input"
            data-name={variable}
            value={values[variable] ?? ""}
            onChange={(e) => setValues((before) => ({ ...before, [variable]: e.target.value }))}
          />
        ))}
      </div>
      <ResourceActions server={server} uri={() => actions.expandTemplate(server.id, uriTemplate, values)} />
    </>
  );
}

function PromptForm({ server, prompt }: { server: McpServerView; prompt: { name: string; arguments?: Array<{ name: string; description?: string; required?: boolean }> } }) {
  const stores = useLabStores();
  const actions = stores.mcp.actions;
  const running = useRunState((s) => s.running);
  const [values, setValues] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const args = (prompt.arguments ?? []).slice(0, 30);
  /** Asks the server for the prompt's messages, then puts them into the message box or sends them as turns. */
  const use = async (how: "insert" | "send") => {
    const missing = args.find((argument) => argument.required && !values[argument.name]?.trim());
    if (missing) return setError(`${missing.name} is required.`);
    setBusy(true);
    setError(null);
    try {
      const result = await actions.getPrompt(server.id, prompt.name, Object.fromEntries(Object.entries(values).filter(([, value]) => value.trim())));
      const serverName = server.serverName ?? new URL(server.url).host;
      if (how === "insert") actions.insertIntoComposer(promptMessagesText(result.messages.slice(0, MAX_PROMPT_TURNS), serverName));
      else {
        const turns = promptMessagesAsTurns(result.messages, { server: serverName, prompt: prompt.name, insertion: `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}` });
        if (turns.length === 0) return setError("The server's prompt returned no messages; nothing was sent.");
        if (turns.every((turn) => !turn.content.trim())) return setError("The server's prompt returned only empty messages; nothing was sent.");
        const cut = result.messages.length > MAX_PROMPT_TURNS ? ` (the first ${MAX_PROMPT_TURNS} of its ${result.messages.length.toLocaleString("en-US")} messages)` : "";
        const sent = await stores.runController.sendMessage(turns);
        if (!sent) setError(`The prompt's messages were not sent: the message box says why.${cut}`);
        else if (cut) setError(`Sent${cut}.`);
      }
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <div className="mcp-inline-form">
        {args.map((argument) => (
          <input
            key={argument.name}
            aria-label={argument.name}
            title={argument.description}
            placeholder={`${argument.name}${argument.required ? " *" : ""}`}
            data-testid="mcp-prompt-input"
            data-name={argument.name}
            value={values[argument.name] ?? ""}
            onChange={(e) => setValues((before) => ({ ...before, [argument.name]: e.target.value }))}
          />
        ))}
        <button type="button" data-testid="mcp-prompt-send" disabled={busy || running} title="The prompt's messages become turns of the conversation, each in its role, and the model answers" onClick={() => void use("send")}>
          Send as turns
        </button>
        <button type="button" data-testid="mcp-prompt-insert" disabled={busy} onClick={() => void use("insert")}>
          Insert into message
        </button>
      </div>
      {error && (
        <p className="mcp-error" role="alert" data-testid="mcp-prompt-error">
          {error}
        </p>
      )}
    </>
  );
}

/** One row of a server's list (a resource, a template, a prompt): its name, its address if it has one, then what can be done with it. */
function McpItem({ testId, data, name, address, monoName, children }: { testId: string; data: Record<`data-${string}`, string>; name: string; address?: string; monoName?: boolean; children: ReactNode }) {
  return (
    <li className="mcp-item" data-testid={testId} {...data}>
      <div className="mcp-item-head">
        <span className={monoName ? "mcp-item-name mono" : "mcp-item-name"}>{visibleName(name)}</span>
        {address !== undefined && <span className="mono mcp-muted mcp-item-name">{visibleBidi(address)}</span>}
      </div>
      {children}
    </li>
  );
}

export function McpServerDetails({ server }: { server: McpServerView }) {
  const actions = useLabStores().mcp.actions;
  const caps = server.capabilities;
  const updated = Object.entries(server.updatedResources).slice(-5);
  return (
    <>
      {caps?.resources && (
        <>
          <Section title="Resources" testId="mcp-resources" load={() => actions.listResources(server.id)} changes={server.listChanges?.resources ?? 0}>
            {(items) => (
              <ul className="mcp-items">
                {items.map((resource, index) => (
                  <McpItem key={index} testId="mcp-resource" data={{ "data-uri": resource.uri }} name={resource.title ?? resource.name} address={resource.uri}>
                    <ResourceActions server={server} uri={() => Promise.resolve(resource.uri)} follow={caps.subscribe} />
                  </McpItem>
                ))}
              </ul>
            )}
          </Section>
          {/* The spec's resources/list_changed covers templates too: a shown template list is read again with it. */}
          <Section title="Resource templates" testId="mcp-templates" load={() => actions.listResourceTemplates(server.id)} changes={server.listChanges?.resources ?? 0}>
            {(items) => (
              <ul className="mcp-items">
                {items.map((template, index) => (
                  <McpItem key={index} testId="mcp-template" data={{ "data-template": template.uriTemplate }} name={template.title ?? template.name} address={template.uriTemplate}>
                    <TemplateForm server={server} uriTemplate={template.uriTemplate} />
                  </McpItem>
                ))}
              </ul>
            )}
          </Section>
        </>
      )}
      {updated.length > 0 && (
        <p className="mcp-notice" data-testid="mcp-resource-updated">
          Changed on the server: {updated.map(([uri, at]) => `${uri} (${new Date(at).toLocaleTimeString()})`).join(", ")} — read it again to see the new text.
        </p>
      )}
      {caps?.prompts && (
        <Section title="Prompts" testId="mcp-prompts" load={() => actions.listPrompts(server.id)} changes={server.listChanges?.prompts ?? 0}>
          {(items) => (
            <ul className="mcp-items">
              {items.map((prompt, index) => (
                <McpItem key={index} testId="mcp-prompt" data={{ "data-name": prompt.name }} name={prompt.name} monoName>
                  {prompt.description && <span className="mcp-muted">{visibleBidi(prompt.description.slice(0, 500))}</span>}
                  <PromptForm server={server} prompt={prompt} />
                </McpItem>
              ))}
            </ul>
          )}
        </Section>
      )}
      {server.trace && server.trace.length > 0 && (
        <details className="mcp-section" data-testid="mcp-connection-trace">
          <summary>Messages outside tool calls ({server.trace.length})</summary>
          <p className="mcp-muted">A request the server made while none of its tools ran, the lab's answer, and its log messages (secrets masked; the last {MAX_CONNECTION_TRACE}).</p>
          <ToolTraceView trace={server.trace} />
        </details>
      )}
      {(caps?.logging || server.log.length > 0) && (
        <details className="mcp-section" data-testid="mcp-log">
          <summary>Log ({server.log.length})</summary>
          {server.log.length === 0 ? (
            <p className="mcp-muted">No messages from the server yet.</p>
          ) : (
            <>
              <ul className="mcp-log mono">
                {server.log.map((entry, index) => (
                  <li key={index} data-testid="mcp-log-entry">
                    <span className="mcp-log-level" data-level={entry.level}>
                      {entry.level}
                    </span>{" "}
                    {new Date(entry.at).toLocaleTimeString()} {entry.logger ? `[${visibleName(entry.logger)}] ` : ""}
                    {visibleBidi(entry.text)}
                  </li>
                ))}
              </ul>
              <button type="button" className="mcp-link" onClick={() => actions.clearLog(server.id)}>
                Clear
              </button>
            </>
          )}
        </details>
      )}
    </>
  );
}
