import { readFile, stat } from 'node:fs/promises';
import { defaultRuntimeSettings, runtimeSettingsSchema, type RuntimeSettings } from '@slipway/contracts';

export interface RuntimeSettingsLogger {
  warn(obj: object, msg: string): void;
}

/**
 * The runtime settings document (spec §3, §7) from SLIPWAY_CONFIG_FILE, or everything disabled.
 * The file is re-read when it changes, so an operator can switch a service on without a restart.
 * A missing or corrupt file never stops the app: it logs a warning and serves the defaults.
 */
export class RuntimeSettingsService {
  private cached: { mtimeMs: number; size: number; settings: RuntimeSettings } | undefined;
  private lastProblem: string | undefined;

  constructor(
    private readonly file: string | undefined,
    private readonly log: RuntimeSettingsLogger,
  ) {}

  async get(): Promise<RuntimeSettings> {
    if (!this.file) return defaultRuntimeSettings;
    try {
      const info = await stat(this.file);
      if (this.cached && this.cached.mtimeMs === info.mtimeMs && this.cached.size === info.size) {
        return this.cached.settings;
      }
      const raw = await readFile(this.file, 'utf8');
      const parsed = runtimeSettingsSchema.safeParse(JSON.parse(raw));
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new Error(`${issue?.path.join('.') || '(document)'}: ${issue?.message ?? 'invalid'}`);
      }
      this.cached = { mtimeMs: info.mtimeMs, size: info.size, settings: parsed.data };
      this.lastProblem = undefined;
      return parsed.data;
    } catch (err) {
      const problem = (err as Error).message;
      if (problem !== this.lastProblem) {
        this.log.warn({ file: this.file, problem }, 'runtime settings file unusable; serving defaults');
        this.lastProblem = problem;
      }
      this.cached = undefined;
      return defaultRuntimeSettings;
    }
  }
}
