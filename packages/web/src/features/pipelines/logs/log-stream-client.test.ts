import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket as PeerSocket } from 'ws';
import { encodeLogLines, WS_PROTOCOL, type LogStreamFrame, type LogStreamLine } from '@slipway/contracts';
import { plainText, stripAnsi, terminalText } from './log-format';
import { LogStreamClient, streamUrl } from './log-stream-client';

const line = (text: string, step = 's'): LogStreamLine => [step, 'stdout', 1_700_000_000_000, text];

interface Peer {
  base: string;
  connections: { url: string; protocols: string[]; socket: PeerSocket }[];
  close(): Promise<void>;
}

/** A real WebSocket peer on loopback that answers like the server's log socket. */
async function startPeer(
  onConnect: (socket: PeerSocket, url: URL, n: number) => void,
  refuse = false,
): Promise<Peer> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(404).end();
  });
  const wss = new WebSocketServer({ noServer: true });
  const connections: Peer['connections'] = [];
  server.on('upgrade', (req, socket, head) => {
    if (refuse) {
      socket.end('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const protocols = String(req.headers['sec-websocket-protocol'] ?? '')
        .split(',')
        .map((p) => p.trim());
      connections.push({ url: req.url ?? '', protocols, socket: ws });
      onConnect(ws, new URL(req.url ?? '/', 'http://peer'), connections.length);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `ws://127.0.0.1:${port}/api/ws`,
    connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of wss.clients) c.terminate();
        wss.close();
        server.close(() => resolve());
      }),
  };
}

const send = (socket: PeerSocket, frame: LogStreamFrame) => socket.send(JSON.stringify(frame));

function collect() {
  const got = {
    lines: [] as string[],
    froms: [] as number[],
    end: null as string | null,
    error: null as string | null,
    unavailable: false,
  };
  const handlers = {
    onLines: (task: string, lines: LogStreamLine[], from: number) => {
      got.froms.push(from);
      got.lines.push(...lines.map((l) => `${task}/${l[0]}: ${l[3]}`));
    },
    onEnd: (status: string) => void (got.end = status),
    onError: (message: string) => void (got.error = message),
    onUnavailable: () => void (got.unavailable = true),
  };
  return { got, handlers };
}

const until = async (probe: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

const credentials = { authorization: 'Bearer tok.en', workspace: 'ws-1', fingerprint: null };

describe('LogStreamClient against a real WebSocket peer', () => {
  let peer: Peer | undefined;
  afterEach(async () => {
    await peer?.close();
    peer = undefined;
  });

  it('sends the credentials as subprotocols, takes frames in order, reconnects from its offset after a drop', async () => {
    peer = await startPeer((socket, url, n) => {
      if (n === 1) {
        send(socket, {
          type: 'lines',
          task: 'build',
          from: 0,
          ...encodeLogLines([line('one'), line('two')]),
        });
        setTimeout(() => socket.terminate(), 20); // the connection drops mid-run
      } else {
        const offset = Number(url.searchParams.get('offset') ?? 0);
        // this peer repeats a line before the offset: the client must not show it twice
        send(socket, {
          type: 'lines',
          task: 'build',
          from: offset - 1,
          ...encodeLogLines([line('two'), line('three')]),
        });
        send(socket, { type: 'end', status: 'succeeded', next: offset + 1 });
        socket.close(1000);
      }
    });
    const { got, handlers } = collect();
    const client = new LogStreamClient(
      { wsBase: peer.base, runId: 'run 1', task: 'build', credentials },
      handlers,
    );
    client.start();
    await until(() => got.end !== null);
    client.stop();
    expect(got.lines).toEqual(['build/s: one', 'build/s: two', 'build/s: three']);
    expect(got.end).toBe('succeeded');
    expect(client.offset).toBe(3);
    expect(peer.connections).toHaveLength(2);
    expect(peer.connections[0]!.url).toBe('/api/ws/pipelineruns/run%201/logs?task=build');
    expect(peer.connections[1]!.url).toBe('/api/ws/pipelineruns/run%201/logs?task=build&offset=2');
    const protocols = peer.connections[0]!.protocols;
    expect(protocols[0]).toBe(WS_PROTOCOL);
    const decoded = protocols.slice(1).map((p) => {
      const [prefix, value] = [p.slice(0, p.indexOf('.') + 1), p.slice(p.indexOf('.') + 1)];
      return `${prefix}${Buffer.from(value, 'base64url').toString()}`;
    });
    expect(decoded).toEqual(['auth.Bearer tok.en', 'workspace.ws-1']);
  });

  it('reports an error frame and does not reconnect after it', async () => {
    peer = await startPeer((socket) => {
      send(socket, { type: 'error', message: 'The run has no task "x"' });
      socket.close(1000);
    });
    const { got, handlers } = collect();
    const client = new LogStreamClient({ wsBase: peer.base, runId: 'r', task: 'x', credentials }, handlers);
    client.start();
    await until(() => got.error !== null);
    await new Promise((r) => setTimeout(r, 400));
    client.stop();
    expect(got.error).toBe('The run has no task "x"');
    expect(peer.connections).toHaveLength(1);
  });

  it('says the socket is unavailable when the upgrade is refused, so the view can fall back', async () => {
    peer = await startPeer(() => undefined, true);
    const { got, handlers } = collect();
    const client = new LogStreamClient({ wsBase: peer.base, runId: 'r', credentials }, handlers);
    client.start();
    await until(() => got.unavailable);
    client.stop();
    expect(got.lines).toEqual([]);
  });

  it('builds the URL with task, step and offset', () => {
    expect(streamUrl({ wsBase: 'ws://h/api/ws', runId: 'a', task: 't', step: 's', credentials }, 5)).toBe(
      'ws://h/api/ws/pipelineruns/a/logs?task=t&step=s&offset=5',
    );
  });
});

describe('log formatting', () => {
  it('keeps ANSI colours for the terminal, ends lines with CRLF and prefixes the whole run', () => {
    const lines: LogStreamLine[] = [line('\x1b[32mok\x1b[0m', 'test'), ['test', 'stderr', 0, 'boom']];
    expect(terminalText('unit', lines, true)).toBe(
      '\x1b[2m[unit/test]\x1b[0m \x1b[32mok\x1b[0m\r\n\x1b[2m[unit/test]\x1b[0m \x1b[31mboom\x1b[0m\r\n',
    );
    expect(terminalText('unit', lines, false)).toBe('\x1b[32mok\x1b[0m\r\n\x1b[31mboom\x1b[0m\r\n');
    expect(plainText('unit', lines, true)).toBe('[unit/test] ok\n[unit/test] boom\n');
    expect(stripAnsi('\x1b]8;;http://x\x07link\x1b]8;;\x07 \x1b[1;31mred')).toBe('link red');
  });
});
