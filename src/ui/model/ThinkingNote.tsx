// The line under a thinking switch: whether it shows the model's default or the person's own
// setting for this model, so that the switch changing with the model explains itself.
import { useEngineState } from "../../app/lab-stores-context.tsx";
import { thinkingNote, thinkingSubjectOf } from "../../store/thinking-choice.ts";

export function ThinkingNote() {
  const note = useEngineState((s) => thinkingNote(s.thinkingChoices, thinkingSubjectOf(s)));
  return (
    <p className="model-hint" data-testid="thinking-note">
      {note}
    </p>
  );
}
