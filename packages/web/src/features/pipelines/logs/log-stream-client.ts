import {
  decodeLogLines,
  logStreamFrameSchema,
  webSocketProtocols,
  type LogStreamLine,
} from '@slipway/contracts';

/** What the stream reports, in order: batches of lines, then one end (or an error). */
export interface LogStreamHandlers {
  /** Lines of one task, starting at the selection's line offset `from`. */
  onLines(task: string, lines: LogStreamLine[], from: number): void;
  onEnd(status: string): void;
  onError(message: string): void;
  /** The socket could not be opened at all (e.g. a proxy refuses WebSockets). */
  onUnavailable?(): void;
}

export interface LogStreamTarget {
  /** e.g. ws://host/api/ws */
  wsBase: string;
  runId: string;
  task?: string | undefined;
  step?: string | undefined;
  credentials: { authorization: string | null; workspace: string | null; fingerprint: string | null };
}

type SocketFactory = (url: string, protocols: string[]) => WebSocket;

export const RECONNECT_MS = [250, 1000, 2000, 5000];

export function streamUrl(target: LogStreamTarget, offset: number): string {
  const q = new URLSearchParams();
  if (target.task) q.set('task', target.task);
  if (target.step) q.set('step', target.step);
  if (offset > 0) q.set('offset', String(offset));
  const query = q.toString();
  return `${target.wsBase}/pipelineruns/${encodeURIComponent(target.runId)}/logs${query ? `?${query}` : ''}`;
}

/**
 * Follows a run's log over the server's WebSocket: every frame checked against the contract, the
 * offset of the next line kept, and after a dropped connection a reconnect from that offset, so
 * no line is lost or repeated. Gives up on the socket (onUnavailable) when it never opened.
 */
export class LogStreamClient {
  private socket: WebSocket | undefined;
  private next = 0;
  private attempt = 0;
  private stopped = false;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly target: LogStreamTarget,
    private readonly handlers: LogStreamHandlers,
    private readonly createSocket: SocketFactory = (url, protocols) => new WebSocket(url, protocols),
  ) {}

  get offset(): number {
    return this.next;
  }

  start(): void {
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    const socket = this.socket;
    this.socket = undefined;
    if (socket && socket.readyState <= 1) socket.close(1000);
  }

  private connect(): void {
    if (this.stopped) return;
    let opened = false;
    let done = false;
    const socket = this.createSocket(
      streamUrl(this.target, this.next),
      webSocketProtocols(this.target.credentials),
    );
    this.socket = socket;
    socket.onopen = () => {
      opened = true;
      this.attempt = 0;
    };
    socket.onmessage = (event: MessageEvent) => {
      if (this.stopped || typeof event.data !== 'string') return;
      let frame;
      try {
        frame = logStreamFrameSchema.parse(JSON.parse(event.data));
      } catch {
        return;
      }
      if (frame.type === 'lines') {
        // A reconnect starts at our offset; anything before it was already shown.
        const all = decodeLogLines(frame);
        const skip = Math.max(0, this.next - frame.from);
        const lines = skip > 0 ? all.slice(skip) : all;
        if (lines.length === 0) return;
        this.handlers.onLines(frame.task, lines, frame.from + skip);
        this.next = frame.from + all.length;
      } else if (frame.type === 'end') {
        done = true;
        this.next = Math.max(this.next, frame.next);
        this.handlers.onEnd(frame.status);
      } else {
        done = true;
        this.handlers.onError(frame.message);
      }
    };
    socket.onclose = () => {
      if (this.stopped || this.socket !== socket || done) return;
      if (!opened && this.attempt === 0 && this.next === 0) {
        this.handlers.onUnavailable?.();
        return;
      }
      const wait = RECONNECT_MS[Math.min(this.attempt, RECONNECT_MS.length - 1)]!;
      this.attempt += 1;
      this.timer = setTimeout(() => this.connect(), wait);
    };
  }
}
