export interface ChatReferenceBuild {
  /** Absolute path of the chat-reference binary. */
  binary: string;
  /** The llama.cpp commit it was built from (llama-server's). */
  commit: string;
  /** Why the binary found may not be run (owner, permissions, its recorded sha256), if so. */
  untrusted?: string;
}
export function chatReferenceRoot(): string;
export function findChatReference(): ChatReferenceBuild | undefined;
export function ensureChatReference(): ChatReferenceBuild;
