// What a settings field says when it puts a typed value back in its range: the person sees the
// value they typed was not kept, and why, instead of a silent change.
export function clampNote(typed: number, min: number, max: number): string | null {
  if (!Number.isFinite(typed) || (typed >= min && typed <= max)) return null;
  return typed < min ? `${typed} is below the least allowed, ${min}: set to ${min}.` : `${typed} is above the most allowed, ${max}: set to ${max}.`;
}
