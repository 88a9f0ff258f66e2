// Before sending: a warning when the prompt the draft would make does not fit the model's
// context window (or leaves almost no room for a reply), with what to cut. Counted with the
// engine's own tokenizer a moment after typing stops; engines that cannot count show nothing.
import { useEffect, useState } from "react";
import type { NextPromptCheck } from "toolcall-middleware/loop/check-next-prompt.ts";
import { deriveHistory } from "../../store/derive-history.ts";
import { useConversation, useEngineState, useLabStores } from "../../app/lab-stores-context.tsx";

const SETTLE_MS = 400;
const n = (value: number) => value.toLocaleString("en-US");

export function ContextWarning({ draft }: { draft: string }) {
  const active = useConversation((s) => s.active);
  const engine = useEngineState((s) => s.engine);
  const { runController } = useLabStores();
  const [warning, setWarning] = useState<{ check: Extract<NextPromptCheck, { kind: "no-room" | "tight" }>; advice: string[] } | null>(null);

  useEffect(() => {
    const env = runController.currentRunEnvironment();
    if (!env || !active || !engine || engine.contextWindowSize === undefined || !engine.countPromptTokens) {
      setWarning(null);
      return;
    }
    const abort = new AbortController();
    const timer = setTimeout(() => {
      const resolved = env.resolveEngine();
      if ("error" in resolved || !resolved.template) return;
      const { template } = resolved;
      const tools = env.resolveTools(active.settings).map(({ name, description, parameters }) => ({ name, description, parameters }));
      const messages = [...deriveHistory(active.events), { role: "user" as const, content: draft.trim() || " " }];
      const systemPrompt = active.settings.systemPrompt.trim() ? active.settings.systemPrompt : undefined;
      // The protocols and the prompt renderer load with the first check, not with the page.
      const check = async () => {
        const protocol = await env.resolveProtocol(env.protocolName());
        if (!protocol) return null;
        const { adviceFor, checkNextPrompt } = await import("toolcall-middleware/loop/check-next-prompt.ts");
        const result = await checkNextPrompt({ engine: resolved.engine, template, protocol, tools, messages, ...(systemPrompt ? { systemPrompt } : {}) }, abort.signal);
        return result.kind === "no-room" || result.kind === "tight" ? { check: result, advice: adviceFor(result, tools.length) } : null;
      };
      check().then(
        (next) => !abort.signal.aborted && setWarning(next),
        // A count that fails (the model unloaded meanwhile) leaves the check to the loop's budget.
        () => !abort.signal.aborted && setWarning(null),
      );
    }, SETTLE_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [draft, active, engine, runController]);

  if (!warning) return null;
  const { check } = warning;
  return (
    <div className="chat-notice notice-warn input-notice" role="alert" data-testid="context-warning" data-kind={check.kind}>
      <span>
        {check.kind === "no-room"
          ? `This message would make a prompt of ${n(check.promptTokens)} tokens: more than the model's ${n(check.contextWindow)}-token context window, so there is no room for a reply.`
          : `This message would leave only ${n(check.contextWindow - check.promptTokens)} tokens of the ${n(check.contextWindow)}-token context window for the reply.`}
        <ul>
          {warning.advice.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </span>
    </div>
  );
}
