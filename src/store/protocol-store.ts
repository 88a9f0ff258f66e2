// The protocol the next turn uses, chosen in the header. Each step records the protocol it ran
// with, so changing it mid-conversation is safe.
import { create } from "zustand";

const KEY = "toolcall-lab:protocol";

function remembered(): string {
  try {
    return localStorage.getItem(KEY) || "hermes";
  } catch {
    return "hermes";
  }
}

interface ProtocolChoice {
  protocol: string;
  setProtocol: (name: string) => void;
}

export const useProtocolStore = create<ProtocolChoice>()((set) => ({
  protocol: remembered(),
  setProtocol: (name) => {
    try {
      localStorage.setItem(KEY, name);
    } catch {
      // Only a convenience: the choice still applies for this page.
    }
    set({ protocol: name });
  },
}));
