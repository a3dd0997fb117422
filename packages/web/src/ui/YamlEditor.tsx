import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { yaml } from '@codemirror/lang-yaml';
import {
  bracketMatching,
  defaultHighlightStyle,
  indentOnInput,
  syntaxHighlighting,
} from '@codemirror/language';
import { lintGutter, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import {
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
} from '@codemirror/view';
import Box from '@mui/material/Box';
import { useEffect, useRef } from 'react';
import { offsetOf, type DefinitionDiagnostic } from './yaml-diagnostics';

/**
 * A CodeMirror 6 editor for a YAML (or JSON) definition: line numbers, syntax highlighting,
 * undo history, and the server's validation issues drawn inline at their line and column.
 * Tab is left to move focus (keyboard users are never trapped); indentation follows Enter.
 */
export function YamlEditor({
  value,
  onChange,
  diagnostics,
  label,
  readOnly = false,
  testId = 'yaml-editor',
}: {
  value: string;
  onChange?: (value: string) => void;
  diagnostics: DefinitionDiagnostic[];
  label: string;
  readOnly?: boolean;
  testId?: string;
}) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const changed = useRef(onChange);
  changed.current = onChange;

  useEffect(() => {
    const v = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          highlightActiveLineGutter(),
          highlightActiveLine(),
          drawSelection(),
          history(),
          indentOnInput(),
          bracketMatching(),
          syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
          yaml(),
          lintGutter(),
          keymap.of([...defaultKeymap, ...historyKeymap]),
          EditorState.readOnly.of(readOnly),
          EditorView.editable.of(!readOnly),
          EditorView.contentAttributes.of({ 'aria-label': label, 'aria-multiline': 'true' }),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) changed.current?.(u.state.doc.toString());
          }),
          EditorView.theme({
            '&': { fontSize: '13px', border: '1px solid rgba(128,128,128,.4)', borderRadius: '4px' },
            '.cm-scroller': { fontFamily: 'monospace', minHeight: '320px', maxHeight: '560px' },
          }),
        ],
      }),
    });
    view.current = v;
    return () => {
      v.destroy();
      view.current = null;
    };
    // the editor is made once; value and diagnostics are pushed into it below
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [readOnly, label]);

  // a change from outside (the params form, a template): replace the text
  useEffect(() => {
    const v = view.current;
    if (v && v.state.doc.toString() !== value)
      v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: value } });
  }, [value]);

  useEffect(() => {
    const v = view.current;
    if (!v) return;
    const text = v.state.doc.toString();
    const list: Diagnostic[] = diagnostics.map((d) => {
      const from = offsetOf(text, d.line, d.column);
      const lineEnd = text.indexOf('\n', from);
      const to = Math.max(from + 1, lineEnd === -1 ? text.length : lineEnd);
      return { from, to: Math.min(to, text.length), severity: 'error', message: d.message };
    });
    v.dispatch(setDiagnostics(v.state, list));
  }, [diagnostics]);

  // YAML is code: it reads left to right in a right-to-left page too, as the log terminal does
  return <Box ref={host} data-testid={testId} dir="ltr" />;
}
