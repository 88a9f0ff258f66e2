// Protocols by name. Each built-in protocol is one file and one line here; others may be added
// with registerProtocol.
import type { Protocol } from "../types.ts";
import { hermesProtocol } from "./hermes.ts";
import { qwen3CoderProtocol } from "./qwen3-coder.ts";
import { xmlProtocol } from "./xml.ts";

const protocols = new Map<string, Protocol>();

export function registerProtocol(protocol: Protocol): void {
  protocols.set(protocol.name, protocol);
}

export function getProtocol(name: string): Protocol | undefined {
  return protocols.get(name);
}

export function listProtocols(): Protocol[] {
  return [...protocols.values()];
}

/** Every registered protocol's markers: no tool result may forge any of them, whatever protocol reads it. */
export function allProtocolMarkers(): string[] {
  return [...new Set(listProtocols().flatMap((p) => p.markers ?? []))];
}

registerProtocol(hermesProtocol);
registerProtocol(xmlProtocol);
registerProtocol(qwen3CoderProtocol);
