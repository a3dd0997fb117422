import type { IncomingMessage } from 'node:http';
import type { WebSocket } from 'ws';
import type { ExecSession, KubeObject } from './types.js';

/**
 * Runs an exec session over the channel.k8s.io WebSocket protocol (v4 and v5): channel 0 stdin,
 * 1 stdout, 2 stderr, 3 the final Status, 4 terminal resizes, 255 (v5) a stream's close.
 */
export function runExec(
  req: IncomingMessage,
  ws: WebSocket,
  findPod: (namespace: string, name: string) => KubeObject | undefined,
  exec: (session: ExecSession) => void,
): void {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const m = /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)\/exec$/.exec(url.pathname);
  const v5 = ws.protocol === 'v5.channel.k8s.io';
  const sendChannel = (channel: number, text: string) => {
    if (ws.readyState === ws.OPEN) ws.send(Buffer.concat([Buffer.from([channel]), Buffer.from(text)]));
  };
  const status = (s: Record<string, unknown>) => {
    sendChannel(3, JSON.stringify(s));
    ws.close(1000);
  };
  const pod = m ? findPod(decodeURIComponent(m[1]!), decodeURIComponent(m[2]!)) : undefined;
  if (!m || !pod) {
    status({
      metadata: {},
      status: 'Failure',
      message: `pods "${m?.[2] ?? ''}" not found`,
      reason: 'NotFound',
      code: 404,
    });
    return;
  }
  const stdinHandlers: ((text: string) => void)[] = [];
  const resizeHandlers: ((size: { width: number; height: number }) => void)[] = [];
  ws.on('message', (data: Buffer) => {
    const channel = data[0];
    const payload = data.subarray(1).toString();
    if (channel === 0) for (const h of stdinHandlers) h(payload);
    else if (channel === 4) {
      try {
        // Go decodes JSON keys case-insensitively: clients send Width/Height or width/height.
        const size = JSON.parse(payload) as Record<string, number>;
        const width = size.Width ?? size.width ?? 0;
        const height = size.Height ?? size.height ?? 0;
        for (const h of resizeHandlers) h({ width, height });
      } catch {
        /* ignore a bad resize */
      }
    } else if (channel === 255 && v5) {
      /* close of a stream: nothing to do */
    }
  });
  const containers = ((pod.spec as { containers?: { name: string }[] } | undefined)?.containers ?? []).map(
    (c) => c.name,
  );
  exec({
    namespace: decodeURIComponent(m[1]!),
    pod: decodeURIComponent(m[2]!),
    container: url.searchParams.get('container') ?? containers[0] ?? '',
    command: url.searchParams.getAll('command'),
    tty: url.searchParams.get('tty') === 'true',
    stdout: (text) => sendChannel(1, text),
    stderr: (text) => sendChannel(2, text),
    exit: (code = 0) =>
      status(
        code === 0
          ? { metadata: {}, status: 'Success' }
          : {
              metadata: {},
              status: 'Failure',
              message: `command terminated with non-zero exit code: ${code}`,
              reason: 'NonZeroExitCode',
              details: { causes: [{ reason: 'ExitCode', message: String(code) }] },
            },
      ),
    onStdin: (h) => stdinHandlers.push(h),
    onResize: (h) => resizeHandlers.push(h),
  });
}

/**
 * The default exec: `echo …` prints its arguments; a shell (`sh`, `/bin/sh`, `bash`) runs
 * `echo …`, `pwd` and `exit [n]` lines from stdin and reports terminal resizes as `resize WxH`.
 */
export function defaultExec(session: ExecSession): void {
  const [program, ...args] = session.command;
  if (program === 'echo') {
    session.stdout(args.join(' ') + '\n');
    session.exit(0);
    return;
  }
  if (program && ['sh', '/bin/sh', 'bash', '/bin/bash'].includes(program) && args[0] === '-c') {
    // `sh -c 'echo hi; exit 3'`: the same tiny shell over the script, exiting with the last status.
    let status = 0;
    for (const line of (args[1] ?? '').split(/[;\n]|&&/)) {
      const [cmd, ...rest] = line.trim().split(/\s+/);
      if (!cmd) continue;
      if (cmd === 'exit') return session.exit(Number(rest[0] ?? status));
      status = 0;
      if (cmd === 'echo') session.stdout(rest.join(' ').replace(/^(['"])(.*)\1$/, '$2') + '\n');
      else if (cmd === 'pwd') session.stdout('/\n');
      else if (cmd === 'true' || cmd === 'sleep' || cmd === ':') status = 0;
      else if (cmd === 'false') status = 1;
      else {
        session.stderr(`sh: ${cmd}: not found\n`);
        status = 127;
      }
    }
    session.exit(status);
    return;
  }
  if (program && ['sh', '/bin/sh', 'bash', '/bin/bash'].includes(program)) {
    let buffer = '';
    session.onResize(({ width, height }) => session.stdout(`resize ${width}x${height}\n`));
    session.onStdin((text) => {
      buffer += text;
      let i: number;
      while ((i = buffer.search(/[\r\n]/)) >= 0) {
        const line = buffer.slice(0, i).trim();
        buffer = buffer.slice(i + 1);
        if (!line) continue;
        const [cmd, ...rest] = line.split(/\s+/);
        if (cmd === 'echo') session.stdout(rest.join(' ') + '\n');
        else if (cmd === 'pwd') session.stdout('/\n');
        else if (cmd === 'exit') session.exit(Number(rest[0] ?? 0));
        else session.stderr(`sh: ${cmd}: not found\n`);
      }
    });
    return;
  }
  session.stderr(`exec: "${program ?? ''}": executable file not found in $PATH\n`);
  session.exit(126);
}
