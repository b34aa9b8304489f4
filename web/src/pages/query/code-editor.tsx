/**
 * @module pages/query/code-editor
 * The query editor: CodeMirror 6 with SQL or Python (polars script) highlighting, line numbers,
 * bracket matching, history and search; Ctrl/Cmd-Enter runs. Part of the query page's chunk, so
 * it loads only when the query console is opened.
 *
 * The editor lives in a shadow root: CodeMirror injects its styles at run time, into a `<style>`
 * element in a document (which the console's CSP, `style-src 'self'`, refuses) but as constructed
 * style sheets in a shadow root (which CSP allows). So the CSP needs no `'unsafe-inline'`.
 */
import { python } from '@codemirror/lang-python';
import { PostgreSQL, sql } from '@codemirror/lang-sql';
import { Compartment, EditorState, Prec } from '@codemirror/state';
import { EditorView, keymap } from '@codemirror/view';
import { basicSetup } from 'codemirror';
import { useEffect, useRef } from 'react';

/** The editor's languages. */
export type EditorLanguage = 'sql' | 'python';

const languageOf = (language: EditorLanguage) => (language === 'sql' ? sql({ dialect: PostgreSQL, upperCaseKeywords: true }) : python());

/** The console's look for the editor (inside the shadow root, where the page's stylesheet does not reach). */
const consoleTheme = EditorView.theme({
  '&': { minHeight: '180px', maxHeight: '50vh', backgroundColor: '#ffffff', fontSize: '13px' },
  '&.cm-focused': { outline: 'none' },
  '.cm-scroller': { fontFamily: "'DejaVu Sans Mono', ui-monospace, SFMono-Regular, Menlo, Consolas, monospace", lineHeight: '1.5' },
  '.cm-content': { minHeight: '180px' },
  '.cm-gutters': { backgroundColor: '#f0f4f7', borderRight: '1px solid #d9e0e6', color: '#8794a0' },
});

/** A controlled code editor. */
export const CodeEditor = ({
  value,
  language,
  onChange,
  onRun,
  label,
}: {
  value: string;
  language: EditorLanguage;
  onChange(value: string): void;
  onRun(): void;
  label: string;
}) => {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | undefined>(undefined);
  const languageSlot = useRef(new Compartment());
  const callbacks = useRef({ onChange, onRun });
  callbacks.current = { onChange, onRun };

  useEffect(() => {
    if (!host.current) return;
    const shadow = host.current.shadowRoot ?? host.current.attachShadow({ mode: 'open' });
    const editor = new EditorView({
      root: shadow,
      parent: shadow,
      state: EditorState.create({
        doc: value,
        extensions: [
          Prec.highest(keymap.of([{ key: 'Mod-Enter', run: () => (callbacks.current.onRun(), true) }])),
          basicSetup,
          consoleTheme,
          languageSlot.current.of(languageOf(language)),
          EditorView.lineWrapping,
          EditorView.contentAttributes.of({ 'aria-label': label, 'data-testid': 'code-editor' }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) callbacks.current.onChange(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = editor;
    return () => editor.destroy();
    // The editor is made once; value and language changes are dispatched below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    view.current?.dispatch({ effects: languageSlot.current.reconfigure(languageOf(language)) });
  }, [language]);

  useEffect(() => {
    const editor = view.current;
    if (editor && editor.state.doc.toString() !== value) editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
  }, [value]);

  return <div className="code-editor" ref={host} />;
};
