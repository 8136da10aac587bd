/**
 * The cascading tool picker: first Built-in or MCP; for MCP the server, then the tool; adding
 * gives the canonical spec (`FileSystem:read`, `mcp:github:create_issue`). Only real candidates
 * are offered: built-in tools from the catalog this caller's roles allow, MCP tools from the
 * server's own live list. Nothing is typed.
 */
import { useId, useState } from 'react';
import type { McpServerList } from '../../api/editor';
import type { ToolCatalog } from '../../api/types';
import type { Loaded } from './use-catalogs';
import { useMcpTools } from './use-mcp-tools';

export interface ToolPickerProps {
  /** `allowed tools` or `disallowed tools`: what the controls' labels say they add to. */
  target: string;
  catalog: Loaded<ToolCatalog>;
  mcp: Loaded<McpServerList>;
  /** Inline servers this agent writes itself (not in /workspace/mcp until it is saved). */
  ownServers: readonly string[];
  /** The agent being edited: its own inline servers are listed under its name. */
  agentName: string;
  selected: readonly string[];
  disabled: boolean;
  onAdd: (spec: string, server?: string) => void;
}

export function ToolPicker(props: ToolPickerProps) {
  const { target, disabled } = props;
  const id = useId();
  const [kind, setKind] = useState<'builtin' | 'mcp'>('builtin');
  return (
    <div className="tool-picker" role="group" aria-label={`Add to ${target}`}>
      <div className="field">
        <label htmlFor={`${id}-kind`}>Add from</label>
        <select
          id={`${id}-kind`}
          value={kind}
          disabled={disabled}
          onChange={(event) => setKind(event.target.value as 'builtin' | 'mcp')}
        >
          <option value="builtin">Built-in</option>
          <option value="mcp">MCP</option>
        </select>
      </div>
      {kind === 'builtin' ? <BuiltinChoice {...props} id={id} /> : <McpChoice {...props} id={id} />}
    </div>
  );
}

function BuiltinChoice({
  target,
  catalog,
  selected,
  disabled,
  onAdd,
  id,
}: ToolPickerProps & { id: string }) {
  const [spec, setSpec] = useState('');
  if (catalog.state === 'loading') return <p className="hint">Loading the tool catalog…</p>;
  if (catalog.state === 'failed') {
    return <p className="field-error">The tool catalog could not be loaded: {catalog.problem}</p>;
  }
  // The MCP gateway's own tools are offered under MCP, with their servers.
  const providers = catalog.value.providers.filter((provider) => provider.name !== 'Mcp');
  const taken = new Set(selected.map((entry) => entry.toLowerCase()));
  const chosen = spec !== '' && !taken.has(spec.toLowerCase()) ? spec : '';
  return (
    <>
      <div className="field">
        <label htmlFor={`${id}-tool`}>Tool</label>
        <select
          id={`${id}-tool`}
          value={chosen}
          disabled={disabled}
          onChange={(event) => setSpec(event.target.value)}
        >
          <option value="">Choose a tool…</option>
          {providers.map((provider) => (
            <optgroup key={provider.name} label={provider.name}>
              {taken.has(provider.name.toLowerCase()) ? null : (
                <option value={provider.name}>every {provider.name} tool</option>
              )}
              {provider.tools
                .filter((tool) => !taken.has(tool.spec.toLowerCase()))
                .map((tool) => (
                  <option key={tool.spec} value={tool.spec}>
                    {tool.spec}
                  </option>
                ))}
            </optgroup>
          ))}
        </select>
      </div>
      <button
        type="button"
        disabled={disabled || chosen === ''}
        onClick={() => {
          onAdd(chosen);
          setSpec('');
        }}
      >
        Add to {target}
      </button>
    </>
  );
}

function McpChoice({
  target,
  mcp,
  ownServers,
  agentName,
  selected,
  disabled,
  onAdd,
  id,
}: ToolPickerProps & { id: string }) {
  const [server, setServer] = useState('');
  const [tool, setTool] = useState('');
  const [attempt, setAttempt] = useState(0);
  const tools = useMcpTools(server === '' ? null : server, attempt);
  if (mcp.state === 'loading') return <p className="hint">Loading the MCP servers…</p>;
  if (mcp.state === 'failed') {
    return <p className="field-error">The MCP servers could not be loaded: {mcp.problem}</p>;
  }
  // Configured servers, and the inline ones this agent writes; other agents' inline servers are
  // theirs (naming one here would mean a configured server of that name, which there is not).
  const listed = mcp.value.servers.filter(
    (entry) => !entry.source.startsWith('agent ') || entry.source === `agent ${agentName}`,
  );
  const names = [...new Set([...listed.map((entry) => entry.name), ...ownServers])];
  const status = (name: string) => listed.find((entry) => entry.name === name)?.status;
  const taken = new Set(selected.map((entry) => entry.toLowerCase()));
  const whole = `mcp:${server}`;
  const chosen = tool !== '' && !taken.has(tool.toLowerCase()) ? tool : '';
  return (
    <>
      <div className="field">
        <label htmlFor={`${id}-server`}>Server</label>
        <select
          id={`${id}-server`}
          value={server}
          disabled={disabled}
          onChange={(event) => {
            setServer(event.target.value);
            setTool('');
          }}
        >
          <option value="">
            {names.length === 0 ? 'No MCP server is configured' : 'Choose a server…'}
          </option>
          {names.map((name) => (
            <option key={name} value={name}>
              {name}
              {status(name) === undefined ? ' (written in this agent)' : ` (${status(name)})`}
            </option>
          ))}
        </select>
      </div>
      {server === '' ? null : (
        <div className="field">
          <label htmlFor={`${id}-mcp-tool`}>Tool</label>
          <select
            id={`${id}-mcp-tool`}
            value={chosen}
            disabled={disabled}
            aria-describedby={`${id}-mcp-status`}
            onChange={(event) => setTool(event.target.value)}
          >
            <option value="">Choose a tool…</option>
            {taken.has(whole.toLowerCase()) ? null : (
              <option value={whole}>every tool of {server}</option>
            )}
            {(tools?.state === 'ready' ? tools.value.tools : [])
              .map((entry) => `mcp:${server}:${entry.name}`)
              .filter((spec) => !taken.has(spec.toLowerCase()))
              .map((spec) => (
                <option key={spec} value={spec}>
                  {spec}
                </option>
              ))}
          </select>
          <McpStatus
            id={`${id}-mcp-status`}
            tools={tools}
            onRetry={() => setAttempt((n) => n + 1)}
          />
        </div>
      )}
      <button
        type="button"
        disabled={disabled || chosen === ''}
        onClick={() => {
          onAdd(chosen, server);
          setTool('');
        }}
      >
        Add to {target}
      </button>
    </>
  );
}

function McpStatus({
  id,
  tools,
  onRetry,
}: {
  id: string;
  tools: ReturnType<typeof useMcpTools>;
  onRetry: () => void;
}) {
  if (tools === null) return null;
  if (tools.state === 'loading') {
    return (
      <p id={id} className="hint">
        Asking the server for its tools…
      </p>
    );
  }
  if (tools.state === 'failed') {
    return (
      <p id={id} className="field-error">
        {tools.problem}
      </p>
    );
  }
  const { status, lastError, tools: list } = tools.value;
  if (status === 'connected') {
    return (
      <p id={id} className="hint">
        {list.length} tool{list.length === 1 ? '' : 's'} listed by the server.
      </p>
    );
  }
  return (
    <p id={id} className="hint">
      The server is {status}
      {lastError === null ? '' : `: ${lastError}`}; only “every tool” can be chosen now.{' '}
      {status === 'connecting' ? null : (
        <button type="button" className="link" onClick={onRetry}>
          Ask again
        </button>
      )}
    </p>
  );
}
