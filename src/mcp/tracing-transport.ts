// Sits between the SDK's client and its transport and hands every JSON-RPC message that
// belongs to one tool call (the request, progress, the cancellation, the response, and the
// server's own requests while it runs — elicitation, sampling — with the lab's answers) to that
// call's recorder, so the debugger can show the exchange beside the tool execution. A server's
// request while none of its calls runs, the lab's answer to it, and the server's log messages
// go to the connection's own recorder (the server's card shows them).
import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage, MessageExtraInfo } from "@modelcontextprotocol/sdk/types.js";

export type MessageRecorder = (direction: "sent" | "received", message: unknown) => void;

type Id = string | number;

function field(message: unknown, ...path: string[]): unknown {
  let value: unknown = message;
  for (const key of path) value = typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  return value;
}

const isId = (value: unknown): value is Id => typeof value === "string" || typeof value === "number";

export class TracingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  private readonly recorders = new Map<Id, MessageRecorder>();
  /** The server's requests, by the server's ids (a space apart from the client's). */
  private readonly serverRequests = new Map<Id, MessageRecorder>();
  private bindNextRequest: MessageRecorder | null = null;

  /** `mask` makes the copy of a message that is recorded (secrets out); `connection` records what belongs to no call. */
  constructor(
    readonly inner: Transport,
    private readonly mask: (message: unknown) => unknown,
    private readonly connection?: MessageRecorder,
  ) {
    inner.onmessage = (message, extra) => {
      this.route("received", message);
      this.onmessage?.(message, extra);
    };
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.route("sent", message);
    return this.inner.send(message, options);
  }

  /**
   * Runs `start`, which must send its request synchronously (the SDK's `request` does), and
   * records every message about that request with `recorder`.
   */
  traceRequest<T>(recorder: MessageRecorder, start: () => Promise<T>): Promise<T> {
    this.bindNextRequest = recorder;
    let pending: Promise<T>;
    try {
      pending = start();
    } finally {
      this.bindNextRequest = null;
    }
    return pending;
  }

  private route(direction: "sent" | "received", message: unknown): void {
    const id = field(message, "id");
    const method = field(message, "method");
    let recorder: MessageRecorder | undefined;
    if (direction === "sent" && isId(id) && typeof method === "string" && this.bindNextRequest) {
      recorder = this.bindNextRequest;
      this.bindNextRequest = null;
      this.recorders.set(id, recorder);
    } else if (direction === "received" && isId(id) && typeof method !== "string") {
      // The server's response ends the exchange.
      recorder = this.recorders.get(id);
      this.recorders.delete(id);
    } else if (direction === "received" && isId(id) && typeof method === "string") {
      // A request from the server (elicitation, sampling) while calls run: it belongs to the
      // newest one, as the lab's sampling handler decides too (the message names no call).
      recorder = [...this.recorders.values()].at(-1) ?? this.connection;
      if (recorder) this.serverRequests.set(id, recorder);
    } else if (direction === "sent" && isId(id) && typeof method !== "string") {
      // The lab's answer to a server's request.
      recorder = this.serverRequests.get(id);
      this.serverRequests.delete(id);
    } else if (method === "notifications/cancelled") {
      const requestId = field(message, "params", "requestId");
      if (isId(requestId)) {
        recorder = this.recorders.get(requestId);
        this.recorders.delete(requestId);
      }
    } else if (direction === "received" && method === "notifications/message") {
      // A log message names no call.
      recorder = this.connection;
    } else if (method === "notifications/progress") {
      // The SDK uses the request's id as its progress token.
      const token = field(message, "params", "progressToken");
      if (isId(token)) recorder = this.recorders.get(token);
    }
    recorder?.(direction, this.mask(message));
  }
}
