import type { LogStream, TaskIo } from './executor.js';
import type { SecretMasker } from './secret-masker.js';

/**
 * The one way lines leave the executor: masks secrets, stamps the time, numbers lines per task.
 * A sink that throws must not take the server down from inside a stream callback, so the error
 * is kept and the line dropped; `sinkError` lets the executor report it.
 */
export class TaskLog {
  attempt = 1;
  sinkError: unknown;
  private seq = 0;

  constructor(
    private readonly io: TaskIo,
    readonly masker: SecretMasker,
  ) {}

  line(step: string, stream: LogStream, text: string): void {
    this.seq += 1;
    try {
      this.io.onLine({
        step,
        stream,
        text: this.masker.mask(text),
        at: new Date(),
        seq: this.seq,
        attempt: this.attempt,
      });
    } catch (error) {
      this.sinkError ??= error;
    }
  }

  system(step: string, text: string): void {
    this.line(step, 'system', text);
  }
}
