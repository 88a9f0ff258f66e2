// Protocols by name. The three built-in ones are registered here; others may be added.
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

registerProtocol(hermesProtocol);
registerProtocol(xmlProtocol);
registerProtocol(qwen3CoderProtocol);
