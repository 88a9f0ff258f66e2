// Generation settings: max tokens and the sampling values. Each shows the model family's
// default until the person sets their own; every turn sends (and records) all of them.
import { useMemo, useState } from "react";
import { describeBudget } from "toolcall-middleware/loop/fit-to-context.ts";
import type { ContextBudget, Engine } from "toolcall-middleware/types.ts";
import type { ConversationSettings, SamplingSettings } from "../../domain/conversation.ts";
import type { SamplingField } from "../../store/generation-settings.ts";
import { activeSamplingDefaults } from "../../store/sampling.ts";
import { useConversation, useEngineState, useServerEngine } from "../../app/lab-stores-context.tsx";
import { effectiveTemplate } from "../../store/server-engine.ts";
import { clampNote } from "./clamp-note.ts";
import { Field } from "./Field.tsx";

interface FieldSpec {
  field: SamplingField | "seed";
  label: string;
  testId: string;
  min: number;
  max: number;
  step: number;
}

const FIELDS: FieldSpec[] = [
  { field: "maxTokens", label: "Max tokens", testId: "setting-max-tokens", min: 16, max: 32768, step: 16 },
  { field: "temperature", label: "Temperature", testId: "setting-temperature", min: 0, max: 2, step: 0.05 },
  { field: "topP", label: "Top p", testId: "setting-top-p", min: 0.05, max: 1, step: 0.05 },
  { field: "repetitionPenalty", label: "Repetition penalty", testId: "setting-repetition-penalty", min: 0.5, max: 2, step: 0.05 },
  { field: "presencePenalty", label: "Presence penalty", testId: "setting-presence-penalty", min: -2, max: 2, step: 0.1 },
  { field: "frequencyPenalty", label: "Frequency penalty", testId: "setting-frequency-penalty", min: -2, max: 2, step: 0.1 },
  { field: "seed", label: "Seed", testId: "setting-seed", min: 0, max: 2 ** 32 - 1, step: 1 },
];

/** A number the person may leave to the default: empty shows the default and sends it. */
function OptionalNumber({ spec, own, fallback, onChange }: { spec: FieldSpec; own: number | null | undefined; fallback: string; onChange: (value: number | null) => void }) {
  const [draft, setDraft] = useState<string | null>(null);
  const [clamped, setClamped] = useState<string | null>(null);
  // WebLLM takes only an integer seed.
  const inRange = (value: number) => Number.isFinite(value) && value >= spec.min && value <= spec.max && (spec.field !== "seed" || Number.isInteger(value));
  const isOwn = own !== null && own !== undefined;
  return (
    <Field label={spec.label} hint={isOwn ? `default: ${fallback}` : `default (${fallback})`}>
      {(id) => (
        <span className="optional-number">
          <input
            id={id}
            type="number"
            data-testid={spec.testId}
            min={spec.min}
            max={spec.max}
            step={spec.step}
            placeholder={fallback}
            value={draft ?? (isOwn ? String(own) : "")}
            onChange={(event) => {
              setDraft(event.target.value);
              setClamped(null);
              if (event.target.value === "") return onChange(null);
              const value = event.target.valueAsNumber;
              if (inRange(value)) onChange(value);
            }}
            onBlur={(event) => {
              const value = event.target.valueAsNumber;
              const whole = spec.field === "seed" ? Math.round(value) : value;
              if (event.target.value !== "" && Number.isFinite(value)) onChange(Math.min(spec.max, Math.max(spec.min, whole)));
              setClamped(event.target.value === "" ? null : clampNote(value, spec.min, spec.max));
              setDraft(null);
            }}
          />
          {isOwn && (
            <button type="button" className="link-button" data-testid={`${spec.testId}-reset`} onClick={() => {
                setDraft(null);
                onChange(null);
              }}>
              use default
            </button>
          )}
          {clamped && (
            <span className="field-hint field-clamped" role="status" data-testid={`${spec.testId}-clamped`}>
              {clamped}
            </span>
          )}
        </span>
      )}
    </Field>
  );
}

/** What the engine lets the loop do about max tokens and the context window. */
function capNote(engine: Engine | null): string {
  if (!engine) return "Max tokens is capped per step so that prompt + reply fit the model's context window, once a model is loaded.";
  if (engine.contextWindowSize === undefined) return "The cap is unknown: this engine does not say how large its context window is, so max tokens is sent as set.";
  if (!engine.countPromptTokens) return `The cap is unknown: this engine cannot count prompt tokens, so max tokens is sent as set (context window ${engine.contextWindowSize.toLocaleString("en-US")} tokens).`;
  return `Each step's max tokens is capped so that prompt + reply fit the model's ${engine.contextWindowSize.toLocaleString("en-US")}-token context window.`;
}

/** The budget the latest step recorded, if any step has. */
function useLastBudget(): ContextBudget | undefined {
  const events = useConversation((s) => s.active?.events);
  return useMemo(() => {
    if (!events) return undefined;
    for (let i = events.length - 1; i >= 0; i--) {
      const event = events[i]!;
      if (event.type === "step-start" && !event.parent) return event.budget;
    }
    return undefined;
  }, [events]);
}

export function SamplingFields({ settings, update }: { settings: ConversationSettings; update: (patch: Partial<ConversationSettings>) => void }) {
  const kind = useEngineState((s) => s.kind);
  const loadedModelId = useEngineState((s) => s.loadedModelId);
  const selectedModelId = useEngineState((s) => s.selectedModelId);
  const thinking = useEngineState((s) => s.thinking);
  const cpuFamilyId = useEngineState((s) => s.cpuFamilyId);
  const engine = useEngineState((s) => s.engine);
  const serverModel = useServerEngine((s) => s.model);
  const serverTemplate = useServerEngine((s) => effectiveTemplate(s));
  const defaults = useMemo(
    () => activeSamplingDefaults({ kind, loadedModelId, selectedModelId, thinking, cpuFamilyId }, { model: serverModel, template: serverTemplate }),
    [kind, loadedModelId, selectedModelId, thinking, cpuFamilyId, serverModel, serverTemplate],
  );
  const lastBudget = useLastBudget();
  const stored: Partial<SamplingSettings> = settings;

  return (
    <fieldset className="tools-fieldset" data-testid="sampling-settings">
      <legend>Generation</legend>
      <p className="field-hint" data-testid="sampling-defaults-source">
        Defaults for {defaults.label}: {defaults.source}. No repetition penalty by default: it would punish the quotes and braces a
        tool call's JSON repeats. Every step sends all of these and records them.
      </p>
      <div className="field-grid">
        {FIELDS.map((spec) => (
          <OptionalNumber
            key={spec.field}
            spec={spec}
            own={stored[spec.field]}
            fallback={spec.field === "seed" ? "random each turn" : String(defaults[spec.field])}
            onChange={(value) => update({ [spec.field]: value })}
          />
        ))}
      </div>
      <p className="field-hint" data-testid="setting-context-cap">
        {capNote(engine)}
      </p>
      <p className="field-hint" data-testid="setting-last-budget">
        {/* An unknown cap is explained once, by the note above. */}
        Latest step: {lastBudget ? (lastBudget.kind === "unknown" && engine?.contextWindowSize === undefined ? `max tokens ${lastBudget.requested?.toLocaleString("en-US") ?? "(engine default)"} sent as set.` : describeBudget(lastBudget)) : "no budget recorded yet."}
      </p>
    </fieldset>
  );
}
