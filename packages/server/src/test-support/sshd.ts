import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.js';

/**
 * A real OpenSSH server for tests (Debian package openssh-server): its own host key, config and
 * authorised key in a temporary directory, on a free loopback port, letting in only the current
 * user with the client key it made. git over SSH runs `git-upload-pack` through it, as on any git
 * host. Without the binary the SSH tests skip, unless CI=true or SLIPWAY_REQUIRE_SSHD=1, where a
 * missing sshd fails them.
 */
export const SSHD_BIN = process.env.SSHD_PATH ?? '/usr/sbin/sshd';
export const sshdAvailable = existsSync(SSHD_BIN) && existsSync('/usr/bin/ssh-keygen');
export const sshdRequired = process.env.CI === 'true' || process.env.SLIPWAY_REQUIRE_SSHD === '1';

export interface SshPeer {
  host: '127.0.0.1';
  port: number;
  /** the user the server lets in (the one running the tests) */
  user: string;
  /** the client's private key (OpenSSH PEM), which the server accepts */
  privateKey: string;
  /** another private key, which the server does not accept */
  strangerKey: string;
  /** a known_hosts line for this server's host key */
  knownHosts: string;
  /** a known_hosts line for this address with some other host key */
  wrongKnownHosts: string;
  /** `ssh://user@127.0.0.1:port` + an absolute path */
  url(absolutePath: string): string;
  stop(): Promise<void>;
}

function keygen(file: string): { privateKey: string; publicKey: string } {
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'slipway-test', '-f', file]);
  return { privateKey: readFileSync(file, 'utf8'), publicKey: readFileSync(`${file}.pub`, 'utf8').trim() };
}

/** Answers once the port takes a connection and sends the SSH banner. */
async function banner(port: number, deadline: number, child: ChildProcess, log: () => string) {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`sshd exited with ${child.exitCode}: ${log()}`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.setTimeout(1000);
      socket.once('data', (data) => {
        socket.destroy();
        resolve(data.toString('latin1').startsWith('SSH-'));
      });
      socket.once('error', () => resolve(false));
      socket.once('timeout', () => {
        socket.destroy();
        resolve(false);
      });
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`sshd did not answer on port ${port}: ${log()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function startSshd(): Promise<SshPeer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'slipway-sshd-'));
  const host = keygen(path.join(dir, 'host_key'));
  const client = keygen(path.join(dir, 'client_key'));
  const stranger = keygen(path.join(dir, 'stranger_key'));
  const other = keygen(path.join(dir, 'other_host_key'));
  writeFileSync(path.join(dir, 'authorized_keys'), `${client.publicKey}\n`, { mode: 0o600 });
  const user = userInfo().username;
  const port = await freePort();
  // sshd wants its privilege separation directory when it starts as root
  if (process.getuid?.() === 0) mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  writeFileSync(
    path.join(dir, 'sshd_config'),
    `Port ${port}
ListenAddress 127.0.0.1
HostKey ${dir}/host_key
PidFile ${dir}/sshd.pid
AuthorizedKeysFile ${dir}/authorized_keys
AllowUsers ${user}
PermitRootLogin prohibit-password
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PrintMotd no
LogLevel ERROR
`,
  );
  let log = '';
  const child = spawn(SSHD_BIN, ['-D', '-e', '-f', path.join(dir, 'sshd_config')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-4000)));
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await banner(port, Date.now() + 10_000, child, () => log);
  } catch (error) {
    await stop();
    throw error;
  }
  const hostKey = (pub: string) => pub.split(' ').slice(0, 2).join(' ');
  return {
    host: '127.0.0.1',
    port,
    user,
    privateKey: client.privateKey,
    strangerKey: stranger.privateKey,
    knownHosts: `[127.0.0.1]:${port} ${hostKey(host.publicKey)}\n`,
    wrongKnownHosts: `[127.0.0.1]:${port} ${hostKey(other.publicKey)}\n`,
    url: (absolutePath) => `ssh://${user}@127.0.0.1:${port}${absolutePath}`,
    stop,
  };
}
