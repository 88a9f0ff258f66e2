// "Constrain tool calls" and its tool choice: each step sends the protocol's structural tag
// (XGrammar, on WebLLM's chat path), so a call can only name an offered tool with valid
// arguments. Off by default: the grammar is compiled per step (its time is in the debugger).
import { showNameMarks } from "../bidi/bidi-controls.ts";
import type { ToolChoiceSetting, ToolSpec } from "toolcall-middleware/types.ts";
import type { ConversationSettings } from "../../domain/conversation.ts";
import { Field } from "./Field.tsx";

const encode = (choice: ToolChoiceSetting): string => (typeof choice === "object" ? `tool:${choice.name}` : choice);
const decode = (value: string): ToolChoiceSetting => (value.startsWith("tool:") ? { name: value.slice(5) } : (value as "auto" | "required" | "none"));

export function ConstraintFields({ settings, tools, update }: { settings: ConversationSettings; tools: ToolSpec[]; update: (patch: Partial<ConversationSettings>) => void }) {
  const on = settings.constrainToolCalls === true;
  const choice = settings.toolChoice ?? "auto";
  const disabled = new Set(settings.disabledTools);
  const offered = tools.filter((tool) => !disabled.has(tool.name));
  return (
    <fieldset className="tools-fieldset" data-testid="constraint-fields">
      <legend>Constrained decoding</legend>
      <label className="tool-toggle">
        <input type="checkbox" data-testid="setting-constrain" checked={on} onChange={(event) => update({ constrainToolCalls: event.target.checked })} />
        <span>Constrain tool calls</span>
      </label>
      <Field label="Tool choice" hint="WebLLM and the CPU engine (llama.cpp): a grammar lets the model write a call only to an offered tool with valid arguments. The replay engine records the setting but cannot constrain.">
        {(id) => (
          <select id={id} data-testid="setting-tool-choice" disabled={!on} value={encode(choice)} onChange={(event) => update({ toolChoice: decode(event.target.value) })}>
            <option value="auto">auto — text or calls</option>
            <option value="required">required — at least one call</option>
            <option value="none">none — no call</option>
            {offered.map((tool) => (
              <option key={tool.name} value={`tool:${tool.name}`}>
                only {showNameMarks(tool.name)}
              </option>
            ))}
            {typeof choice === "object" && !offered.some((tool) => tool.name === choice.name) && <option value={encode(choice)}>only {showNameMarks(choice.name)} (not offered)</option>}
          </select>
        )}
      </Field>
    </fieldset>
  );
}
