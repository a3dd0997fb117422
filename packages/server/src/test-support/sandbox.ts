import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { probeSandbox, type SandboxSupport } from '../features/pipelines/executor/sandbox/probe.js';

/** The unprivileged host user the tests' sandboxes run as when the tests run as root. */
export const SANDBOX_HOST_USER = { uid: 880000, gid: 880000 };

/** CI (or SLIPWAY_REQUIRE_SANDBOX) fails a test that finds no sandbox instead of skipping it. */
export const sandboxRequired = Boolean(process.env.CI || process.env.SLIPWAY_REQUIRE_SANDBOX);

let probed: SandboxSupport | undefined;

/** What this machine's sandbox can do, probed once per test process (its files removed at exit). */
export function sandboxSupport(): SandboxSupport {
  if (probed) return probed;
  const stateDir = path.join(tmpdir(), `slipway-sandbox-probe-${process.pid}`);
  probed = probeSandbox({ stateDir, hostUser: SANDBOX_HOST_USER });
  process.once('exit', () => rmSync(stateDir, { recursive: true, force: true }));
  return probed;
}
