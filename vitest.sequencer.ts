import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Of the unit files' estimated time, the share before which the last browser file should start. */
const E2E_SPREAD = 0.8;

/**
 * Seconds a file of average size takes, per project, for a first run without Vitest's cache
 * (measured on the 2-core machines: jsdom component files are slow, server files quick).
 */
const SECONDS_PER_FILE: Record<string, number> = { web: 6.5, server: 1.2, agent: 1.5, e2e: 16 };

/**
 * The order test files start in. Vitest's own runs one project after another (agent, contracts,
 * e2e, server, web); here every file is placed by its expected time instead, longest first, so
 * the two workers finish together, and the browser files, which run one at a time
 * (e2e/one-at-a-time.ts), are spread over the whole run by time, not bunched together where a
 * worker would wait for the lock.
 */
export class SpreadBrowserTests extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const seconds = this.estimates(sorted);
    const byTime = (a: TestSpecification, b: TestSpecification) => seconds.get(b)! - seconds.get(a)!;
    const e2e = sorted.filter((f) => f.project.name === 'e2e').sort(byTime);
    const units = sorted.filter((f) => f.project.name !== 'e2e').sort(byTime);
    if (e2e.length === 0 || units.length === 0) return sorted;
    const total = units.reduce((sum, f) => sum + seconds.get(f)!, 0);
    const every = (total * E2E_SPREAD) / e2e.length;
    const out: TestSpecification[] = [];
    let next = 0;
    let elapsed = 0;
    for (const unit of units) {
      while (next < e2e.length && elapsed >= next * every) out.push(e2e[next++]!);
      out.push(unit);
      elapsed += seconds.get(unit)!;
    }
    return [...out, ...e2e.slice(next)];
  }

  /** Each file's last duration from Vitest's cache, else its project's typical time scaled by size. */
  private estimates(files: TestSpecification[]): Map<TestSpecification, number> {
    const key = (f: TestSpecification) => `${f.project.name}:${relative(this.ctx.config.root, f.moduleId)}`;
    const size = (f: TestSpecification) => this.ctx.cache.getFileStats(key(f))?.size ?? 0;
    const meanSize = new Map<string, number>();
    for (const name of new Set(files.map((f) => f.project.name))) {
      const own = files.filter((f) => f.project.name === name);
      meanSize.set(name, own.reduce((sum, f) => sum + size(f), 0) / own.length || 1);
    }
    const out = new Map<TestSpecification, number>();
    for (const f of files) {
      const last = this.ctx.cache.getFileTestResults(key(f))?.duration;
      const typical = SECONDS_PER_FILE[f.project.name] ?? 0.1;
      out.set(f, last !== undefined ? last / 1000 : (typical * size(f)) / meanSize.get(f.project.name)!);
    }
    return out;
  }
}
