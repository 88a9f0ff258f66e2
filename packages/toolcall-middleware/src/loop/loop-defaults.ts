// The loop's defaults and the names a native-mode step records, in a module of their own: views
// and stores read them without loading the loop itself (the lab loads it with the first turn).
export const DEFAULT_MAX_STEPS = 8;
/** What a native-mode step records as its protocol and template: the server's own. */
export const NATIVE_PROTOCOL = "native";
export const NATIVE_TEMPLATE = "server template (native tool calling)";
export const DEFAULT_TOOL_TIMEOUT_MS = 30_000;
/** Calls run per step: a reply with more gets an error result for each call past it. */
export const DEFAULT_MAX_CALLS_PER_STEP = 16;
