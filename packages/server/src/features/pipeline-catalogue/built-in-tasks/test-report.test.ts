import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseDefinition } from '../../pipelines/definition/index.js';
import { TEST_REPORT_TASK } from './test-report.js';

const dir = mkdtempSync(path.join(tmpdir(), 'slipway-test-report-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the step's script with sh, its $(...) references filled in by hand. */
function run(xml: string): { code: number; tests: string; failures: string } {
  const parsed = parseDefinition(TEST_REPORT_TASK);
  if (!parsed.ok) throw new Error('invalid');
  writeFileSync(path.join(dir, 'junit.xml'), xml);
  const script = parsed.tasks[0]!.spec.steps[0]!.script!.replaceAll('$(params.REPORT_PATH)', 'junit.xml')
    .replaceAll('$(results.tests.path)', path.join(dir, 'tests'))
    .replaceAll('$(results.failures.path)', path.join(dir, 'failures'));
  let code = 0;
  try {
    execFileSync('sh', ['-c', script], { cwd: dir, stdio: 'pipe' });
  } catch (err) {
    code = (err as { status: number }).status;
  }
  const read = (f: string) => readFileSync(path.join(dir, f), 'utf8');
  return { code, tests: read('tests'), failures: read('failures') };
}

describe('the test-report script', () => {
  it('counts tests and passes when none failed', () => {
    expect(run('<testsuite><testcase name="a"/><testcase name="b"></testcase></testsuite>')).toEqual({
      code: 0,
      tests: '2',
      failures: '0',
    });
  });

  it('fails when a test failed', () => {
    const xml =
      '<testsuite><testcase name="a"><failure message="x"/></testcase><testcase name="b"/></testsuite>';
    expect(run(xml)).toEqual({ code: 1, tests: '2', failures: '1' });
  });
});
