import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import type { PodPlan } from './sandbox-command.js';

/** A task's network namespace: steps join it through `/proc/<pid>/ns/net`. */
export interface Pod {
  pid: number;
  stop(): void;
}

/**
 * Makes a task's network namespace from this process (the step spawner helper does the same in
 * its own source, step-spawner-helper.ts): a holder (`unshare --net`, the nft policy loaded
 * inside, then waiting on its stdin) and slirp4netns connecting it; both end with `stop()`, or
 * when this process dies (the holder's stdin and slirp4netns' exit descriptor close).
 */
export function startPod(plan: PodPlan): Promise<Pod> {
  return new Promise<Pod>((resolve, reject) => {
    let holder: ChildProcess | undefined;
    let slirp: ChildProcess | undefined;
    let settled = false;
    const stop = () => {
      for (const child of [slirp, holder]) {
        child?.removeAllListeners('exit');
        child?.kill('SIGKILL');
      }
    };
    const fail = (reason: string) => {
      if (settled) return;
      settled = true;
      stop();
      reject(new Error(reason));
    };
    let said = '';
    try {
      holder = spawn(plan.holder.file, plan.holder.args, { stdio: ['pipe', 'pipe', 'pipe'] });
    } catch (error) {
      fail(String(error));
      return;
    }
    holder.on('error', (error) => fail(String(error)));
    holder.stderr!.on('data', (d: Buffer) => (said += d.toString()));
    holder.on('exit', (code) => fail(`the network namespace ended (${code}): ${said.trim()}`));
    let out = '';
    holder.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (!out.includes('ready') || slirp || settled) return;
      const pid = holder!.pid!;
      slirp = spawn(plan.slirp.file, [...plan.slirp.args, String(pid), 'tap0'], {
        stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'],
      });
      let slirpSaid = '';
      slirp.stderr!.on('data', (d: Buffer) => (slirpSaid += d.toString()));
      slirp.on('error', (error) => fail(String(error)));
      slirp.on('exit', (code) => fail(`slirp4netns ended (${code}): ${slirpSaid.trim()}`));
      (slirp.stdio[3] as Readable).once('data', () => {
        if (settled) return;
        settled = true;
        resolve({ pid, stop });
      });
    });
  });
}
