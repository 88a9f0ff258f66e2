// The open conversation's settings: loop limits, generation, system prompt, which tools the
// model is offered, and deep_research's own settings. Changes apply from the next turn.
import { useDeferredValue, useMemo, useState } from "react";
import { Field } from "./Field.tsx";
import { ConstraintFields } from "./ConstraintFields.tsx";
import { SamplingFields } from "./SamplingFields.tsx";
import type { ToolSpec } from "toolcall-middleware/types.ts";
import { deliverableFormats, MAX_CALLS_PER_STEP_SETTING, type ConversationSettings, type DeliverableFormat } from "../../domain/conversation.ts";
import { useConversation, useLabStores, useMcpServers } from "../../app/lab-stores-context.tsx";
import { mcpToolServers } from "../../mcp/mcp-tools.ts";
import { TOOL_NAMES } from "../../tools/index.ts";
import { McpToolBadge } from "../mcp/McpToolBadge.tsx";
import { visibleName } from "../bidi/VisibleBidi.tsx";

/** More tools than this (thousands, from an MCP server): the first are listed and a button shows the rest. */
const LISTED_TOOLS = 200;
import "./settings.css";
import { clampNote } from "./clamp-note.ts";

function NumberField(props: {
  label: string;
  value: number;
  min: number;
  max: number;
  step?: number;
  hint?: string;
  testId: string;
  onChange: (value: number) => void;
}) {
  // What the person is typing; committed while it is a valid number in range, clamped on blur,
  // so typing "512" is not cut to the minimum at its first digit.
  const [draft, setDraft] = useState<string | null>(null);
  const [clamped, setClamped] = useState<string | null>(null);
  const inRange = (value: number) => Number.isFinite(value) && value >= props.min && value <= props.max;
  return (
    <Field label={props.label} {...(props.hint ? { hint: props.hint } : {})}>
      {(id) => (
        <>
        <input
          id={id}
          type="number"
          data-testid={props.testId}
          min={props.min}
          max={props.max}
          step={props.step ?? 1}
          value={draft ?? String(props.value)}
          onChange={(event) => {
            setDraft(event.target.value);
            setClamped(null);
            const value = event.target.valueAsNumber;
            if (inRange(value)) props.onChange(value);
          }}
          onBlur={(event) => {
            const value = event.target.valueAsNumber;
            if (Number.isFinite(value)) props.onChange(Math.min(props.max, Math.max(props.min, value)));
            setClamped(clampNote(value, props.min, props.max));
            setDraft(null);
          }}
        />
        {clamped && (
          <div className="field-hint field-clamped" role="status" data-testid={`${props.testId}-clamped`}>
            {clamped}
          </div>
        )}
        </>
      )}
    </Field>
  );
}

export function SettingsPanel({ tools }: { tools: ToolSpec[] }) {
  const { conversationActions } = useLabStores().conversations;
  const settings = useConversation((s) => s.active?.settings);
  // Deferred as the tool list it marks is (App.tsx), so both show the same servers.
  const servers = useDeferredValue(useMcpServers((s) => s.servers));
  const toolServers = useMemo(() => mcpToolServers(TOOL_NAMES, servers), [servers]);
  const [showAllTools, setShowAllTools] = useState(false);
  if (!settings) return null;
  const update = (patch: Partial<ConversationSettings>) => conversationActions.updateSettings(patch);
  const updateResearch = (patch: Partial<ConversationSettings["research"]>) => update({ research: { ...settings.research, ...patch } });
  const disabled = new Set(settings.disabledTools);
  const hasResearch = tools.some((t) => t.name === "deep_research");

  return (
    <div className="settings" data-testid="settings-panel">
      <div className="field-grid">
        <NumberField label="Max steps" testId="setting-max-steps" value={settings.maxSteps} min={1} max={50} onChange={(maxSteps) => update({ maxSteps })} />
        <NumberField
          label="Tool timeout (s)"
          testId="setting-tool-timeout"
          value={settings.toolTimeoutMs / 1000}
          min={1}
          max={600}
          onChange={(s) => update({ toolTimeoutMs: Math.round(s * 1000) })}
        />
        <NumberField
          label="Max calls per step"
          testId="setting-max-calls-per-step"
          value={settings.maxCallsPerStep}
          min={1}
          max={MAX_CALLS_PER_STEP_SETTING}
          hint="Calls of one reply past this are not run; the model is told so."
          onChange={(n) => update({ maxCallsPerStep: Math.round(n) })}
        />
      </div>
      <SamplingFields settings={settings} update={update} />
      <Field label="System prompt" hint="Empty: the default. The protocol's tool section is added after it.">
        {(id) => (
          <textarea
            id={id}
            data-testid="setting-system-prompt"
            rows={3}
            value={settings.systemPrompt}
            placeholder="You are a helpful assistant."
            onChange={(event) => update({ systemPrompt: event.target.value })}
          />
        )}
      </Field>
      <fieldset className="tools-fieldset">
        <legend>Tools offered to the model</legend>
        {tools.length === 0 && <div className="field-hint">No tools are available.</div>}
        {(showAllTools ? tools : tools.slice(0, LISTED_TOOLS)).map((tool) => (
          <label key={tool.name} className="tool-toggle" title={tool.description}>
            <input
              type="checkbox"
              data-testid={`tool-toggle-${tool.name}`}
              checked={!disabled.has(tool.name)}
              onChange={(event) => {
                const next = new Set(settings.disabledTools);
                if (event.target.checked) next.delete(tool.name);
                else next.add(tool.name);
                update({ disabledTools: [...next] });
              }}
            />
            <span className="mono">{visibleName(tool.name)}</span>
            <McpToolBadge server={toolServers.get(tool.name)} />
          </label>
        ))}
        {!showAllTools && tools.length > LISTED_TOOLS && (
          <button type="button" className="tools-show-all" data-testid="tools-show-all" onClick={() => setShowAllTools(true)}>
            Show all {tools.length.toLocaleString("en-US")} tools ({(tools.length - LISTED_TOOLS).toLocaleString("en-US")} more)
          </button>
        )}
      </fieldset>
      <ConstraintFields settings={settings} tools={tools} update={update} />
      {hasResearch && (
        <fieldset className="tools-fieldset">
          <legend>deep_research</legend>
          <Field label="Research system prompt" hint="Persona, language, format — used only by the research sub-agent.">
            {(id) => (
              <textarea
                id={id}
                data-testid="setting-research-prompt"
                rows={3}
                value={settings.research.systemPrompt}
                onChange={(event) => updateResearch({ systemPrompt: event.target.value })}
              />
            )}
          </Field>
          <div className="field-grid">
            <Field label="Fallback format" hint="When the model gives none.">
              {(id) => (
                <select
                  id={id}
                  data-testid="setting-research-format"
                  value={settings.research.fallbackFormat}
                  onChange={(event) => updateResearch({ fallbackFormat: event.target.value as DeliverableFormat })}
                >
                  {deliverableFormats.map((format) => (
                    <option key={format} value={format}>
                      {format}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <NumberField
              label="Research timeout (s)"
              testId="setting-research-timeout"
              value={settings.research.timeoutMs / 1000}
              min={5}
              max={3600}
              onChange={(s) => updateResearch({ timeoutMs: Math.round(s * 1000) })}
            />
          </div>
        </fieldset>
      )}
    </div>
  );
}
