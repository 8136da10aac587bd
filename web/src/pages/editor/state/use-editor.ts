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
import { ApiError, messageOf, type ApiIssue } from '../../api/client';
import { createAgent, updateAgent, type CheckDiagnostic } from '../../api/editor';
import type { AgentDetail } from '../../api/types';
import {
  hasUnresolved,
  isUnreadable,
  locate,
  placeProblems,
  type CheckedLists,
  type FieldProblems,
} from './diagnostics';
import {
  checkBody,
  createBody,
  fieldsOf,
  formOf,
  isEmptyUpdate,
  knowledgeKey,
  mcpEntryName,
  updateBody,
  type AgentForm,
  type Fields,
  type McpEntry,
  type NameList,
} from './form-model';
import { useAgentCheck, type Checked, type CheckRequest } from './use-agent-check';
import { isReadableSource, maxTokensOf, patchSource, sourceOf } from './yaml-source';

export const UNRESOLVED_REFUSAL = 'Remove the names that resolve to nothing first';

export type SaveState =
  | { kind: 'idle' }
  | { kind: 'saving' }
  | { kind: 'refused'; message: string }
  | { kind: 'failed'; message: string };

export interface EditorOptions {
  mode: 'create' | 'edit';
  initial: AgentForm;
  /** The stored agent's fields (edit): what an update is the difference from. */
  original: Fields | null;
  onSaved: (agent: AgentDetail | null) => void;
}

function namesOf(fields: Pick<Fields, NameList>): Record<NameList, string[]> {
  return {
    tools: fields.tools,
    disallowedTools: fields.disallowedTools,
    skills: fields.skills,
    mcpServers: fields.mcpServers.map((entry: McpEntry) => mcpEntryName(entry)),
  };
}

/** The names each list held when checked: the request's (form) or the parse's (YAML). */
function checkedLists(checked: Checked): CheckedLists {
  const { input } = checked.request;
  if ('agent' in input) {
    const agent = input.agent as Partial<Fields>;
    return {
      ...namesOf({
        tools: agent.tools ?? [],
        disallowedTools: agent.disallowedTools ?? [],
        skills: agent.skills ?? [],
        mcpServers: agent.mcpServers ?? [],
      }),
      knowledge: (agent.knowledge ?? []).map(knowledgeKey),
    };
  }
  const { agent } = checked.answer;
  return {
    tools: agent.tools,
    disallowedTools: agent.disallowedTools,
    skills: agent.skills,
    mcpServers: Object.keys(agent.mcpServers),
    knowledge: agent.knowledge.map(knowledgeKey),
  };
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
  const [attempted, setAttempted] = useState(false);
  const [serverIssues, setServerIssues] = useState<ApiIssue[]>([]);
  const [save, setSave] = useState<SaveState>({ kind: 'idle' });

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
    const diagnostics = lastGood === null ? [] : shownDiagnostics(lastGood.answer.diagnostics);
    return placeProblems(
      diagnostics,
      serverIssues,
      lastGood === null ? null : checkedLists(lastGood),
    );

    function shownDiagnostics(all: readonly CheckDiagnostic[]): CheckDiagnostic[] {
      const out: CheckDiagnostic[] = [];
      for (const diagnostic of all) {
        if (diagnostic.code === 'name.exists') {
          if (mode === 'create') {
            out.push({
              ...diagnostic,
              severity: 'error',
              message: `${diagnostic.message.split(':')[0]}: choose another name`,
            });
          }
          continue;
        }
        // On a new form, a field's problems show once it was changed, or after a first Save:
        // an empty form is not a list of errors.
        const field = locate(diagnostic.path, null).field;
        const early =
          mode === 'create' && source === null && !attempted && !touched.has(field ?? '');
        if (!early) out.push(diagnostic);
      }
      return out;
    }
  }, [lastGood, serverIssues, mode, source, attempted, touched]);

  const unresolved = hasUnresolved(problems, namesOf(fields));

  function update(patch: Partial<AgentForm>): void {
    const next = { ...form, ...patch };
    const keys = Object.keys(patch);
    setForm(next);
    setTouched((now) => new Set([...now, ...keys]));
    setServerIssues((now) =>
      now.filter((issue) => !keys.includes(locate(issue.path, null).field ?? '')),
    );
    if (save.kind === 'refused') setSave({ kind: 'idle' });
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
    if (save.kind === 'refused') setSave({ kind: 'idle' });
  }

  function regenerate(): void {
    typed.current = null;
    awaitingParse.current = false;
    setSource(null);
  }

  const refuse = (message: string) => setSave({ kind: 'refused', message });

  async function submit(): Promise<void> {
    setAttempted(true);
    setSave({ kind: 'saving' });
    let checked: Checked;
    try {
      checked = await check.now();
    } catch (error) {
      refuse(
        (error as Error).name === 'AbortError'
          ? 'The definition changed while it was checked: save again.'
          : `The definition could not be checked: ${messageOf(error)}`,
      );
      return;
    }
    const { answer } = checked;
    let next = fields;
    let maxTokens: number | undefined;
    if (source !== null) {
      if (isUnreadable(answer.diagnostics) || !answer.valid) {
        refuse('The YAML has problems a save would refuse: see the YAML tab.');
        return;
      }
      next = fieldsOf(formOf(answer.agent, form.level));
      maxTokens = maxTokensOf(source);
      if (original !== null && next.name !== original.name) {
        refuse(
          `A saved agent keeps its name: write name: ${original.name} (duplicate it to rename).`,
        );
        return;
      }
    }
    if (
      hasUnresolved(placeProblems(answer.diagnostics, [], checkedLists(checked)), namesOf(next))
    ) {
      refuse(UNRESOLVED_REFUSAL);
      return;
    }
    try {
      if (original === null) {
        const body = {
          ...createBody(next, form.level),
          ...(maxTokens === undefined ? {} : { maxTokens }),
        };
        const created = await createAgent(body);
        setSave({ kind: 'idle' });
        onSaved(created.agent);
        return;
      }
      const body = {
        ...updateBody(original, next),
        ...(maxTokens === undefined ? {} : { maxTokens }),
      };
      if (isEmptyUpdate(body)) {
        setSave({ kind: 'idle' });
        onSaved(null);
        return;
      }
      const updated = await updateAgent(original.name, form.level, body);
      setSave({ kind: 'idle' });
      onSaved(updated.agent);
    } catch (error) {
      if (error instanceof ApiError && error.status === 422) {
        const issues =
          error.issues.length > 0 ? error.issues : [{ path: '', message: error.message }];
        setServerIssues(issues);
        refuse(
          `The server refused the save: ${error.message}. Each problem is shown on its field.`,
        );
      } else if (error instanceof ApiError && error.status === 409) {
        setServerIssues([{ path: 'name', message: error.message }]);
        refuse(`The server refused the save: ${error.message}`);
      } else {
        setSave({ kind: 'failed', message: messageOf(error) });
      }
    }
  }

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
    save,
    submit,
  };
}
