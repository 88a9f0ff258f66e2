// What deep_research delivers, per format: the instructions the sub-agent gets, and how its
// final text is turned into the tool's result.

export type DeliverableFormat = "markdown_brief" | "markdown_report" | "json_outline";
export const DELIVERABLE_FORMATS: readonly DeliverableFormat[] = ["markdown_brief", "markdown_report", "json_outline"];

export const DELIVERABLE_INSTRUCTIONS: Record<DeliverableFormat, string> = {
  markdown_brief:
    "Deliver a short Markdown brief: the answer in one or two sentences, then up to five bullet points with the key facts and where they came from.",
  markdown_report:
    "Deliver a Markdown report with the sections ## Summary, ## Findings, ## Details and ## Open questions.",
  json_outline:
    'Deliver only a JSON object, with no prose and no code fence, shaped {"title": string, "summary": string, "sections": [{"heading": string, "points": [string]}]}.',
};

export class DeliverableError extends Error {
  override name = "DeliverableError";
}

/** Reads a json_outline deliverable; a ```json fence or prose around the object is tolerated. */
export function parseJsonOutline(text: string): unknown {
  const fenced = /```(?:json)?\s*\n([\s\S]*?)\n?```/i.exec(text)?.[1];
  const candidate = (fenced ?? text).trim();
  const start = candidate.indexOf("{");
  const end = candidate.lastIndexOf("}");
  const json = start >= 0 && end > start ? candidate.slice(start, end + 1) : candidate;
  try {
    const value: unknown = JSON.parse(json);
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      throw new DeliverableError("the json_outline deliverable is not a JSON object");
    }
    return value;
  } catch (error) {
    if (error instanceof DeliverableError) throw error;
    const preview = text.length > 200 ? `${text.slice(0, 200)}…` : text;
    throw new DeliverableError(`the sub-agent's json_outline deliverable is not valid JSON (${(error as Error).message}): ${preview}`);
  }
}
