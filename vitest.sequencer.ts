import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Of the unit files, the share before which the last browser test file should have started. */
const E2E_SPREAD = 0.85;

/**
 * Vitest's order (failed first, then longest first; by size on a first run), with the browser
 * test files spread evenly among the others instead of bunched together: they run one at a time
 * (e2e/one-at-a-time.ts), so two of them next to each other would leave a worker waiting.
 */
export class SpreadBrowserTests extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const e2e = sorted.filter((f) => f.project.name === 'e2e');
    const units = sorted.filter((f) => f.project.name !== 'e2e');
    if (e2e.length === 0 || units.length === 0) return sorted;
    const step = (units.length * E2E_SPREAD) / e2e.length;
    const out: TestSpecification[] = [];
    let next = 0;
    units.forEach((unit, i) => {
      while (next < e2e.length && i >= Math.floor(next * step)) out.push(e2e[next++]!);
      out.push(unit);
    });
    return [...out, ...e2e.slice(next)];
  }
}
