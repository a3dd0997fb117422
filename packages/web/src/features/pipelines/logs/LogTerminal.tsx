import Box from '@mui/material/Box';
import { forwardRef, useEffect, useImperativeHandle, useRef, useState } from 'react';

/** What the log view writes to the terminal. */
export interface LogTerminalHandle {
  /** Appends terminal text (CRLF, ANSI) and its plain form (for the view shown before xterm loads). */
  write(terminal: string, plain: string, lines: number): void;
  reset(): void;
  /** Scrolls so that the 1-based line is at the top (once it has arrived). */
  jumpTo(line: number): void;
}

export interface LogTerminalProps {
  follow: boolean;
  emptyText: string;
  label: string;
  /** The user scrolled away from the end: stop following. */
  onScrolledUp?: () => void;
}

interface XTerm {
  write(data: string, callback?: () => void): void;
  reset(): void;
  scrollToBottom(): void;
  scrollToLine(line: number): void;
  open(parent: HTMLElement): void;
  dispose(): void;
  onScroll(listener: (top: number) => void): { dispose(): void };
  buffer: { active: { viewportY: number; baseY: number } };
}

/** Lines the terminal keeps; older ones scroll out (the download has them all). */
export const SCROLLBACK_LINES = 200_000;

/**
 * A terminal (xterm, loaded on first use so it stays out of the first page's bundle) that renders
 * only the visible rows, so a million-line log scrolls smoothly. Until xterm has loaded, or where
 * it cannot run, the same lines show as plain text.
 */
export const LogTerminal = forwardRef<LogTerminalHandle, LogTerminalProps>(function LogTerminal(
  { follow, emptyText, label, onScrolledUp },
  ref,
) {
  const host = useRef<HTMLDivElement>(null);
  const term = useRef<XTerm | null>(null);
  const pending = useRef<string[]>([]);
  const written = useRef(0);
  const jump = useRef<number | null>(null);
  const followRef = useRef(follow);
  followRef.current = follow;
  const scrolledUp = useRef(onScrolledUp);
  scrolledUp.current = onScrolledUp;
  const [plain, setPlain] = useState('');
  const [ready, setReady] = useState(false);
  const [hasLines, setHasLines] = useState(false);

  const afterWrite = () => {
    const t = term.current;
    if (!t) return;
    if (jump.current !== null && written.current >= jump.current) {
      t.scrollToLine(jump.current - 1);
      jump.current = null;
    } else if (followRef.current) t.scrollToBottom();
  };

  useImperativeHandle(ref, () => ({
    write(terminal, text, lines) {
      if (written.current === 0 && lines > 0) setHasLines(true);
      written.current += lines;
      if (term.current) term.current.write(terminal, afterWrite);
      else {
        pending.current.push(terminal);
        setPlain((p) => p + text);
      }
    },
    reset() {
      written.current = 0;
      setHasLines(false);
      pending.current = [];
      setPlain('');
      term.current?.reset();
    },
    jumpTo(line) {
      jump.current = line;
      afterWrite();
    },
  }));

  useEffect(() => {
    let disposed = false;
    const cleanups: (() => void)[] = [];
    void (async () => {
      try {
        const [{ Terminal }, { FitAddon }] = await Promise.all([
          import('@xterm/xterm'),
          import('@xterm/addon-fit'),
          import('@xterm/xterm/css/xterm.css'),
        ]);
        if (disposed || !host.current) return;
        const t = new Terminal({
          convertEol: false,
          disableStdin: true,
          scrollback: SCROLLBACK_LINES,
          fontSize: 13,
          theme: { background: '#1e1e1e' },
        });
        const fit = new FitAddon();
        t.loadAddon(fit);
        t.open(host.current);
        try {
          fit.fit();
        } catch {
          // not laid out yet; the observer fits it later
        }
        const observer =
          typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(() => fit.fit());
        observer?.observe(host.current);
        let lastTop = 0;
        const scroll = t.onScroll((top) => {
          const b = t.buffer.active;
          if (top < lastTop && b.viewportY < b.baseY) scrolledUp.current?.();
          lastTop = top;
        });
        cleanups.push(
          () => observer?.disconnect(),
          () => scroll.dispose(),
          () => t.dispose(),
        );
        term.current = t as unknown as XTerm;
        for (const chunk of pending.current) t.write(chunk);
        pending.current = [];
        t.write('', afterWrite);
        setReady(true);
      } catch {
        // xterm cannot run here: keep the plain view
      }
    })();
    return () => {
      disposed = true;
      term.current = null;
      for (const c of cleanups) c();
    };
  }, []);

  return (
    <Box
      data-testid="run-logs"
      data-tour="run-terminal"
      aria-label={label}
      role="log"
      tabIndex={0}
      sx={{
        position: 'relative',
        height: 420,
        minWidth: 0,
        overflow: 'hidden',
        bgcolor: '#1e1e1e',
        color: 'grey.100',
        borderRadius: 1,
        p: 1,
      }}
    >
      {/*
        xterm must open in a laid-out box (it measures its cells), so the plain view covers it until
        then. Log text reads left to right in every language (the `dir` attribute, which the RTL
        style plugin leaves alone), and the box clips what xterm parks off screen (its measuring
        spans and helper textarea sit at left: -9999em, which in a right-to-left page would widen
        the page by some 130,000 px).
      */}
      <Box ref={host} dir="ltr" sx={{ height: '100%', overflow: 'hidden', contain: 'paint' }} />
      {!ready && (
        <Box
          component="pre"
          dir="ltr"
          sx={{
            position: 'absolute',
            inset: 0,
            m: 0,
            p: 1,
            overflow: 'auto',
            bgcolor: '#1e1e1e',
            fontFamily: 'monospace',
            fontSize: 13,
            whiteSpace: 'pre-wrap',
            wordBreak: 'break-all',
          }}
        >
          {plain || emptyText}
        </Box>
      )}
      {ready && !hasLines && (
        <Box
          sx={{
            position: 'absolute',
            top: 8,
            left: 8,
            color: 'grey.500',
            fontFamily: 'monospace',
            fontSize: 13,
          }}
        >
          {emptyText}
        </Box>
      )}
    </Box>
  );
});
