import { nftRules, type NetAllowEntry } from './network-policy.js';

/** The host tools the sandbox uses, found at start-up (see probe.ts). */
export interface SandboxTools {
  bwrap: string;
  /** Needed when the server runs as root: drops to the sandbox's host uid before bwrap. */
  setpriv?: string;
  /** A task's network: a namespace held by `unshare`, joined with `nsenter`, policed by `nft`. */
  unshare?: string;
  nsenter?: string;
  nft?: string;
  slirp4netns?: string;
  sh: string;
}

/**
 * One top-level entry of a step's root: the sandbox's `/` is an empty tmpfs (so that any mount
 * point can be made on it) holding the image's (or the host's) top-level entries, bound read-only.
 */
export interface RootEntry {
  /** Where it appears, e.g. `/usr`. */
  path: string;
  /** The directory or file bound read-only there. */
  source?: string;
  /** Or a symlink's target (merged /usr: /bin → usr/bin). */
  symlink?: string;
}

export interface SandboxRoot {
  entries: readonly RootEntry[];
  /** A file to show as /etc/resolv.conf (slirp4netns' DNS), when the root has one to cover. */
  resolvConf?: string;
  /** The root has /var/tmp (a tmpfs is put there). */
  varTmp: boolean;
}

export interface SandboxMount {
  /** The directory on the host; opened by whoever spawns the step and bound by descriptor. */
  hostPath: string;
  /** Where the step sees it. */
  path: string;
  readOnly: boolean;
  /** The volume's directory a subPath mount must lie in (checked before the step starts). */
  base?: string;
}

export interface SandboxStep {
  tools: SandboxTools;
  root: SandboxRoot;
  mounts: readonly SandboxMount[];
  /** The step's working directory inside the sandbox. */
  cwd: string;
  /** The user and group the step runs as inside (its `securityContext.runAsUser`; 0 by default). */
  uid: number;
  gid: number;
  /** The host user the sandbox maps to, when the server runs as root (setpriv drops to it). */
  hostUser?: { uid: number; gid: number };
  /** The pid holding the task's network namespace; absent: the step gets a namespace with no network. */
  netnsPid?: number;
  hostname: string;
  argv: readonly string[];
}

export interface SpawnPlan {
  file: string;
  args: string[];
  /** Host directories to open and hand to the child as descriptors 3, 4, … in this order. */
  fds: string[];
}

const FIRST_FD = 3;

/**
 * The command line that runs one step in a sandbox (decision 019): bubblewrap with its own user,
 * mount, PID, IPC, UTS and cgroup namespaces, all capabilities over the host dropped, a root made
 * of the image (or the host's system, read-only), and only the task's own directories bound in,
 * by descriptor, so that no host path is resolved as the sandbox user. With a task network it
 * first joins the task's namespace (`nsenter`, as root) and then drops to the sandbox's host user.
 */
export function sandboxCommand(step: SandboxStep): SpawnPlan {
  const { tools } = step;
  const fds: string[] = [];
  const bwrap: string[] = [
    '--unshare-user',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    ...(step.netnsPid === undefined ? ['--unshare-net'] : []),
    '--die-with-parent',
    '--new-session',
    // a nested user namespace: the mounts below are locked, so even root inside cannot
    // remount a read-only workspace writable or uncover what lies beneath
    '--disable-userns',
    '--uid',
    String(step.uid),
    '--gid',
    String(step.gid),
    '--hostname',
    step.hostname,
  ];
  // root inside gets the capabilities of a container's root, over its own namespaces only
  bwrap.push(...(step.uid === 0 ? ['--cap-add', 'ALL'] : ['--cap-drop', 'ALL']));
  for (const entry of step.root.entries) {
    if (entry.symlink !== undefined) bwrap.push('--symlink', entry.symlink, entry.path);
    else if (entry.source !== undefined) {
      bwrap.push('--ro-bind-fd', String(FIRST_FD + fds.length), entry.path);
      fds.push(entry.source);
    }
  }
  if (step.root.resolvConf !== undefined && step.netnsPid !== undefined) {
    bwrap.push('--ro-bind-fd', String(FIRST_FD + fds.length), '/etc/resolv.conf');
    fds.push(step.root.resolvConf);
  }
  bwrap.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp');
  if (step.root.varTmp) bwrap.push('--tmpfs', '/var/tmp');
  for (const mount of step.mounts) {
    bwrap.push(mount.readOnly ? '--ro-bind-fd' : '--bind-fd', String(FIRST_FD + fds.length), mount.path);
    fds.push(mount.hostPath);
  }
  bwrap.push('--chdir', step.cwd, '--', ...step.argv);

  const dropToHostUser = step.hostUser
    ? [
        tools.setpriv ?? 'setpriv',
        `--reuid=${step.hostUser.uid}`,
        `--regid=${step.hostUser.gid}`,
        '--clear-groups',
        '--',
        tools.bwrap,
      ]
    : [tools.bwrap];
  const command =
    step.netnsPid !== undefined
      ? [tools.nsenter ?? 'nsenter', `--net=/proc/${step.netnsPid}/ns/net`, '--', ...dropToHostUser, ...bwrap]
      : [...dropToHostUser, ...bwrap];
  return { file: command[0]!, args: command.slice(1), fds };
}

/** What creates a task's network namespace and connects it (see pod.ts). */
export interface PodPlan {
  holder: { file: string; args: string[] };
  /** Without the holder's pid and the interface name, which the spawner appends. */
  slirp: { file: string; args: string[] };
}

export function podPlan(tools: SandboxTools, allow: readonly NetAllowEntry[]): PodPlan {
  const script = [
    'set -e',
    'echo 1 > /proc/sys/net/ipv4/conf/all/route_localnet',
    `${tools.nft} -f - <<'SLIPWAY_NFT'`,
    nftRules(allow).trimEnd(),
    'SLIPWAY_NFT',
    'echo ready',
    // holds the namespace until its stdin (the spawner's end of a pipe) closes
    'read -r _ || true',
  ].join('\n');
  const hostLoopback = allow.some((a) => a.loopback);
  return {
    holder: { file: tools.unshare!, args: ['--net', '--', tools.sh, '-c', script] },
    slirp: {
      file: tools.slirp4netns!,
      args: [
        '--configure',
        '--mtu=65520',
        ...(hostLoopback ? [] : ['--disable-host-loopback']),
        '--ready-fd=3',
        '--exit-fd=4',
      ],
    },
  };
}
