import { useCallback, useEffect, useRef, useState } from 'react';
import type { EditResult } from './pipeline-edits';
import { readPipeline, type PipelineModel, type ReadResult } from './pipeline-read';

/** How long typing in the YAML waits before the canvas follows. */
export const YAML_DEBOUNCE_MS = 300;

/**
 * The studio's one source of truth: the definition's text. A visual edit replaces it and the
 * canvas follows at once; typing in the YAML replaces it and the canvas follows after a pause.
 * A text that does not read keeps the last graph that did, with the problem.
 */
export function useStudioText(initial: string) {
  const [text, setText] = useState(initial);
  const [read, setRead] = useState<ReadResult>(() => readPipeline(initial));
  const [model, setModel] = useState<PipelineModel | null>(() => (read.ok ? read.model : null));
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // the latest text, for edits made between a keystroke and the render it causes
  const latest = useRef(initial);

  const parse = useCallback((next: string) => {
    const result = readPipeline(next);
    setRead(result);
    if (result.ok) setModel(result.model);
  }, []);

  useEffect(() => () => clearTimeout(timer.current), []);

  /** The YAML editor's change: the canvas follows after a pause. */
  const typed = useCallback(
    (next: string) => {
      // the editor echoes a visual edit pushed into it: nothing new to read
      if (next === latest.current) return;
      latest.current = next;
      setText(next);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => parse(next), YAML_DEBOUNCE_MS);
    },
    [parse],
  );

  /** A visual edit on the current text; the result (refused or not) is answered. */
  const edit = useCallback(
    (change: (current: string) => EditResult): EditResult => {
      const result = change(latest.current);
      if (result.ok && result.text !== latest.current) {
        clearTimeout(timer.current);
        latest.current = result.text;
        setText(result.text);
        parse(result.text);
      }
      return result;
    },
    [parse],
  );

  return {
    text,
    /** the last pipeline that read (null when none ever did) */
    model,
    /** why the current text does not read: a parse problem, or '' when it has no Pipeline */
    problem: read.ok ? null : (read.problem ?? ''),
    typed,
    edit,
  };
}
