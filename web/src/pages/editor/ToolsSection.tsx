/**
 * Tools: the allowlist and the denylist, each a list of removable rows (spec, description,
 * Remove) above the cascading picker. An empty allowlist inherits every tool the caller may
 * use, and is saved empty. A name that resolves to nothing is a warning chip instead of a row.
 */
import type { McpServerList } from '../../api/editor';
import type { ToolCatalog } from '../../api/types';
import type { Problem } from './diagnostics';
import { mcpEntryName, type AgentForm } from './form-model';
import { Problems, Section, UnresolvedChip } from './parts';
import type { SectionProps } from './BasicsSection';
import { ToolPicker } from './ToolPicker';
import type { Loaded } from './use-catalogs';
import { seenMcpTools } from './use-mcp-tools';

interface ToolsProps extends SectionProps {
  catalog: Loaded<ToolCatalog>;
  mcp: Loaded<McpServerList>;
}

export function ToolsSection(props: ToolsProps) {
  return (
    <Section title="Tools">
      <ToolList {...props} list="tools" title="Allowed tools" target="allowed tools" />
      <ToolList
        {...props}
        list="disallowedTools"
        title="Disallowed tools"
        target="disallowed tools"
      />
    </Section>
  );
}

function ToolList({
  form,
  update,
  problems,
  disabled,
  catalog,
  mcp,
  list,
  title,
  target,
}: ToolsProps & { list: 'tools' | 'disallowedTools'; title: string; target: string }) {
  const specs = form[list];
  const unresolved = problems.unresolved[list];
  const entryProblems = problems.entries[list];
  const ownServers = form.mcpServers.filter((entry) => typeof entry !== 'string').map(mcpEntryName);
  const remove = (spec: string) => update({ [list]: specs.filter((entry) => entry !== spec) });
  const add = (spec: string, server?: string) => {
    const patch: Partial<AgentForm> = { [list]: [...specs, spec] };
    // An MCP tool reaches nothing unless its server is declared: adding it declares the server.
    const declared = form.mcpServers.map(mcpEntryName);
    if (list === 'tools' && server !== undefined && !declared.includes(server)) {
      patch.mcpServers = [...form.mcpServers, server];
    }
    update(patch);
  };
  const headingId = `${list}-heading`;
  return (
    <div className="tool-list">
      <h3 id={headingId}>{title}</h3>
      {specs.length === 0 ? (
        <p className="hint empty-tools">
          {list === 'tools' ? 'Inherits all tools (no tools declared)' : 'No tool is taken away.'}
        </p>
      ) : (
        <ul className="rows" aria-labelledby={headingId}>
          {specs.map((spec) => {
            const why = unresolved.get(spec);
            const extra = entryProblems?.get(spec);
            return (
              <li key={spec} className="row">
                {why === undefined ? (
                  <>
                    <code className="row-name">{spec}</code>
                    <span className="row-description">{describeTool(spec, catalog)}</span>
                    <button
                      type="button"
                      aria-label={`Remove ${spec}`}
                      disabled={disabled}
                      onClick={() => remove(spec)}
                    >
                      Remove
                    </button>
                  </>
                ) : (
                  <UnresolvedChip
                    name={spec}
                    why={why}
                    disabled={disabled}
                    onRemove={() => remove(spec)}
                  />
                )}
                <RowProblems problems={extra} id={`${list}-${spec}-problems`} />
              </li>
            );
          })}
        </ul>
      )}
      <Problems id={`${list}-problems`} problems={problems.fields[list]} />
      <ToolPicker
        target={target}
        catalog={catalog}
        mcp={mcp}
        ownServers={ownServers}
        agentName={form.name}
        selected={specs}
        disabled={disabled}
        onAdd={add}
      />
      {list === 'tools' ? (
        <p className="hint">
          Adding a tool of an MCP server also declares that server (Capabilities).
        </p>
      ) : null}
    </div>
  );
}

function RowProblems({ problems, id }: { problems: Problem[] | undefined; id: string }) {
  if (problems === undefined) return null;
  return <Problems id={id.replace(/[^A-Za-z0-9_-]/g, '_')} problems={problems} />;
}

/** What a spec grants, in the catalog's words. */
export function describeTool(spec: string, catalog: Loaded<ToolCatalog>): string {
  const lower = spec.toLowerCase();
  if (lower.startsWith('mcp:')) {
    const [, server = '', tool] = spec.split(':');
    if (tool === undefined) return `Every tool of the MCP server ${server}.`;
    const known = seenMcpTools.get(server)?.find((entry) => entry.name === tool);
    return known?.description || `Tool ${tool} of the MCP server ${server}.`;
  }
  if (catalog.state !== 'ready') return '';
  for (const provider of catalog.value.providers) {
    if (provider.name.toLowerCase() === lower) return `Every ${provider.name} tool.`;
    for (const tool of provider.tools) {
      if (tool.spec.toLowerCase() === lower || tool.name.toLowerCase() === lower) {
        return tool.description;
      }
    }
  }
  return '';
}
