// What "Force no call" bans at a call's decision point (pure): the token that opened the call
// and every recorded alternative there that would begin one of the protocol's opening markers,
// by id (llama.cpp's logit bias bans ids). Without ids there is nothing to ban.
import type { DecisionPoint } from "toolcall-middleware/probabilities/decision-point.ts";

/** The tokens "Force no call" bans at a call's decision point: the sampled opener token and every recorded alternative there that begins an opening marker. */
export function openerTokensToBan(point: Extract<DecisionPoint, { kind: "call" }>, markers: readonly string[]): Array<{ id: number; text: string }> {
  const opens = (text: string) => {
    const body = text.trimStart();
    return body !== "" && markers.some((m) => m.startsWith(body) || body.startsWith(m));
  };
  const banned = new Map<number, string>();
  const own = point.token.token;
  if (own.id !== undefined) banned.set(own.id, own.top.find((a) => a.id === own.id)?.text ?? own.text);
  for (const a of own.top) if (a.id !== undefined && opens(a.text)) banned.set(a.id, a.text);
  return [...banned].map(([id, text]) => ({ id, text }));
}

