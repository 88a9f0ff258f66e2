// Whether the person asked for token counts (remembered: the tokenizer then loads at once next
// time), and the tokenizations already made, shared by every token view of the page.
import { createStore, type StoreApi } from "zustand/vanilla";

const WANTED_KEY = "toolcall-lab.tokens";

function recallWanted(): boolean {
  try {
    return localStorage.getItem(WANTED_KEY) === "on";
  } catch {
    return false;
  }
}

export interface TokensWanted {
  wanted: boolean;
  /** From now on (and on the next visits) count the tokens of every step shown. */
  want: () => void;
}

export type TokensWantedStore = StoreApi<TokensWanted>;

export function createTokensWantedStore(): TokensWantedStore {
  return createStore<TokensWanted>()((set) => ({
    wanted: recallWanted(),
    want: () => {
      set({ wanted: true });
      try {
        localStorage.setItem(WANTED_KEY, "on");
      } catch {
        // Remembering is a convenience.
      }
    },
  }));
}
