import type { LogStreamLine } from '@slipway/contracts';

// CSI and OSC sequences and the two-character escapes.
// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;

export function stripAnsi(text: string): string {
  return text.includes('\x1b') ? text.replace(ANSI, '') : text;
}

const DIM = '\x1b[2m';
const RESET = '\x1b[0m';
const RED = '\x1b[31m';

/**
 * Terminal text for a batch of lines: CRLF line ends (a terminal needs both), the `[task/step]`
 * prefix dimmed when the whole run is shown, stderr in red unless the line has colours of its own.
 * The lines' own ANSI escapes are kept.
 */
export function terminalText(task: string, lines: LogStreamLine[], wholeRun: boolean): string {
  let out = '';
  for (const [step, stream, , text] of lines) {
    const prefix = wholeRun ? `${DIM}[${task}/${step}]${RESET} ` : '';
    const body = stream === 'stderr' && !text.includes('\x1b') ? `${RED}${text}${RESET}` : text;
    out += `${prefix}${body}\r\n`;
  }
  return out;
}

/** The same lines as plain text (what the fallback view and copy show). */
export function plainText(task: string, lines: LogStreamLine[], wholeRun: boolean): string {
  let out = '';
  for (const [step, , , text] of lines) out += `${wholeRun ? `[${task}/${step}] ` : ''}${stripAnsi(text)}\n`;
  return out;
}
