/**
 * The editor's state: the form, the YAML text once the user has typed in it, the live check and
 * where its diagnostics go, and the save.
 *
 * - Until the user types in the YAML tab, the form is the truth and the YAML is made from it.
 *   After that the text is the truth: its check's parse fills the form, a form change is written
 *   into its key of the text, and a save sends what the text parses to.
 * - A save is refused while a declared name resolves to nothing; anything else goes to the
 *   server, whose 422 issues are shown on their fields (nothing typed is lost).
 */
import { useMemo, useRef, useState } from 'react';
import type { AgentDetail } from '../../../api/types';
import { hasUnresolved, isUnreadable, placeProblems, type FieldProblems } from '../diagnostics';
import { checkBody, fieldsOf, formOf, type AgentForm, type Fields } from '../form-model';
import { checkedLists, namesOf } from './checked-lists';
import { shownDiagnostics } from './shown-diagnostics';
import { useSave } from './use-save';
import { useAgentCheck, type Checked, type CheckRequest } from '../use-agent-check';
import { isReadableSource, patchSource, sourceOf } from '../yaml-source';

export interface EditorOptions {
  mode: 'create' | 'edit';
  initial: AgentForm;
  /** The stored agent's fields (edit): what an update is the difference from. */
  original: Fields | null;
  onSaved: (agent: AgentDetail | null) => void;
}

export function useEditor({ mode, initial, original, onSaved }: EditorOptions) {
  const [form, setForm] = useState(initial);
  const [source, setSource] = useState<string | null>(null);
  // The text last typed in the YAML tab: only its parse may fill the form (a form change
  // written into the text is already in the form).
  const typed = useRef<string | null>(null);
  // True from a keystroke in the YAML tab until its parse has filled the form.
  const awaitingParse = useRef(false);
  const [lastGood, setLastGood] = useState<Checked | null>(null);
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const saving = useSave(onSaved);
  const { attempted, serverIssues } = saving;

  const fields = useMemo(() => fieldsOf(form), [form]);
  const request: CheckRequest =
    source === null
      ? { input: { agent: checkBody(fields) }, level: form.level }
      : { input: { source }, level: form.level };

  const check = useAgentCheck(request, (checked) => {
    if (isUnreadable(checked.answer.diagnostics)) return;
    setLastGood(checked);
    const { input } = checked.request;
    if ('source' in input && input.source === typed.current) {
      awaitingParse.current = false;
      setForm((now) => formOf(checked.answer.agent, now.level));
    }
  });

  const yamlText = source ?? sourceOf(fields);
  const sourceReadable = source === null || isReadableSource(source);

  const problems: FieldProblems = useMemo(() => {
    if (lastGood === null) return placeProblems([], serverIssues, null);
    const shown = shownDiagnostics(lastGood.answer.diagnostics, {
      mode,
      typedYaml: source !== null,
      attempted,
      touched,
    });
    return placeProblems(shown, serverIssues, checkedLists(lastGood));
  }, [lastGood, serverIssues, mode, source, attempted, touched]);

  const unresolved = hasUnresolved(problems, namesOf(fields));

  function update(patch: Partial<AgentForm>): void {
    const next = { ...form, ...patch };
    const keys = Object.keys(patch);
    setForm(next);
    setTouched((now) => new Set([...now, ...keys]));
    saving.edited(keys);
    if (source !== null) {
      const patched = patchSource(source, fields, fieldsOf(next));
      if (patched !== null) {
        // Changed before the typed text's parse came: the form was behind the text, so the
        // parse of the text with this change in it is what the form should show.
        if (awaitingParse.current) typed.current = patched;
        setSource(patched);
      }
    }
  }

  function typeYaml(text: string): void {
    typed.current = text;
    awaitingParse.current = true;
    setSource(text);
    saving.clearRefusal();
  }

  function regenerate(): void {
    typed.current = null;
    awaitingParse.current = false;
    setSource(null);
  }

  const submit = (): Promise<void> =>
    saving.submit({ now: check.now, fields, level: form.level, source, original });

  return {
    form,
    fields,
    update,
    source,
    yamlText,
    sourceReadable,
    typeYaml,
    regenerate,
    check,
    lastGood,
    problems,
    unresolved,
    serverIssues,
    save: saving.save,
    submit,
  };
}
