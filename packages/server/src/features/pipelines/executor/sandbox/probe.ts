import { spawnSync } from 'node:child_process';
import {
  accessSync,
  constants,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  writeFileSync,
} from 'node:fs';
import { delimiter, join } from 'node:path';
import { SLIRP_DNS } from './network-policy.js';
import type { RootEntry, SandboxTools } from './sandbox-command.js';

/** What this host can do for the local executor's sandbox, found once at start-up. */
export interface SandboxSupport {
  /** bubblewrap works here: steps can be sandboxed. */
  available: boolean;
  /** Why not, in words for the operator (empty when available). */
  reason: string;
  tools: SandboxTools;
  /** Tasks get a network of their own (root, nft, slirp4netns); otherwise steps get none. */
  network: boolean;
  /** Why tasks get no network (empty when they do). */
  networkReason: string;
  /** The server runs as root: steps run as the sandbox's unprivileged host user. */
  root: boolean;
  /** The host's system as a read-only root (`SLIPWAY_STEP_IMAGES=host`). */
  hostRoot: RootEntry[];
  /** The file bound over /etc/resolv.conf (slirp4netns' DNS). */
  resolvConf: string;
  /**
   * How a step's process count is limited (RLIMIT_NPROC, set inside the sandbox so that it counts
   * that sandbox's processes only): util-linux `prlimit` from the host's system, and for steps in
   * their own image a statically linked busybox bound in at /tekton/bin/busybox (its `ulimit -u`).
   */
  limiter: { prlimit?: string; staticBusybox?: string };
  /** Memory and CPU limits need a cgroup v2 subtree delegated to the server; found or not, and why. */
  cgroup: { limits: boolean; reason: string };
}

/** True when `file` is a 64-bit ELF executable with no program interpreter (statically linked). */
export function isStaticElf(file: string): boolean {
  try {
    const head = readFileSync(file).subarray(0, 1 << 16);
    if (head.readUInt32BE(0) !== 0x7f454c46 || head[4] !== 2) return false;
    const little = head[5] === 1;
    const u16 = (at: number) => (little ? head.readUInt16LE(at) : head.readUInt16BE(at));
    const phoff = Number(little ? head.readBigUInt64LE(0x20) : head.readBigUInt64BE(0x20));
    const [size, count] = [u16(0x36), u16(0x38)];
    if (phoff + size * count > head.length) return false;
    for (let i = 0; i < count; i += 1) {
      const type = little ? head.readUInt32LE(phoff + i * size) : head.readUInt32BE(phoff + i * size);
      if (type === 3) return false; // PT_INTERP: dynamically linked
    }
    return true;
  } catch {
    return false;
  }
}

/** Whether this process may make cgroup v2 children with the memory and cpu controllers. */
export function probeCgroup(root = '/sys/fs/cgroup'): { limits: boolean; reason: string } {
  const no = (why: string) => ({ limits: false, reason: `cgroup v2 not delegated: ${why}` });
  let own: string;
  try {
    if (!existsSync(join(root, 'cgroup.controllers'))) return no('this host uses cgroup v1');
    const line = readFileSync('/proc/self/cgroup', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('0::'));
    own = join(root, line?.slice(3) ?? '/');
  } catch (error) {
    return no(String(error));
  }
  try {
    const controllers = readFileSync(join(own, 'cgroup.controllers'), 'utf8').split(/\s+/);
    const missing = ['memory', 'cpu'].filter((c) => !controllers.includes(c));
    if (missing.length > 0) return no(`the ${missing.join(' and ')} controller is not available to ${own}`);
    accessSync(join(own, 'cgroup.subtree_control'), constants.W_OK);
    accessSync(own, constants.W_OK);
  } catch {
    return no(`${own} is not writable by the server`);
  }
  // found, but the executor does not use it yet: reported, not faked
  return {
    limits: false,
    reason: `cgroup v2 is delegated (${own}), but the local executor does not apply memory and CPU limits yet`,
  };
}

/** The top-level directories of the host's system that a host-mode step sees, read-only. */
const HOST_SYSTEM = ['usr', 'bin', 'sbin', 'lib', 'lib32', 'lib64', 'libx32', 'etc'];

function which(name: string, path: string): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const file = join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

export function hostRootEntries(): RootEntry[] {
  const entries: RootEntry[] = [];
  for (const name of HOST_SYSTEM) {
    const path = `/${name}`;
    try {
      const stat = lstatSync(path);
      if (stat.isSymbolicLink()) entries.push({ path, symlink: readlinkSync(path) });
      else if (stat.isDirectory()) entries.push({ path, source: path });
    } catch {
      // this host has none
    }
  }
  return entries;
}

export interface ProbeOptions {
  /** Where the probe may write the sandbox's small files (`<data dir>/sandbox`). */
  stateDir: string;
  /** The sandbox's host user when the server runs as root. */
  hostUser: { uid: number; gid: number };
  path?: string;
}

/** Looks for the tools and tries a sandbox once (a few milliseconds). */
export function probeSandbox(options: ProbeOptions): SandboxSupport {
  const path = options.path ?? process.env.PATH ?? '/usr/sbin:/usr/bin:/sbin:/bin';
  const searchPath = `${path}${delimiter}/usr/sbin${delimiter}/sbin`;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const tools: SandboxTools = {
    bwrap: which('bwrap', searchPath) ?? 'bwrap',
    sh: which('sh', searchPath) ?? '/bin/sh',
    setpriv: which('setpriv', searchPath),
    unshare: which('unshare', searchPath),
    nsenter: which('nsenter', searchPath),
    nft: which('nft', searchPath),
    slirp4netns: which('slirp4netns', searchPath),
  };
  const resolvConf = join(options.stateDir, 'resolv.conf');
  const hostRoot = hostRootEntries();
  const busybox = which('busybox', searchPath);
  const limiter = {
    prlimit: which('prlimit', searchPath),
    ...(busybox && isStaticElf(busybox) ? { staticBusybox: busybox } : {}),
  };
  const cgroup = probeCgroup();
  const unavailable = (reason: string): SandboxSupport => ({
    available: false,
    reason,
    tools,
    network: false,
    networkReason: reason,
    root,
    hostRoot,
    resolvConf,
    limiter,
    cgroup,
  });
  if (process.platform !== 'linux')
    return unavailable(`sandboxes need Linux namespaces; this is ${process.platform}`);
  if (!which('bwrap', searchPath)) return unavailable('bubblewrap (bwrap) is not installed');
  if (root && !tools.setpriv) return unavailable('setpriv (util-linux) is not installed');
  try {
    mkdirSync(options.stateDir, { recursive: true, mode: 0o755 });
    writeFileSync(resolvConf, `nameserver ${SLIRP_DNS}\n`, { mode: 0o644 });
  } catch (error) {
    return unavailable(`${options.stateDir} could not be written: ${String(error)}`);
  }
  const trial = [
    ...(root
      ? [
          tools.setpriv!,
          `--reuid=${options.hostUser.uid}`,
          `--regid=${options.hostUser.gid}`,
          '--clear-groups',
          '--',
        ]
      : []),
    tools.bwrap,
    '--unshare-all',
    '--unshare-user',
    '--die-with-parent',
    '--disable-userns',
    '--uid',
    '0',
    '--gid',
    '0',
    ...hostRoot.flatMap((e) =>
      e.symlink !== undefined ? ['--symlink', e.symlink, e.path] : ['--ro-bind', e.path, e.path],
    ),
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    tools.sh,
    '-c',
    'exit 0',
  ];
  const result = spawnSync(trial[0]!, trial.slice(1), {
    encoding: 'utf8',
    timeout: 10_000,
    env: { PATH: path },
  });
  if (result.error || result.status !== 0) {
    const said = (result.stderr || String(result.error ?? `exit code ${result.status}`))
      .trim()
      .split('\n')[0];
    return unavailable(`bubblewrap could not make a sandbox here: ${said}`);
  }
  const missing = (['unshare', 'nsenter', 'nft', 'slirp4netns'] as const).filter((t) => !tools[t]);
  const networkReason = !root
    ? 'task networks need the server to run as root (nftables inside each namespace); steps run with no network'
    : missing.length > 0
      ? `${missing.join(', ')} not installed; steps run with no network`
      : '';
  return {
    available: true,
    reason: '',
    tools,
    network: networkReason === '',
    networkReason,
    root,
    hostRoot,
    resolvConf,
    limiter,
    cgroup,
  };
}
