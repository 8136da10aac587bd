/**
 * Every capability dimension of one agent, each in its own headed section, the empty ones
 * included and stated plainly: a reader should never have to infer what an absent field means.
 */
import { useId, type ReactNode } from 'react';
import type { AgentDetail } from '../../api/agents';
import {
  APPROVAL_MEANINGS,
  EMPTY_STATEMENTS,
  FLAG_MEANINGS,
  MEMORY_MEANINGS,
  TOOLS_DECLARED,
} from './capability-words';

export function CapabilityList({ agent }: { agent: AgentDetail }) {
  return (
    <div className="capabilities">
      <Capability title="Tools">
        <Names names={agent.tools} empty={EMPTY_STATEMENTS.tools} />
        {agent.tools.length === 0 ? null : <p className="hint">{TOOLS_DECLARED}</p>}
      </Capability>
      <Capability title="Disallowed tools">
        <Names names={agent.disallowedTools} empty={EMPTY_STATEMENTS.disallowedTools} />
        {agent.disallowedTools.length === 0 ? null : (
          <p className="hint">Removed after the tools list resolves.</p>
        )}
      </Capability>
      <Capability title="Skills">
        <Names names={agent.skills} empty={EMPTY_STATEMENTS.skills} />
        {agent.skills.length === 0 ? null : (
          <p className="hint">Listed in the prompt&apos;s skill catalog, loaded with use_skill.</p>
        )}
      </Capability>
      <Capability title="MCP servers" wide={agent.mcpServerNames.length > 0}>
        <McpServers agent={agent} />
      </Capability>
      <Capability title="Knowledge sources">
        {agent.knowledge.length === 0 ? (
          <p className="statement">{EMPTY_STATEMENTS.knowledge}</p>
        ) : (
          <ul className="plain">
            {agent.knowledge.map((source) => (
              <li key={source.name}>
                <strong>{source.name}</strong>: <code>{source.glob}</code>
              </li>
            ))}
          </ul>
        )}
      </Capability>
      <Capability title="Memory">
        <p className="statement">
          <strong>{agent.memory}</strong>: {MEMORY_MEANINGS[agent.memory]}
        </p>
      </Capability>
      <Capability title="Model">
        <p className="statement">
          <code>{agent.model}</code>
          {agent.model === 'default' ? ": the workspace's models.default" : null}
        </p>
      </Capability>
      <Capability title="Approval policy" wide>
        <Policy agent={agent} />
      </Capability>
      <Capability title="Turn limit">
        <p className="statement">
          {agent.maxTurns} model rounds per delegation
          {agent.runConfig === undefined ? null : (
            <>
              {' '}
              (runConfig: <code>{JSON.stringify(agent.runConfig)}</code>)
            </>
          )}
        </p>
      </Capability>
      <Capability title="Token budget">
        <p className="statement">
          {agent.maxTokens === undefined
            ? 'none: model calls are not limited by tokens.'
            : `${agent.maxTokens.toLocaleString('en')} tokens per delegation: it stops before a model call past them.`}
        </p>
      </Capability>
      <Capability title="Background">
        <p className="statement">
          {agent.background
            ? 'yes: its delegations return at once and run on.'
            : 'no: a caller that waits gets its result.'}
        </p>
      </Capability>
      <Capability title="Card deadlines">
        <dl className="pairs">
          <dt>cardTimeout</dt>
          <dd>{agent.cardTimeout ?? "the workspace's cards.timeout, else none"}</dd>
          <dt>cardReminder</dt>
          <dd>{agent.cardReminder ?? "the workspace's cards.reminder, else none"}</dd>
          <dt>cardTimeoutOutcome</dt>
          <dd>{agent.cardTimeoutOutcome ?? "the workspace's, else deny"}</dd>
        </dl>
      </Capability>
      <Capability title="Sandbox">
        <p className="statement">{sandboxStatement(agent.sandbox)}</p>
      </Capability>
      <Capability title="Hooks" wide={agent.hookEvents.length > 0}>
        <Hooks agent={agent} />
      </Capability>
    </div>
  );
}

/** What its bash calls may touch, as declared; the bounds themselves are in a delegation. */
function sandboxStatement(sandbox: AgentDetail['sandbox']): string {
  if (sandbox === undefined) return "not declared: the workspace's sandbox, else off.";
  if (sandbox === 'off') return "off: bash runs as the worker's user.";
  if (sandbox === 'on') return 'on: bash sees the workspace only, with no network.';
  const parts = [
    sandbox.write?.length ? `also writes ${sandbox.write.join(', ')}` : '',
    sandbox.read?.length ? `also reads ${sandbox.read.join(', ')}` : '',
    sandbox.env?.length ? `variables ${sandbox.env.join(', ')}` : '',
    Object.keys(sandbox.limits ?? {}).length > 0
      ? `limits ${Object.entries(sandbox.limits ?? {})
          .map(([name, value]) => `${name} ${value}`)
          .join(', ')}`
      : '',
  ].filter((part) => part !== '');
  return `on, no network${parts.length > 0 ? `: ${parts.join('; ')}` : ''}.`;
}

function Capability({
  title,
  wide = false,
  children,
}: {
  title: string;
  /** Two grid columns, for content that wraps badly in one (configs, explanations). */
  wide?: boolean;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <section className={`capability panel${wide ? ' wide' : ''}`} aria-labelledby={headingId}>
      <h3 id={headingId}>{title}</h3>
      {children}
    </section>
  );
}

function Names({ names, empty }: { names: string[]; empty: string }) {
  if (names.length === 0) return <p className="statement">{empty}</p>;
  return (
    <ul className="chips plain">
      {names.map((name) => (
        <li key={name} className="chip">
          <code>{name}</code>
        </li>
      ))}
    </ul>
  );
}

function McpServers({ agent }: { agent: AgentDetail }) {
  if (agent.mcpServerNames.length === 0) {
    return <p className="statement">{EMPTY_STATEMENTS.mcpServers}</p>;
  }
  return (
    <ul className="plain">
      {agent.mcpServerNames.map((name) => {
        const server = agent.mcpServers[name] ?? {};
        // `{}` names a server of the workspace configuration; its settings are not the agent's.
        const inline = Object.keys(server).length > 0;
        return (
          <li key={name}>
            <strong>{name}</strong>
            {inline ? (
              <>
                {': inline (secrets redacted)'}
                <pre>{JSON.stringify(server, null, 2)}</pre>
              </>
            ) : (
              ': configured in the workspace (config.yaml or .mcp.json)'
            )}
          </li>
        );
      })}
    </ul>
  );
}

function Policy({ agent }: { agent: AgentDetail }) {
  const effective = agent.effectivePolicy;
  const flags = (Object.keys(effective.flags) as Array<keyof typeof effective.flags>).filter(
    (flag) => effective.flags[flag] === true,
  );
  return (
    <dl className="pairs">
      <dt>approvalMode</dt>
      <dd>{agent.approvalMode}</dd>
      <dt>permissionMode</dt>
      <dd>{agent.permissionMode ?? 'not set'}</dd>
      <dt>runs as</dt>
      <dd>
        <strong>{effective.approvalMode}</strong>: {APPROVAL_MEANINGS[effective.approvalMode]}
        {flags.map((flag) => (
          <span key={flag} className="flag">
            {' '}
            Also {FLAG_MEANINGS[flag]}.
          </span>
        ))}
      </dd>
    </dl>
  );
}

function Hooks({ agent }: { agent: AgentDetail }) {
  const events = Object.entries(agent.hooks).filter(([, commands]) => commands.length > 0);
  if (events.length === 0) return <p className="statement">{EMPTY_STATEMENTS.hooks}</p>;
  return (
    <dl className="pairs">
      {events.map(([event, commands]) => (
        <div key={event}>
          <dt>{event}</dt>
          {commands.map((hook, index) => (
            <dd key={index}>
              <code>{hook.command}</code>
              {hook.matcher === undefined ? null : <> (matcher {hook.matcher})</>}
              {hook.timeoutSeconds === undefined ? null : <> (timeout {hook.timeoutSeconds} s)</>}
            </dd>
          ))}
        </div>
      ))}
    </dl>
  );
}
